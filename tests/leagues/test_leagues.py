"""A club's league in the database and the API (issue 36, item 2): created by a scorer with its
entries fixed, its results, corrections and dates appended through the stream store, and its
fixtures and table the core's fold (games.tournament.league)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games import tournament as core
from games.models import Game, Membership, Player
from games.tournaments import leagues
from games.tournaments.models import League, LeagueEvent
from tests.api.test_append import create_game
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

HEADER = {
    "entries": [
        {"entry": "owls", "name": "Owls", "players": ["Anna", "Ben"]},
        {"entry": "foxes", "name": "Foxes", "players": ["Cleo", "Dan"]},
        {"entry": "bears", "name": "Bears", "players": ["Eva", "Finn"]},
        {"entry": "hares", "name": "Hares", "players": ["Gus", "Hal"]},
    ],
    "legs": 2,
    "scoring": "box",
    "match_points": {"win": 3, "draw": 1, "loss": 0},
    "promotion": 1,
    "relegation": 1,
}


def new_league(client, header: dict | None = None, club: str = "home") -> int:
    response = client.post(
        f"/api/clubs/{club}/leagues/", {"name": "League 2027", "header": header or HEADER}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def add(client, lid: int, events: list[dict], expected_seq: int, **headers):
    return client.post(
        f"/api/leagues/{lid}/events/", {"expected_seq": expected_seq, "events": events}, format="json", **headers
    )


def result(match: str, score: list[int], **kw) -> dict:
    return {"type": "match_result", "match": match, "score": score, **kw}


def test_a_league_is_the_core_fold_of_its_stored_stream(club, scorer_client, anon):
    lid = new_league(scorer_client)
    assert scorer_client.get("/api/clubs/home/leagues/").json() == [{"id": lid, "name": "League 2027", "seq": 0}]
    fresh = anon.get(f"/api/leagues/{lid}/").json()
    assert len(fresh["league"]["rounds"]) == 6 and fresh["league"]["matches"] == 12
    events = [result("R1-1", [1030, 570], date="2027-01-12"), result("R1-2", [1005, 895])]
    response = add(scorer_client, lid, events, 0)
    assert response.status_code == 201, response.json()
    assert response.json() == {"id": lid, "seq": 2, "appended": 2, "first_seq": 1}
    moved = {"type": "match_scheduled", "match": "R4-1", "date": "2027-03-02", "reason": "cup match"}
    fixed = {"type": "match_corrected", "match": "R1-2", "score": [895, 1005], "reason": "sheet read backwards"}
    assert add(scorer_client, lid, [moved, fixed], 2).status_code == 201
    body = anon.get(f"/api/leagues/{lid}/").json()
    state = core.fold_league({"header": HEADER, "events": [*events, moved, fixed]})
    expected = core.league_json(state)
    assert body["seq"] == 4 and body["club"] == "home"
    assert [{k: v for k, v in r.items() if k != "player_names"} for r in body["league"]["table"]] == expected["table"]
    assert body["league"]["rounds"] == expected["rounds"]
    # Hares and Foxes 3 points each, no match between them yet: the difference decides (+460, +110)
    assert [(r["entry"], r["league_points"]) for r in body["league"]["table"][:2]] == [("hares", 3), ("foxes", 3)]
    assert [h["type"] for h in body["history"]] == [
        "match_result",
        "match_result",
        "match_scheduled",
        "match_corrected",
    ]
    r4 = body["league"]["rounds"][3]["matches"][0]
    assert (r4["match"], r4["date"]) == ("R4-1", "2027-03-02")


def test_refusals_store_nothing(club, scorer_client, make_club, make_user):
    lid = new_league(scorer_client)
    assert add(scorer_client, lid, [result("R1-1", [600, 400])], 0).status_code == 201
    twice = add(scorer_client, lid, [result("R1-2", [600, 400]), result("R1-1", [1, 2])], 1)
    assert twice.status_code == 422 and twice.json()["code"] == "result_exists" and twice.json()["index"] == 1
    unknown = add(scorer_client, lid, [result("R9-9", [1, 2])], 1)
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_match"
    # R1-2 is Owls (home) - Foxes (away): a sheet the other way round is refused, not scored backwards
    sides = add(scorer_client, lid, [result("R1-2", [1, 2], sides=["foxes", "owls"])], 1)
    assert sides.status_code == 422 and sides.json()["params"]["rule"] == "league_sides"
    stale = add(scorer_client, lid, [result("R1-2", [1, 2])], 0)
    assert stale.status_code == 409 and stale.json()["current_seq"] == 1
    no_reason = add(scorer_client, lid, [{"type": "match_corrected", "match": "R1-1", "score": [1, 2]}], 1)
    assert no_reason.status_code == 422 and no_reason.json()["code"] == "reason_required"
    malformed = add(scorer_client, lid, [{"type": "match_result", "match": 12}], 1)
    assert malformed.status_code == 400 and malformed.json()["code"] == "malformed"
    # the table's game must be one of the league's club
    other = make_user("other")
    away = make_club("away", scorer=other)
    foreign_game = create_game(client_for(other), away)
    foreign = add(scorer_client, lid, [result("R1-2", [1, 2], game=foreign_game)], 1)
    assert foreign.status_code == 400 and foreign.json()["code"] == "game_not_of_club"
    # a result that names its game takes the game's numbers: a score beside it is refused
    own_game = create_game(scorer_client, club)
    both = add(scorer_client, lid, [result("R1-2", [1, 2], game=own_game)], 1)
    assert both.status_code == 400 and both.json()["code"] == "result_from_game"
    assert League.objects.get(pk=lid).seq == 1 and LeagueEvent.objects.filter(league_id=lid).count() == 1


def test_a_refused_league_result_keeps_its_code_in_french(club, scorer_client):
    lid = new_league(scorer_client)
    refused = add(scorer_client, lid, [result("R9-9", [1, 2])], 0, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_match"
    assert refused.json()["params"]["rule"] == "league"


def test_who_may_create_and_write(club, scorer_client, make_user, anon):
    bad = scorer_client.post("/api/clubs/home/leagues/", {"name": "L", "header": {"entries": []}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "malformed"
    places = scorer_client.post(
        "/api/clubs/home/leagues/", {"name": "L", "header": {**HEADER, "promotion": 3, "relegation": 2}}, format="json"
    )
    assert places.status_code == 422 and places.json()["code"] == "places_invalid"
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    denied = client_for(viewer).post("/api/clubs/home/leagues/", {"name": "L", "header": HEADER}, format="json")
    assert denied.status_code == 403
    lid = new_league(scorer_client)
    assert add(client_for(viewer), lid, [result("R1-1", [1, 2])], 0).status_code == 403
    assert anon.get(f"/api/leagues/{lid}/").status_code == 200
    assert anon.get("/api/leagues/999999/").status_code == 404
    assert League.objects.count() == 1


def test_a_members_only_clubs_league_is_hidden_from_others(make_club, make_user, anon):
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    lid = new_league(client_for(owner), club="private")
    assert anon.get(f"/api/leagues/{lid}/").status_code == 404
    assert anon.get("/api/clubs/private/leagues/").status_code == 404
    outsider = make_user("outsider")
    assert add(client_for(outsider), lid, [result("R1-1", [1, 2])], 0).status_code == 404


def test_an_entrys_roster_ids_are_named_for_the_club(club, scorer_client):
    ada = Player.objects.create(club=club, name="Ada")
    header = {"entries": [{"entry": "a", "players": [ada.pk, "Guest"]}, {"entry": "b", "players": ["Bo"]}]}
    lid = new_league(scorer_client, header)
    rows = scorer_client.get(f"/api/leagues/{lid}/").json()["league"]["table"]
    assert {r["entry"]: r["player_names"] for r in rows} == {"a": ["Ada", "Guest"], "b": ["Bo"]}


def test_an_idempotency_key_replays_the_append(club, scorer_client):
    lid = new_league(scorer_client)
    first = add(scorer_client, lid, [result("R1-1", [600, 400])], 0, HTTP_IDEMPOTENCY_KEY="k-1")
    again = add(scorer_client, lid, [result("R1-1", [600, 400])], 0, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201 and again.json() == first.json()
    assert LeagueEvent.objects.filter(league_id=lid).count() == 1


def test_league_events_are_append_only_in_the_database(club, scorer_client):
    lid = new_league(scorer_client)
    assert add(scorer_client, lid, [result("R1-1", [600, 400])], 0).status_code == 201
    table = LeagueEvent._meta.db_table
    for sql in (f"UPDATE {table} SET type = 'x'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    with pytest.raises(DatabaseError), transaction.atomic():  # not the next seq of its league
        LeagueEvent.objects.create(league_id=lid, seq=5, type="match_result", payload={"match": "R1-2"})
    assert LeagueEvent.objects.filter(league_id=lid).count() == 1
    assert leagues.record(League.objects.get(pk=lid))["events"] == [result("R1-1", [600, 400])]


def test_a_result_from_the_tables_game_takes_its_hand_lines(club, scorer_client):
    from tests.api.helpers import grand_double

    lid = new_league(scorer_client)
    game = create_game(scorer_client, club)
    playing = add(scorer_client, lid, [{"type": "match_result", "match": "R1-1", "game": game}], 0)
    assert playing.status_code == 400 and playing.json()["code"] == "game_not_over"
    events = {"expected_seq": 0, "events": [grand_double(0)] * 3}  # 3 x 400: over at 1000
    assert scorer_client.post(f"/api/games/{game}/events/", events, format="json").status_code == 201
    assert add(scorer_client, lid, [{"type": "match_result", "match": "R1-1", "game": game}], 0).status_code == 201
    stored = LeagueEvent.objects.get(league_id=lid)
    assert stored.payload == {"match": "R1-1", "game": game}  # the link alone: no second score
    match = scorer_client.get(f"/api/leagues/{lid}/").json()["league"]["rounds"][0]["matches"][0]
    assert match["score"] == [1200, 0] and match["points"] == [3, 0] and match["game"] == game
    assert match["from_game"] and len(match["hands"]) == 3


def test_a_correction_of_the_game_is_the_matchs_on_every_read(club, scorer_client):
    """One truth: the game's undo and re-entry change the league's match; while the game is
    reopened the match counts nowhere (game_open), then it counts as the game now says."""
    from tests.api.helpers import grand_double

    lid = new_league(scorer_client)
    game = create_game(scorer_client, club)
    events = {"expected_seq": 0, "events": [grand_double(0)] * 3}
    assert scorer_client.post(f"/api/games/{game}/events/", events, format="json").status_code == 201
    assert add(scorer_client, lid, [{"type": "match_result", "match": "R1-1", "game": game}], 0).status_code == 201

    def match_and_table():
        league = scorer_client.get(f"/api/leagues/{lid}/").json()["league"]
        return league["rounds"][0]["matches"][0], {r["entry"]: r for r in league["table"]}, league["played"]

    seq = Game.objects.get(pk=game).seq
    undo = {"expected_seq": seq, "events": [{"type": "undo"}]}
    assert scorer_client.post(f"/api/games/{game}/events/", undo, format="json").status_code == 201
    match, rows, played = match_and_table()
    assert match["game_open"] and "score" not in match and played == 0
    assert all(r["played"] == 0 for r in rows.values())
    again = {"expected_seq": seq + 1, "events": [grand_double(1)] * 3}  # now East/West's
    answer = scorer_client.post(f"/api/games/{game}/events/", again, format="json")
    assert answer.status_code == 201, answer.json()
    match, rows, played = match_and_table()
    assert match["score"][0] < match["score"][1] and match["points"] == [0, 3] and played == 1
    home, away = match["home"], match["away"]
    assert rows[away]["league_points"] == 3 and rows[home]["league_points"] == 0


def test_next_seasons_groups_carry_promotion_and_relegation(club, scorer_client, anon, make_user, make_club):
    top = new_league(scorer_client)
    bottom_header = {
        "entries": [{"entry": "crows", "players": ["Ida"]}, {"entry": "moles", "players": ["Kim"]}],
        "scoring": "box",
        "promotion": 1,
    }
    bottom = new_league(scorer_client, bottom_header)
    url = f"/api/clubs/home/leagues/next-season/?groups={top},{bottom}"
    early = anon.get(url)
    assert early.status_code == 422 and early.json()["code"] == "league_unfinished"
    for lid, header in ((top, HEADER), (bottom, bottom_header)):
        matches = core.fold_league({"header": header}).fixtures
        events = [result(m, [1000, 500 + i]) for i, m in enumerate(matches)]
        assert add(scorer_client, lid, events, 0).status_code == 201
    tables = [anon.get(f"/api/leagues/{lid}/").json()["league"] for lid in (top, bottom)]
    (relegated,), (promoted,) = tables[0]["relegated"], tables[1]["promoted"]
    body = anon.get(url).json()
    assert [len(g) for g in body["groups"]] == [4, 2]
    assert promoted in [e["entry"] for e in body["groups"][0]] and relegated in [e["entry"] for e in body["groups"][1]]
    crows = next(e for g in body["groups"] for e in g if e["entry"] == "crows")
    assert crows == {"entry": "crows", "players": ["Ida"], "name": "crows"}  # a header's entry, as it is
    # each group's list is next season's header: a new league takes it as it is
    assert new_league(scorer_client, {"entries": body["groups"][0], "scoring": "box"})
    for bad in ("", "x", f"{top},{top}", f"{top},999999"):
        answer = anon.get(f"/api/clubs/home/leagues/next-season/?groups={bad}")
        assert answer.status_code == 400 and answer.json()["code"] == "malformed", bad
    other = make_user("other")
    make_club("away", scorer=other)
    elsewhere = new_league(client_for(other), club="away")
    assert anon.get(f"/api/clubs/home/leagues/next-season/?groups={top},{elsewhere}").status_code == 400
