"""A season's remaining pieces (issue 36, item 1): the site's form offers every scoring the core
has (a table of points per place typed by the TD, checked by the core's header parse, its refusal
next to the field, nothing stored), the season table as CSV and PDF for whoever may read the page,
and the history's who and when."""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from games import tournament as core
from games.models import Membership
from games.tournaments.models import Season, SeasonEvent, Tournament
from replay.tournaments.forms import SeasonForm
from tests.conftest import client_for
from tests.seasons.test_seasons import add, new_season, played_evening

pytestmark = pytest.mark.django_db


def create(client, slug: str, **fields):
    data = {"name": "Race 2027", "scoring": "table", "best": "", "min_evenings": "0", **fields}
    return client.post(f"/clubs/{slug}/seasons/new/", data)


def field_error(html: str, field: str) -> str:
    found = re.search(rf'<span class="error" role="alert" id="error-{field}">(.*?)</span></p>', html, re.S)
    return found.group(1) if found else ""


# --- 1. the table of points per place, on the site's form ----------------------------------------


def test_the_td_creates_a_season_scored_by_a_table_of_points(club, scorer, client):
    client.force_login(scorer)
    listing = client.get(f"/clubs/{club.slug}/tournaments/").content.decode()
    assert '<option value="table">' in listing and 'name="points_table"' in listing
    made = create(client, club.slug, points_table="25, 20, 16, 13, 11, 10")
    season = Season.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/clubs/{club.slug}/seasons/{season.pk}/"
    assert season.header["scoring"] == "table" and season.header["points_table"] == [25, 20, 16, 13, 11, 10]
    tid = played_evening(client_for(scorer), {1: [[70, 30]], 2: [[45, 55]]})
    page = f"/clubs/{club.slug}/seasons/{season.pk}/"
    assert client.post(page, {"seq": 0, "action": "add", "tournament": tid, "reason": ""}).status_code == 302
    html = client.get(page).content.decode()
    assert "25, 20, 16, 13, 11, 10" in re.search(r'<p class="hint" id="season-rules">.*?</p>', html, re.S).group(0)
    # four pairs ranked 1..4: the table's first four places, each pair's two players
    scores = sorted(row["score"] for row in client.get(f"/api/seasons/{season.pk}/").json()["table"]["table"])
    assert scores == [13, 13, 16, 16, 20, 20, 25, 25]


@pytest.mark.parametrize(
    ("typed", "scoring", "code", "words"),
    [
        ("10, 20, 30", "table", "malformed", "at least the points of the place after it"),
        ("25, 20, lots", "table", "malformed", "whole numbers from 0 to 10000"),
        ("25, -1", "table", "malformed", "whole numbers from 0 to 10000"),
        ("", "table", "malformed", "whole numbers from 0 to 10000"),
        (", ".join(["5"] * 65), "table", "malformed", "at most 64 places"),
        ("25, 20", "place", "malformed", "choose it, or leave the points empty"),
    ],
)
def test_a_table_the_core_refuses_is_shown_at_its_field_and_nothing_is_stored(
    club, scorer, client, typed, scoring, code, words
):
    client.force_login(scorer)
    refused = create(client, club.slug, points_table=typed, scoring=scoring)
    assert refused.status_code == 400
    assert not Season.objects.exists()
    html = refused.content.decode()
    error = field_error(html, "points_table")
    assert f'data-code="{code}"' in error and words in error
    # the form comes back as the TD sent it, on the club's tournaments page
    assert 'id="new-season"' in html
    if typed:
        assert f'value="{typed}"' in html
    assert f'<option value="{scoring}" selected>' in html


def test_a_field_out_of_range_is_refused_by_the_form(club, scorer, client):
    client.force_login(scorer)
    refused = create(client, club.slug, scoring="place", best="0")
    assert refused.status_code == 400 and not Season.objects.exists()
    assert field_error(refused.content.decode(), "best")


SEPARATORS = st.sampled_from([",", ", ", " ", ";", " ,  ", "\n"])


