"""Duplicate Tichu: every table of a round plays the same boards, so until the round is closed no
one but the TD sees how a board went at any table (games.tournaments.visibility): not the public,
not a player of the club, not a table's code, on any channel (the API's boards, record, events,
standings, crosstable and results export; the boards, director's, standings and projector pages;
the standings PDF). The TD sees everything; once the round closes, everyone does."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Membership
from games.tournaments.models import Tournament
from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs
from tests.tournament_api.test_printouts import pdf_text

HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 2}
LINES = {1: [[185, 15], [-40, 140]], 2: [[155, -55], [65, 35]]}
RESULT_TYPES = {"result_recorded", "result_corrected", "result_confirmed", "result_disputed"}


def _seq(tid: int) -> int:
    return Tournament.objects.get(pk=tid).seq


@pytest.fixture
def open_round(club, scorer_client):
    """Round 1 of a duplicate tournament published (games made, table codes issued), no result yet."""
    tid = create(scorer_client, header=HEADER)["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    assert scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").status_code == 201
    codes = {r["table"]: r["printed"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    return tid, codes


def record_results(scorer_client, tid: int, tables=(1, 2)) -> None:
    events = [{"type": "result_recorded", "round": 1, "table": t, "hands": LINES[t]} for t in tables]
    assert append(scorer_client, tid, events, _seq(tid)).status_code == 201


def readers(club, make_user, codes) -> dict[str, Client]:
    """The public, a signed-in player of the club (a viewer), and the phone of table 1 (its code
    opened at /t/<code>/, kept in the session)."""
    player = make_user("player")
    Membership.objects.create(club=club, user=player, role=Membership.Role.VIEWER)
    signed_in = Client()
    signed_in.force_login(player)
    phone = Client()
    assert phone.get(f"/t/{codes[1]}/").status_code == 302
    return {"public": Client(), "player": signed_in, "table code": phone}


def close_round(scorer_client, tid: int) -> None:
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], _seq(tid)).status_code == 201


API = ("boards", "record", "events", "standings", "crosstable", "results")


def api_views(client, tid: int) -> dict:
    out = {name: client.get(f"/api/tournaments/{tid}/{name}/").json() for name in API}
    out["tables.csv"] = client.get(f"/api/tournaments/{tid}/results/?as=tables.csv").content.decode()
    return out


def board_rows(boards: dict) -> list:
    return [r for rnd in boards["rounds"] if rnd["round"] == 1 for b in rnd["boards"] for r in b["results"]]


def shown_results(view: dict) -> dict[str, object]:
    """What each API channel tells of round 1's results."""
    return {
        "boards": board_rows(view["boards"]),
        "record": [e for e in view["record"]["events"] if e["type"] in RESULT_TYPES],
        "events": [e for e in view["events"]["events"] if e["type"] in RESULT_TYPES],
        "standings": [
            (r["entry"], r.get("played"), r.get("points"), r.get("vp")) for r in view["standings"]["standings"]
        ],
        "crosstable": [
            c
            for line in view["crosstable"]["crosstable"]
            for c in line["rounds"]
            if "score" in c or "matchpoints" in c or "vp" in c
        ],
        "results": [t for rnd in view["results"]["rounds"] for t in rnd["tables"] if "score" in t]
        + [e for e in view["results"]["events"] if e["type"] in RESULT_TYPES],
        "tables.csv": [
            line for line in view["tables.csv"].splitlines()[1:] if ",145,155," in line or ",220,-20," in line
        ],
    }


API_CHANNELS = ("boards", "record", "events", "standings", "crosstable", "results", "tables.csv")


@pytest.mark.django_db
@pytest.mark.parametrize("channel", API_CHANNELS)
def test_the_api_hides_an_open_rounds_results_from_all_but_the_td(club, scorer_client, make_user, open_round, channel):
    tid, codes = open_round
    clients = readers(club, make_user, codes)
    before = {who: shown_results(api_views(c, tid))[channel] for who, c in clients.items()}
    record_results(scorer_client, tid)
    td = shown_results(api_views(scorer_client, tid))
    assert len(td["boards"]) == 4 and len(td["record"]) == 2 and len(td["events"]) == 2, "the TD sees every result"
    assert len(td["results"]) == 4 and len(td["tables.csv"]) == 2
    assert td[channel] != before["public"], f"the TD sees round 1's results in {channel}"
    for who, client in clients.items():
        seen = shown_results(api_views(client, tid))[channel]
        assert seen == before[who], f"{who} learns round 1's results from {channel}"


