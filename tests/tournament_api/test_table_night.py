"""The table card through the evening (issue 33, items 1 and 3): the entry page is named by round
and table and leads on after the last hand to the result (with its VP), the opponents' answer, and
where everyone sits next; a replaced card tells its holder, in words, to scan the new one."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.tournaments.models import Tournament
from tests.tournament_api.test_api import append, pair_next_round
from tests.tournament_api.test_table_codes import finish_table, published_round, with_code

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def phone_for(code: str) -> Client:
    phone = Client()
    assert phone.get(f"/t/{code}/", **EN).status_code == 302
    return phone


@pytest.mark.django_db
def test_the_entry_page_is_named_by_round_and_table_and_leads_on_after_the_last_hand(club, scorer_client):
    _tid, tables = published_round(scorer_client)
    game, code = tables[1]["game"], tables[1]["code"]
    phone = phone_for(code)
    with translation.override("en"):
        page = phone.get(f"/games/{game}/enter/", **EN).content.decode()
        assert "<title>Enter · Round 1 · Table 1" in page
        assert f"Game {game}" not in page, "a table's pages are not named by the game's number"
        assert '<div id="game-over"' in page and 'role="status" hidden>' in page.split('id="game-over"')[1][:40]
        finish_table(with_code(code), game)
        page = phone.get(f"/games/{game}/enter/", **EN).content.decode()
        over = page.split('id="game-over"')[1].split("</div>")[0]
        assert "hidden" not in over.split(">")[0], "the finished game shows the way on"
        assert f'href="/games/{game}/enter/result/"' in over


@pytest.mark.django_db
def test_the_result_page_shows_the_vp_and_then_where_everyone_sits_next(club, scorer_client):
    tid, tables = published_round(scorer_client)
    game, code, pins = tables[1]["game"], tables[1]["code"], tables[1]["pins"]
    phone = phone_for(code)
    finish_table(with_code(code), game)
    url = f"/games/{game}/enter/result/"
    phone.post(url, {"action": "record", "pin": pins["ns"]})
    page = phone.get(url, **EN).content.decode()
    assert "<title>Round 1 · Table 1" in page and 'id="result-vp"' in page
    assert "Hand the phone to your opponents." in page and 'id="lead-on"' not in page, "not done before the answer"
    phone.post(url, {"action": "confirm", "pin": pins["ew"]})
    page = phone.get(url, **EN).content.decode()
    assert 'id="next-wait"' in page and 'id="check-again"' in page, "round 2 is not published yet"

    # the director closes the round and publishes round 2: the same page leads on, no rescan
    for number in (2,):
        finish_table(scorer_client, tables[number]["game"])
        assert (
            scorer_client.post(
                f"/api/tournaments/{tid}/rounds/1/tables/{number}/result-from-game/", {}, format="json"
            ).status_code
            == 201
        )
    seq = Tournament.objects.get(pk=tid).seq
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq).status_code == 201
    pair_next_round(scorer_client, tid)
    round2 = {g["table"]: g["game"] for g in scorer_client.post(f"/api/tournaments/{tid}/rounds/2/games/").json()}
    response = phone.get(url, **EN)
    assert response.status_code == 302 and response["Location"].endswith(f"?after={game}")
    page = phone.get(response["Location"], **EN).content.decode()
    assert 'id="next-round"' in page and "Done: round 2 is published." in page
    seats = page.split('id="next-seats"')[1].split("</ul>")[0]
    assert seats.count("<li") == 4, "each of the table's four players"
    assert "table " in seats and ("North" in seats or "East" in seats)
    opened = phone.get(page.split('id="open-next"')[0].rsplit('href="', 1)[1].split('"')[0], **EN)
    assert opened["Location"] == f"/games/{round2[1]}/enter/", "the card opens the table's round 2 game"
    assert "Round 2 · Table 1" in phone.get(opened["Location"], **EN).content.decode()


@pytest.mark.django_db
def test_a_replaced_card_tells_its_holder_to_scan_the_new_one(club, scorer_client):
    tid, tables = published_round(scorer_client)
    game, code = tables[1]["game"], tables[1]["code"]
    phone = phone_for(code)
    assert scorer_client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 201
    answer = phone.get(f"/api/games/{game}/legal/", **EN)
    assert answer.status_code == 403 and answer.json()["code"] == "table_code_reissued"
    assert "scan the new card on table 1" in answer.json()["message"]
    assert "role" not in answer.json()["message"], "not a message about roles"
    page = phone.get(f"/games/{game}/enter/", **EN)
    assert page.status_code == 302
    page = phone.get(page["Location"], **EN)
    assert page.status_code == 410 and "scan the new card on table 1" in page.content.decode()
    assert 'data-code="table_code_reissued"' in page.content.decode()
    # a withdrawn card says so too
    new = scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()[0]["printed"]
    phone = phone_for(new)
    assert scorer_client.delete(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 204
    answer = phone.post(
        f"/api/games/{game}/events/", {"expected_seq": 0, "events": []}, content_type="application/json", **EN
    )
    assert answer.status_code == 403 and answer.json()["code"] == "table_code_revoked"
    assert "ask the director for the table's new card" in answer.json()["message"]


@pytest.mark.django_db
def test_the_projector_lists_every_players_seat_and_says_when_the_tournament_is_over(club, scorer_client):
    import re

    tid, tables = published_round(scorer_client)
    page = Client().get(f"/tournaments/{tid}/projector/", **EN).content.decode()
    seats = page.split('id="seats"')[1].split("</section>")[0]
    assert "Round 1: where you sit" in seats
    rows = re.findall(
        r'<li data-seat="([NESW])"><span class="who">([^<]+)</span> <span class="where">table (\d) · '
        r"(North|East|South|West)</span></li>",
        seats,
    )
    assert len(rows) == 8 and [r[1] for r in rows] == sorted(r[1] for r in rows), "every player, by name"
    for number, table in tables.items():
        finish_table(scorer_client, table["game"])
        assert (
            scorer_client.post(
                f"/api/tournaments/{tid}/rounds/1/tables/{number}/result-from-game/", {}, format="json"
            ).status_code
            == 201
        )
    seq = Tournament.objects.get(pk=tid).seq
    assert (
        append(
            scorer_client, tid, [{"type": "round_closed", "round": 1}, {"type": "tournament_finished"}], seq
        ).status_code
        == 201
    )
    page = Client().get(f"/tournaments/{tid}/projector/", **EN).content.decode()
    heading = page.split("<h1>")[1].split("</h1>")[0]
    assert 'id="finished"' in heading and "round 1" not in heading, "after the finish it says so"
    assert 'id="seats"' not in page