@given(points=st.lists(st.integers(min_value=-50, max_value=12_000), min_size=0, max_size=70), sep=SEPARATORS)
@settings(max_examples=60, deadline=None)
def test_the_form_passes_the_points_as_typed(points, sep):
    """Whatever the separators, the header holds the typed numbers in order (the core decides)."""
    form = SeasonForm({"name": "S", "scoring": "table", "points_table": sep.join(map(str, points)), "min_evenings": 0})
    assert form.is_valid(), form.errors
    assert form.header().get("points_table") == (points or None)


@given(points=st.lists(st.integers(min_value=-3, max_value=10_003), min_size=0, max_size=66))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_season_is_stored_exactly_when_the_core_accepts_its_points(club, scorer, client, points):
    client.force_login(scorer)
    before = Season.objects.count()
    response = create(client, club.slug, points_table=", ".join(map(str, points)))
    try:
        core.parse_season_header({"scoring": "table", "points_table": points or None})
        accepted = True
    except core.TournamentError:
        accepted = False
    assert (response.status_code == 302) == accepted
    assert Season.objects.count() == before + accepted
    if accepted:
        assert Season.objects.order_by("-pk").first().header["points_table"] == points


# --- 2. the season table as CSV and PDF ------------------------------------------------------------


def season_with_two_evenings(scorer, header: dict | None = None) -> tuple[int, list[int]]:
    api = client_for(scorer)
    first = played_evening(api, {1: [[70, 30]], 2: [[45, 55]]})
    second = played_evening(api, {1: [[100, 0]], 2: [[20, 80]]})
    Tournament.objects.filter(pk=second).update(name="=HYPERLINK(1)")
    sid = new_season(api, header or {"scoring": "place", "best": 1})
    assert add(api, sid, [{"type": "evening_added", "tournament": t} for t in (first, second)], 0).status_code == 201
    return sid, [first, second]


