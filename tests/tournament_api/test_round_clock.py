"""A round's clock on the site (issue 33, item 4): the TD starts it on the director's page (the
service gives the instant), and it counts down on the projector and on the pages a table's code
opens (the entry page, the result page); a closed round's clock is not shown."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from django.test import Client

from games.tournaments import selectors
from games.tournaments.models import Tournament, TournamentEvent
from tests.tournament_api.test_api import append
from tests.tournament_api.test_table_codes import finish_table, published_round, with_code

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def director(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start_clock(td: Client, tid: int, minutes) -> None:
    seq = Tournament.objects.get(pk=tid).seq
    td.post(f"/tournaments/{tid}/act/", {"action": "clock", "minutes": minutes, "seq": seq}, **EN)


def clock_box(page: str) -> str:
    return page.split('id="round-clock"')[1].split("</p>")[0]


@pytest.mark.django_db
def test_the_td_starts_the_clock_and_the_service_gives_the_instant(club, scorer, scorer_client):
    tid, _tables = published_round(scorer_client)
    td = director(scorer)
    page = td.get(f"/tournaments/{tid}/", **EN).content.decode()
    assert 'id="round-clock"' not in page, page[page.find('id="round-clock"') - 300 :][:500]
    assert "Start the round's clock" in page
    before = datetime.now(timezone.utc).replace(microsecond=0)
    start_clock(td, tid, 45)
    event = TournamentEvent.objects.filter(tournament_id=tid).order_by("seq").last()
    assert event.type == "round_clock_started" and event.payload["round"] == 1 and event.payload["minutes"] == 45
    started = datetime.fromisoformat(event.payload["started_at"])
    assert before <= started <= datetime.now(timezone.utc)
    page = td.get(f"/tournaments/{tid}/", **EN).content.decode()
    box = clock_box(page)
    ends = datetime.fromisoformat(re.search(r'data-ends-at="([^"]+)"', box).group(1))
    assert ends - started == timedelta(minutes=45)
    assert re.search(r'id="clock-left">(4[45]:\d\d)<', box), box
    assert "Restart the clock" in page and 'value="45"' in page, "the form offers the length last used"
    assert "Times on this page are" in page, "the end's time of day names the club's clock"


@pytest.mark.django_db
@pytest.mark.parametrize("minutes", ["0", "601", "an hour", ""])
def test_a_length_out_of_bounds_stores_nothing_and_says_what_to_give(club, scorer, scorer_client, minutes):
    tid, _tables = published_round(scorer_client)
    td = director(scorer)
    seq = Tournament.objects.get(pk=tid).seq
    response = td.post(
        f"/tournaments/{tid}/act/", {"action": "clock", "minutes": minutes, "seq": seq}, follow=True, **EN
    )
    assert Tournament.objects.get(pk=tid).seq == seq
    assert "give the round&#x27;s length in minutes, from 1 to 600" in response.content.decode()


@pytest.mark.django_db
def test_the_api_stamps_a_clock_without_an_instant_and_keeps_one_given(club, scorer_client):
    tid, _tables = published_round(scorer_client)
    seq = Tournament.objects.get(pk=tid).seq
    assert (
        append(scorer_client, tid, [{"type": "round_clock_started", "round": 1, "minutes": 60}], seq).status_code == 201
    )
    given = {"type": "round_clock_started", "round": 1, "minutes": 50, "started_at": "2026-03-14T19:30:00+01:00"}
    assert append(scorer_client, tid, [given], seq + 1).status_code == 201
    events = [e for e in selectors.events(Tournament.objects.get(pk=tid)) if e["type"] == "round_clock_started"]
    assert "started_at" in events[0] and events[1]["started_at"] == "2026-03-14T19:30:00+01:00"
    refused = append(scorer_client, tid, [{**given, "started_at": "19:30"}], seq + 2, **EN)
    assert refused.status_code == 400 and refused.json()["code"] == "malformed"
    assert "UTC offset" in refused.json()["message"]


@pytest.mark.django_db
def test_the_projector_and_the_tables_pages_count_down_to_the_same_end(club, scorer, scorer_client):
    tid, tables = published_round(scorer_client)
    start_clock(director(scorer), tid, 60)
    game, code, pins = tables[1]["game"], tables[1]["code"], tables[1]["pins"]
    phone = Client()
    phone.get(f"/t/{code}/", **EN)
    projector = Client().get(f"/tournaments/{tid}/projector/", **EN).content.decode()
    entry = phone.get(f"/games/{game}/enter/", **EN).content.decode()
    ends = {re.search(r'data-ends-at="([^"]+)"', clock_box(page)).group(1) for page in (projector, entry)}
    assert len(ends) == 1
    for page in (projector, entry):
        assert "Round 1: time left" in clock_box(page) and "tournaments/round_clock.js" in page
    finish_table(with_code(code), game)
    phone.post(f"/games/{game}/enter/result/", {"action": "record", "pin": pins["ns"]})
    result = phone.get(f"/games/{game}/enter/result/", **EN).content.decode()
    assert re.search(r'data-ends-at="([^"]+)"', clock_box(result)).group(1) in ends


@pytest.mark.django_db
def test_a_clock_run_out_says_so_and_a_closed_rounds_clock_is_gone(club, scorer, scorer_client):
    tid, tables = published_round(scorer_client)
    seq = Tournament.objects.get(pk=tid).seq
    long_ago = {"type": "round_clock_started", "round": 1, "minutes": 30, "started_at": "2026-01-01T19:00:00Z"}
    assert append(scorer_client, tid, [long_ago], seq).status_code == 201
    projector = Client().get(f"/tournaments/{tid}/projector/", **EN).content.decode()
    assert "Time is up: finish the hand you are playing." in clock_box(projector)
    for table in (1, 2):
        finish_table(scorer_client, tables[table]["game"])
        assert (
            scorer_client.post(
                f"/api/tournaments/{tid}/rounds/1/tables/{table}/result-from-game/", {}, format="json"
            ).status_code
            == 201
        )
    seq = Tournament.objects.get(pk=tid).seq
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq).status_code == 201
    assert 'id="round-clock"' not in Client().get(f"/tournaments/{tid}/projector/", **EN).content.decode()
    page = director(scorer).get(f"/tournaments/{tid}/", **EN).content.decode()
    assert 'id="round-clock"' not in page and 'id="clock-form"' not in page