@pytest.mark.django_db
def test_no_way_around_the_rule(club, scorer_client, open_round):
    tid, codes = open_round
    record_results(scorer_client, tid)
    # A table's code is refused on the tournament's API (it opens its game only) ...
    with_code = APIClient()
    with_code.credentials(HTTP_AUTHORIZATION=f"TableCode {codes[1]}")
    assert with_code.get(f"/api/tournaments/{tid}/boards/").status_code == 401
    # ... and `at` does not reach behind the rule.
    assert board_rows(Client().get(f"/api/tournaments/{tid}/boards/?at={_seq(tid)}").json()) == []


@pytest.mark.django_db
def test_everyone_sees_the_results_once_the_round_is_closed(club, scorer_client, make_user, open_round):
    tid, codes = open_round
    clients = readers(club, make_user, codes)
    record_results(scorer_client, tid)
    close_round(scorer_client, tid)
    td = shown_results(api_views(scorer_client, tid))
    for who, client in clients.items():
        assert shown_results(api_views(client, tid)) == td, f"{who} sees the closed round as the TD does"


@pytest.mark.django_db
def test_a_table_does_not_see_the_others_before_the_rest_of_the_round_is_in(club, scorer_client, make_user, open_round):
    """Table 1 has finished and recorded; table 2 still plays the same boards: nothing of table 1's
    boards reaches table 2's players."""
    tid, codes = open_round
    record_results(scorer_client, tid, tables=(1,))
    for who, client in readers(club, make_user, codes).items():
        assert board_rows(client.get(f"/api/tournaments/{tid}/boards/").json()) == [], who
    assert len(board_rows(scorer_client.get(f"/api/tournaments/{tid}/boards/").json())) == 2


def page_results(client, tid: int) -> dict[str, object]:
    """What each page tells of round 1's results."""
    boards = client.get(f"/tournaments/{tid}/duplicate/")
    detail = client.get(f"/tournaments/{tid}/")
    standings = client.get(f"/tournaments/{tid}/standings/")
    projector = client.get(f"/tournaments/{tid}/projector/")
    assert {r.status_code for r in (boards, detail, standings, projector)} == {200}
    html = boards.content.decode()
    return {
        # The points as table cells: a bare "185" may turn up by chance in a token or an asset's hash.
        "boards page": [
            html.count('class="num mp"'),
            '<td class="num">185</td>' in html,
            '<td class="num">-40</td>' in html,
        ],
        "boards context": [row["results"] for row in boards.context["boards"]],
        "director's page": [(t.number, t.result, [s["score"] for s in t.sides]) for t in detail.context["tables"]],
        "director's standings": detail.context["standings"],
        "standings page": [standings.context["standings"], standings.context["crosstable_rows"]],
        "projector": [[(t.number, t.result) for t in projector.context["tables"]], projector.context["standings"]],
        "standings.pdf": pdf_text(client.get(f"/tournaments/{tid}/standings.pdf")),
    }


PAGE_CHANNELS = (
    "boards page",
    "boards context",
    "director's page",
    "director's standings",
    "standings page",
    "projector",
    "standings.pdf",
)


@pytest.mark.django_db
@pytest.mark.parametrize("channel", PAGE_CHANNELS)
def test_the_pages_and_printouts_hide_an_open_rounds_results_from_all_but_the_td(
    club, scorer_client, scorer, make_user, open_round, channel
):
    tid, codes = open_round
    clients = readers(club, make_user, codes)
    before = {who: page_results(c, tid)[channel] for who, c in clients.items()}
    record_results(scorer_client, tid)
    director = Client()
    director.force_login(scorer)
    td = page_results(director, tid)
    assert td["boards page"][0] > 0 and td["boards page"][1] and td["boards page"][2], "the TD sees the boards"
    assert all(result for _n, result, _s in td["director's page"])
    assert td[channel] != before["public"], f"the TD sees round 1's results on the {channel}"
    for who, client in clients.items():
        assert page_results(client, tid)[channel] == before[who], f"{who} learns round 1's results from the {channel}"


@pytest.mark.django_db
def test_the_boards_page_shows_a_closed_rounds_results_to_everyone(club, scorer_client, scorer, make_user, open_round):
    tid, codes = open_round
    clients = readers(club, make_user, codes)  # the table's phone opened its code while it was live
    record_results(scorer_client, tid)
    close_round(scorer_client, tid)
    director = Client()
    director.force_login(scorer)
    td = page_results(director, tid)
    for who, client in clients.items():
        seen = page_results(client, tid)
        assert seen["boards context"] == td["boards context"] and seen["standings page"] == td["standings page"], who
        assert seen["boards page"][0] > 0 and seen["boards page"][1], f"{who} sees the closed round's boards"