def test_the_season_table_as_csv_is_the_tables_lines(club, scorer, client):
    sid, (first, second) = season_with_two_evenings(scorer)
    page = client.get(f"/clubs/{club.slug}/seasons/{sid}/").content.decode()
    assert f'href="/clubs/{club.slug}/seasons/{sid}/table.csv"' in page
    assert f'href="/clubs/{club.slug}/seasons/{sid}/table.pdf"' in page
    response = client.get(f"/clubs/{club.slug}/seasons/{sid}/table.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f'filename="season-{sid}-table.csv"' in response["Content-Disposition"]
    header, *rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert header[:8] == [
        "rank",
        "player",
        "name",
        "score",
        "all_evenings",
        "evenings_played",
        "evenings_won",
        "best_place",
    ]
    assert header[8:11] == [f"Thursday (#{first}) place", f"Thursday (#{first}) points", f"Thursday (#{first}) counts"]
    assert header[11] == f"'=HYPERLINK(1) (#{second}) place", "an evening's name never becomes a formula"
    table = client.get(f"/api/seasons/{sid}/").json()["table"]["table"]
    assert len(rows) == len(table) == 8
    for row, line in zip(rows, table, strict=True):
        assert row[0] == str(line["rank"]) and row[2] == line["name"] and float(row[3]) == line["score"]
        cells = {e["tournament"]: e for e in line["evenings"]}
        for k, tid in enumerate((first, second)):
            place, points, counts = row[8 + 3 * k : 11 + 3 * k]
            assert (place, float(points), counts) == (
                str(cells[tid]["rank"]),
                cells[tid]["score"],
                "1" if cells[tid]["counts"] else "0",
            )
        assert sum(int(row[10 + 3 * k]) for k in range(2)) == 1, "best 1 of 2: one evening counts"


def test_the_api_gives_the_same_csv(club, scorer, client, anon):
    sid, _ = season_with_two_evenings(scorer)
    page = client.get(f"/clubs/{club.slug}/seasons/{sid}/table.csv")
    api = anon.get(f"/api/seasons/{sid}/?as=csv")
    assert api.status_code == 200 and api["Content-Type"].startswith("text/csv")
    assert api.content == page.content and len(api.content.splitlines()) == 9
    assert anon.get(f"/api/seasons/{sid}/?as=json").json()["id"] == sid
    wrong = anon.get(f"/api/seasons/{sid}/?as=xlsx")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid"


def test_the_season_table_as_pdf(club, scorer, client):
    sid, _ = season_with_two_evenings(scorer, {"scoring": "table", "points_table": [10, 6, 3]})
    response = client.get(f"/clubs/{club.slug}/seasons/{sid}/table.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 2, "the table, then the evenings"
    table, evenings = (" ".join(page.extract_text().split()) for page in reader.pages)
    assert "Season 2027: season table" in table and "10, 6, 3" in table
    lines = client.get(f"/api/seasons/{sid}/").json()["table"]["table"]
    for line in lines:  # each player with their rank and score, in the table's order
        assert f"{line['rank']} {line['name']} {line['score']} {line['evenings_played']}" in table
    assert table.index(lines[0]["name"]) < table.index(lines[-1]["name"])
    assert "Thursday" in evenings and "=HYPER" in evenings and "1. · 10" in evenings
    assert client.get(f"/clubs/{club.slug}/seasons/{sid}/table.xlsx").status_code == 404
    # a season without an evening still prints (its title and "no evening" line)
    empty = new_season(client_for(scorer))
    assert client.get(f"/clubs/{club.slug}/seasons/{empty}/table.pdf").content.startswith(b"%PDF")


def test_the_files_are_for_whoever_may_read_the_page(make_club, make_user, client):
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    sid = new_season(client_for(owner), club="private")
    for kind in ("csv", "pdf"):
        assert client.get(f"/clubs/private/seasons/{sid}/table.{kind}").status_code == 404
    viewer = make_user("viewer")
    Membership.objects.create(club_id=Season.objects.get(pk=sid).club_id, user=viewer, role=Membership.Role.VIEWER)
    client.force_login(viewer)
    for kind in ("csv", "pdf"):
        assert client.get(f"/clubs/private/seasons/{sid}/table.{kind}").status_code == 200
        assert client.get(f"/clubs/elsewhere/seasons/{sid}/table.{kind}").status_code == 404


def test_a_duplicate_evenings_open_round_stays_out_of_a_readers_csv(club, scorer, anon, client):
    """The files are the page's table: an open duplicate round counts for the TD only."""
    from tests.tournament_api.test_api import create as create_tournament
    from tests.tournament_api.test_api import pair_next_round, register_pairs
    from tests.tournament_api.test_duplicate_visibility import HEADER, record_results

    api = client_for(scorer)
    tid = create_tournament(api, header=HEADER)["id"]
    register_pairs(api, tid)
    pair_next_round(api, tid)
    record_results(api, tid)
    sid = new_season(api)
    assert add(api, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    url = f"/clubs/{club.slug}/seasons/{sid}/table.csv"
    assert len(anon.get(url).content.decode().strip().splitlines()) == 1, "the header alone"
    client.force_login(scorer)
    assert len(client.get(url).content.decode().strip().splitlines()) == 9


# --- 3. the history says why, who and when ----------------------------------------------------------


def test_the_history_says_why_who_and_when(club, scorer, make_user, client):
    tid = played_evening(client_for(scorer), {1: [[70, 30]], 2: [[45, 55]]})
    sid = new_season(client_for(scorer))
    other = make_user("helper")
    Membership.objects.create(club=club, user=other, role=Membership.Role.SCORER)
    assert add(client_for(scorer), sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    removal = {"type": "evening_removed", "tournament": tid, "reason": "short deck"}
    assert add(client_for(other), sid, [removal], 1).status_code == 201
    events = list(SeasonEvent.objects.filter(season_id=sid).order_by("seq"))
    body = client.get(f"/api/seasons/{sid}/").json()
    assert [(h["type"], h["recorded_by"]) for h in body["history"]] == [
        ("evening_added", "scorer"),
        ("evening_removed", "helper"),
    ]
    html = client.get(f"/clubs/{club.slug}/seasons/{sid}/").content.decode()
    history = re.search(r'<ol id="season-history">.*?</ol>', html, re.S).group(0)
    lines = re.findall(r"<li data-seq=\"(\d)\">(.*?)</li>", history, re.S)
    assert [seq for seq, _ in lines] == ["1", "2"]
    assert "Thursday added" in lines[0][1] and "by scorer" in lines[0][1]
    assert "Thursday removed: <q>short deck</q>" in lines[1][1] and "by helper" in lines[1][1]
    for (_seq, line), event in zip(lines, events, strict=True):
        assert f'<time datetime="{event.recorded_at.isoformat()}">' in line
