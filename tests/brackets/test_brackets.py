"""A club's knockout bracket in the database and the API (issue 36, item 3): created by a scorer,
seeded once (by the club's Elo table, a previous tournament's standings, or by hand), its results
recorded and corrected through the stream store, each write folded by the core first; the layout
is the core's fold of the stored stream."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from django.db import DatabaseError, connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import tournament as core
from games.models import Game, Membership, Player
from games.ratings.models import RatingChange
from games.tournaments import brackets
from games.tournaments.models import Bracket, BracketEvent
from tests.conftest import client_for
from tests.seasons.test_seasons import played_evening

pytestmark = pytest.mark.django_db
WHEN = datetime(2026, 12, 7, 19, tzinfo=timezone.utc)


def new_bracket(client, header: dict | None = None, club: str = "home") -> int:
    response = client.post(f"/api/clubs/{club}/brackets/", {"name": "Club cup", "header": header or {}}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def append(client, bid: int, events: list[dict], expected_seq: int, **headers):
    return client.post(
        f"/api/brackets/{bid}/events/", {"expected_seq": expected_seq, "events": events}, format="json", **headers
    )


def seed(client, bid: int, body: dict):
    return client.post(f"/api/brackets/{bid}/seed/", body, format="json")


def entries(n: int) -> list[dict]:
    return [{"entry": f"E{i}", "players": [f"p{i}a", f"p{i}b"]} for i in range(1, n + 1)]


def view(client, bid: int) -> dict:
    response = client.get(f"/api/brackets/{bid}/")
    assert response.status_code == 200
    return response.json()


def open_matches(body: dict) -> list[dict]:
    return [
        m
        for rounds in body["brackets"].values()
        for r in rounds
        for m in r
        if m["winner"] is None and None not in m["sides"]
    ]


def test_a_bracket_is_seeded_played_and_corrected_as_the_core_folds_it(club, scorer_client):
    bid = new_bracket(scorer_client, {"best_of": 3})
    hand = seed(scorer_client, bid, {"expected_seq": 0, "by": "hand", "entries": entries(4)})
    assert hand.status_code == 201, hand.json()
    assert hand.json() == {"id": bid, "seq": 1, "appended": 1, "first_seq": 1}
    body = view(scorer_client, bid)
    assert [s["entry"] for s in body["seeding"]["seeds"]] == ["E1", "E2", "E3", "E4"]
    assert [m["sides"] for m in body["brackets"]["main"][0]] == [["E1", "E4"], ["E2", "E3"]]
    results = [
        {"type": "match_result", "match": "W1-1", "games": [[600, 400], [300, 700], [1000, 0]]},
        {"type": "match_result", "match": "W1-2", "games": [[100, 900], [200, 800]]},
    ]
    assert append(scorer_client, bid, results, 1).status_code == 201
    body = view(scorer_client, bid)
    assert body["brackets"]["main"][1][0]["sides"] == ["E1", "E3"]
    # the correction moves the right entry on by itself
    fix = {"type": "match_corrected", "match": "W1-2", "games": [[900, 100], [800, 200]], "reason": "sheet swapped"}
    assert append(scorer_client, bid, [fix], 3).status_code == 201
    body = view(scorer_client, bid)
    assert body["brackets"]["main"][1][0]["sides"] == ["E1", "E2"]
    assert body["brackets"]["main"][0][1]["reason"] == "sheet swapped"
    final = {"type": "match_result", "match": "W2-1", "walkover": "E2", "reason": "E1 went home"}
    assert append(scorer_client, bid, [final], 4).status_code == 201
    body = view(scorer_client, bid)
    assert body["winner"] == "E2" and body["finished"] is True and body["seq"] == 5
    bracket = Bracket.objects.get(pk=bid)
    assert {k: v for k, v in body.items() if k not in ("id", "club", "name", "seq", "seeding")} == {
        k: v for k, v in core.bracket_json(core.fold_bracket(brackets.record(bracket))).items() if k != "seeding"
    }
    listed = scorer_client.get("/api/clubs/home/brackets/").json()
    assert [(b["id"], b["seq"]) for b in listed] == [(bid, 5)]


def test_refused_events_store_nothing_and_answer_the_cores_code(club, scorer_client):
    bid = new_bracket(scorer_client)
    early = append(scorer_client, bid, [{"type": "match_result", "match": "W1-1", "games": [[1, 0]]}], 0)
    assert early.status_code == 422 and early.json()["code"] == "not_seeded"
    assert seed(scorer_client, bid, {"expected_seq": 0, "by": "hand", "entries": entries(3)}).status_code == 201
    bye = append(scorer_client, bid, [{"type": "match_result", "match": "W1-1", "games": [[1, 0]]}], 1)
    assert bye.status_code == 422 and bye.json()["code"] == "unknown_match", "seed 1 has a bye"
    batch = [
        {"type": "match_result", "match": "W1-2", "games": [[600, 400]]},
        {"type": "match_result", "match": "W1-2", "games": [[600, 400]]},
    ]
    twice = append(scorer_client, bid, batch, 1)
    assert twice.status_code == 422 and twice.json()["code"] == "result_exists" and twice.json()["index"] == 1
    drawn = append(scorer_client, bid, [{"type": "match_result", "match": "W1-2", "games": [[500, 500]]}], 1)
    assert drawn.status_code == 422 and drawn.json()["code"] == "result_invalid"
    no_reason = append(scorer_client, bid, [{"type": "match_corrected", "match": "W1-2", "games": [[1, 0]]}], 1)
    assert no_reason.status_code == 422
    again = seed(scorer_client, bid, {"expected_seq": 1, "by": "hand", "entries": entries(2)})
    assert again.status_code == 422 and again.json()["code"] == "already_seeded"
    stale = append(scorer_client, bid, [{"type": "match_result", "match": "W1-2", "games": [[1, 0]]}], 0)
    assert stale.status_code == 409 and stale.json()["current_seq"] == 1
    assert Bracket.objects.get(pk=bid).seq == 1 and BracketEvent.objects.filter(bracket_id=bid).count() == 1


def test_a_roster_id_of_another_club_is_refused(club, scorer_client, make_club):
    other = make_club("away")
    stranger = Player.objects.create(club=other, name="Stranger")
    mine = Player.objects.create(club=club, name="Mine")
    bid = new_bracket(scorer_client)
    body = {
        "expected_seq": 0,
        "by": "hand",
        "entries": [{"entry": "A", "players": [mine.pk]}, {"entry": "B", "players": [stranger.pk]}],
    }
    refused = seed(scorer_client, bid, body)
    assert refused.status_code == 400 and refused.json()["code"] == "player_not_of_club"
    assert BracketEvent.objects.filter(bracket_id=bid).count() == 0


def _elo(club, name: str, elo: float) -> Player:
    player = Player.objects.create(club=club, name=name)
    RatingChange.objects.create(
        game=Game.objects.create(club=club, variant="nanking"),
        player=player,
        club=club,
        variant="nanking",
        finished_at=WHEN,
        ordinal=0,
        side=0,
        rating_before=1500.0,
        rating_after=1500.0,
        rd_before=100.0,
        rd_after=100.0,
        expected=0.5,
        score=1.0,
        games=10,
        elo_before=elo,
        elo_after=elo,
    )
    return player


def test_seeding_by_the_clubs_elo_table_puts_the_strongest_entry_first(club, scorer_client):
    ann, bob, cat, dan = (_elo(club, n, e) for n, e in (("Ann", 1400), ("Bob", 1700), ("Cat", 1600), ("Dan", 1500)))
    unrated = Player.objects.create(club=club, name="New")
    given_order = [
        {"entry": "weak", "players": [ann.pk, unrated.pk]},  # 1400: the unrated partner does not count
        {"entry": "nobody", "players": ["Guest", "Other guest"]},  # no rating: last
        {"entry": "strong", "players": [bob.pk, cat.pk]},  # 1650
        {"entry": "middle", "players": [dan.pk]},  # 1500
    ]
    bid = new_bracket(scorer_client)
    assert seed(scorer_client, bid, {"expected_seq": 0, "by": "rating", "entries": given_order}).status_code == 201
    body = view(scorer_client, bid)
    assert body["seeding"]["by"] == "rating"
    assert [s["entry"] for s in body["seeding"]["seeds"]] == ["strong", "middle", "weak", "nobody"]
    assert body["seeding"]["seeds"][0]["player_names"] == ["Bob", "Cat"]


def test_seeding_by_a_previous_tournaments_standings(club, scorer_client):
    tid = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    standings = scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    bid = new_bracket(scorer_client)
    taken = seed(scorer_client, bid, {"expected_seq": 0, "by": "previous_stage", "tournament": tid, "top": 4})
    assert taken.status_code == 201, taken.json()
    seeds = view(scorer_client, bid)["seeding"]["seeds"]
    assert [s["players"] for s in seeds] == [r["players"] for r in standings[:4]]
    # given entries, placed where the standings put their players (the last first here)
    other = new_bracket(scorer_client)
    mine = [{"entry": f"X{i}", "players": r["players"]} for i, r in enumerate(reversed(standings[:4]))]
    body = {"expected_seq": 0, "by": "previous_stage", "tournament": tid, "entries": mine}
    assert seed(scorer_client, other, body).status_code == 201
    assert [s["entry"] for s in view(scorer_client, other)["seeding"]["seeds"]] == ["X3", "X2", "X1", "X0"]
    foreign = seed(
        scorer_client, new_bracket(scorer_client), {"expected_seq": 0, "by": "previous_stage", "tournament": 999999}
    )
    assert foreign.status_code == 400 and foreign.json()["code"] == "stage_not_of_club"
    nothing = seed(scorer_client, new_bracket(scorer_client), {"expected_seq": 0, "by": "hand"})
    assert nothing.status_code == 400 and nothing.json()["code"] == "entries_missing"


def test_who_may_create_and_write(club, scorer_client, make_user, anon):
    bad = scorer_client.post("/api/clubs/home/brackets/", {"name": "B", "header": {"best_of": 2}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "malformed"
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    assert client_for(viewer).post("/api/clubs/home/brackets/", {"name": "B"}, format="json").status_code == 403
    bid = new_bracket(scorer_client)
    denied = seed(client_for(viewer), bid, {"expected_seq": 0, "by": "hand", "entries": entries(2)})
    assert denied.status_code == 403
    assert anon.get(f"/api/brackets/{bid}/").status_code == 200  # a public club's bracket
    assert anon.get("/api/clubs/home/brackets/").status_code == 200
    assert anon.get("/api/brackets/999999/").status_code == 404


def test_a_members_only_clubs_bracket_is_hidden_from_others(make_club, make_user, anon):
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    bid = new_bracket(client_for(owner), club="private")
    assert anon.get(f"/api/brackets/{bid}/").status_code == 404
    assert anon.get("/api/clubs/private/brackets/").status_code == 404
    outsider = make_user("outsider")
    assert (
        append(
            client_for(outsider), bid, [{"type": "bracket_seeded", "entries": entries(2), "by": "hand"}], 0
        ).status_code
        == 404
    )
    assert client_for(outsider).get(f"/api/brackets/{bid}/").status_code == 404


def test_an_idempotency_key_replays_the_append(club, scorer_client):
    bid = new_bracket(scorer_client)
    batch = [{"type": "bracket_seeded", "entries": entries(2), "by": "hand"}]
    first = append(scorer_client, bid, batch, 0, HTTP_IDEMPOTENCY_KEY="k-1")
    again = append(scorer_client, bid, batch, 0, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201 and again.json() == first.json()
    assert BracketEvent.objects.filter(bracket_id=bid).count() == 1


def test_bracket_events_are_append_only_in_the_database(club, scorer_client):
    bid = new_bracket(scorer_client)
    assert seed(scorer_client, bid, {"expected_seq": 0, "by": "hand", "entries": entries(2)}).status_code == 201
    table = BracketEvent._meta.db_table
    for sql in (f"UPDATE {table} SET type = 'x'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    with pytest.raises(DatabaseError), transaction.atomic():  # not the next seq of its bracket
        BracketEvent.objects.create(bracket_id=bid, seq=5, type="match_result", payload={})
    assert BracketEvent.objects.filter(bracket_id=bid).count() == 1


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(min_value=2, max_value=13), consolation=st.booleans(), picks=st.randoms(use_true_random=False))
def test_through_the_service_every_entry_is_seeded_once_and_the_bracket_ends_with_one_winner(
    club, scorer, size, consolation, picks
):
    """Any size, results in any order of the open matches: the stored stream folds to a bracket
    that seeded every entry once and, once no match is open, has one winner who won the final."""
    bid = brackets.bracket_create(club=club, name="P", header={"consolation": consolation}, user=scorer).body["id"]
    brackets.seed_bracket(bracket_id=bid, entries=entries(size), by="hand", expected_seq=0, user=scorer)
    bracket = Bracket.objects.get(pk=bid)
    body = brackets.bracket_view(bracket)
    assert sorted(s["entry"] for s in body["seeding"]["seeds"]) == sorted(e["entry"] for e in entries(size))
    while open_matches(body):
        match = picks.choice(open_matches(body))
        score = [[700, 300]] if picks.random() < 0.5 else [[300, 700]]
        brackets.append_bracket_events(
            bracket_id=bid,
            events=[{"type": "match_result", "match": match["match"], "games": score}],
            expected_seq=body["seq"],
            user=scorer,
        )
        body = brackets.bracket_view(Bracket.objects.get(pk=bid))
    main = body["brackets"]["main"]
    assert len(main[-1]) == 1 and body["winner"] == main[-1][0]["winner"] is not None
    assert body["finished"] is True
    assert BracketEvent.objects.filter(bracket_id=bid).count() == body["seq"] == body["events"]
    losers_of_main = {s for r in main for m in r if not m.get("bye") for s in m["sides"] if s != m["winner"]}
    assert losers_of_main == {e["entry"] for e in entries(size)} - {body["winner"]}, "every other entry lost once"