@pytest.mark.django_db
def test_other_systems_show_results_as_they_come(club, scorer_client):
    """Swiss and the rest play different deals at each table: nothing is hidden."""
    tid = create(scorer_client, header={**HEADER, "system": "swiss", "scoring": "points", "rounds": 3})["id"]
    register_pairs(scorer_client, tid)
    paired = pair_next_round(scorer_client, tid)
    events = [
        {"type": "result_recorded", "round": 1, "table": t["table"], "hands": LINES[t["table"]]}
        for t in paired["tables"]
    ]
    assert append(scorer_client, tid, events, _seq(tid)).status_code == 201
    record = Client().get(f"/api/tournaments/{tid}/record/").json()
    assert sum(e["type"] == "result_recorded" for e in record["events"]) == 2


GAME_CHANNELS = (
    "/api/games/{}/",
    "/api/games/{}/events/",
    "/api/games/{}/state/",
    "/api/games/{}/score/",
    "/api/games/{}/record/",
    "/api/games/{}/legal/",
    "/games/{}/",
    "/games/{}/replay/",
    "/games/{}/replay/data/",
)


def statuses(client, game_id: int) -> list[int]:
    return [client.get(path.format(game_id)).status_code for path in GAME_CHANNELS]


@pytest.mark.django_db
def test_another_tables_game_stays_with_its_table_until_the_tournament_is_finished(
    club, scorer, scorer_client, make_user, open_round
):
    """A board's deal and play are in the games of the tables that play it, in this round and later
    ones: until the tournament is finished, table 2's game is read by the TD and by table 2 only."""
    from games.tournaments.models import TableGame

    tid, codes = open_round
    games = {link.table: link.game_id for link in TableGame.objects.filter(tournament_id=tid, round=1)}
    clients = readers(club, make_user, codes)
    td = Client()
    td.force_login(scorer)
    assert statuses(td, games[2]) == [200] * len(GAME_CHANNELS), "the TD reads every table's game"
    for who, client in clients.items():
        assert set(statuses(client, games[2])) == {404}, f"{who} reads table 2's game"
    table_2 = Client()
    assert table_2.get(f"/t/{codes[2]}/").status_code == 302
    assert table_2.get(f"/games/{games[2]}/enter/").status_code == 200, "table 2 enters its own game"
    Tournament.objects.filter(pk=tid).update(status=Tournament.Status.FINISHED)
    for who, client in clients.items():
        assert 404 not in statuses(client, games[2]), f"{who} reads table 2's game once the tournament is over"


@pytest.mark.django_db
def test_other_systems_keep_their_tables_games_open(club, scorer_client, make_user):
    from games.tournaments.models import TableGame
    from tests.tournament_api.test_api import register_pairs as register

    tid = create(scorer_client)["id"]  # test_api's header: a Swiss tournament
    register(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    assert scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").status_code == 201
    game_id = TableGame.objects.filter(tournament_id=tid).first().game_id
    assert Client().get(f"/games/{game_id}/replay/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["standings", "boards", "record", "crosstable"])
def test_a_closed_rounds_answers_are_cacheable_and_a_held_one_never_shared(
    club, scorer_client, make_user, open_round, name
):
    """Issue 37 finding 7: strong ETags with If-None-Match; the public's tag of a round still held
    (results hidden) never earns the TD a 304, nor the TD's the public; once the round is closed
    the tag holds (304) until the tournament moves on."""
    tid, codes = open_round
    record_results(scorer_client, tid)
    public = readers(club, make_user, codes)["public"]
    url = f"/api/tournaments/{tid}/{name}/"
    held, td = public.get(url), scorer_client.get(url)
    assert held["ETag"] != td["ETag"]
    assert scorer_client.get(url, HTTP_IF_NONE_MATCH=held["ETag"]).status_code == 200
    assert public.get(url, HTTP_IF_NONE_MATCH=td["ETag"]).status_code == 200
    close_round(scorer_client, tid)
    closed = public.get(url)
    assert closed["ETag"] != held["ETag"]
    again = public.get(url, HTTP_IF_NONE_MATCH=closed["ETag"])
    assert again.status_code == 304 and again.content == b""
