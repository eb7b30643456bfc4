"""A club's season in the database and the API (issue 36, item 1): created by a scorer, its
evenings added and removed (with a reason) through the stream store, and its table the core's
fold of the evenings' own standings, so that a correction on an evening changes the season."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from games import tournament as core
from games.models import Membership
from games.tournaments import seasons
from games.tournaments.models import Season, SeasonEvent, Tournament
from tests.conftest import client_for
from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs

pytestmark = pytest.mark.django_db


def played_evening(client, lines_by_table: dict[int, list[list[int]]], club: str = "home") -> int:
    """A one-round evening of four pairs with its results recorded (no game: paper scores)."""
    tid = create(client, club=club)["id"]
    register_pairs(client, tid)
    pair_next_round(client, tid)
    events = [
        {"type": "result_recorded", "round": 1, "table": t, "hands": lines} for t, lines in lines_by_table.items()
    ]
    assert append(client, tid, events, Tournament.objects.get(pk=tid).seq).status_code == 201
    return tid


def new_season(client, header: dict | None = None, club: str = "home") -> int:
    response = client.post(
        f"/api/clubs/{club}/seasons/", {"name": "Season 2027", "header": header or {}}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def add(client, sid: int, events: list[dict], expected_seq: int, **headers):
    return client.post(
        f"/api/seasons/{sid}/events/", {"expected_seq": expected_seq, "events": events}, format="json", **headers
    )


def evening_table(client, sid: int, tids: list[int]) -> dict:
    """The core's season table computed from the API's own records of the season and its evenings."""
    season = Season.objects.get(pk=sid)
    state = core.fold_season(seasons.record(season))
    standings = {t: core.standings_json(core.fold(client.get(f"/api/tournaments/{t}/record/").json())) for t in tids}
    return core.season_table(state, standings)


def without_names(table: dict) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "name"} for row in table["table"]]


def test_a_season_over_two_evenings_is_the_core_fold_of_their_standings(club, scorer_client):
    first = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    second = played_evening(scorer_client, {1: [[100, 0]], 2: [[20, 80]]})
    sid = new_season(scorer_client, {"scoring": "place", "best": 1})
    response = add(scorer_client, sid, [{"type": "evening_added", "tournament": t} for t in (first, second)], 0)
    assert response.status_code == 201, response.json()
    assert response.json() == {"id": sid, "seq": 2, "appended": 2, "first_seq": 1}

    body = scorer_client.get(f"/api/seasons/{sid}/").json()
    assert body["seq"] == 2
    assert [e["tournament"] for e in body["evenings"]] == [first, second]
    assert without_names(body["table"]) == without_names(evening_table(scorer_client, sid, [first, second]))
    assert body["table"]["table"][0]["rank"] == 1
    assert {row["name"] for row in body["table"]["table"]} >= {"Anna", "Ben"}, "players named, not numbered"
    # best 1 of 2: exactly one evening counts for each player who played both
    assert all(sum(e["counts"] for e in row["evenings"]) == 1 for row in body["table"]["table"])


def test_a_correction_on_an_evening_changes_the_season(club, scorer_client):
    tid = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    sid = new_season(scorer_client, {"scoring": "vp"})
    assert add(scorer_client, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    before = scorer_client.get(f"/api/seasons/{sid}/").json()["table"]
    correction = {"type": "result_corrected", "round": 1, "table": 1, "hands": [[0, 100]], "reason": "sheet swapped"}
    assert append(scorer_client, tid, [correction], Tournament.objects.get(pk=tid).seq).status_code == 201
    after = scorer_client.get(f"/api/seasons/{sid}/").json()["table"]
    assert without_names(after) != without_names(before)
    assert without_names(after) == without_names(evening_table(scorer_client, sid, [tid]))


def test_removing_an_evening_needs_a_reason_and_the_history_keeps_it(club, scorer_client):
    tid = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    sid = new_season(scorer_client)
    assert add(scorer_client, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    refused = add(scorer_client, sid, [{"type": "evening_removed", "tournament": tid}], 1)
    assert refused.status_code == 422 and refused.json()["code"] == "reason_required"
    assert SeasonEvent.objects.filter(season_id=sid).count() == 1
    removed = {"type": "evening_removed", "tournament": tid, "reason": "played with a short deck"}
    assert add(scorer_client, sid, [removed], 1).status_code == 201
    body = scorer_client.get(f"/api/seasons/{sid}/").json()
    assert body["evenings"] == [] and body["table"]["table"] == []
    assert [(h["type"], h.get("reason")) for h in body["history"]] == [
        ("evening_added", None),
        ("evening_removed", "played with a short deck"),
    ]
    assert body["history"][1]["name"] == "Thursday", "the history names the evening"


def test_refusals_store_nothing(club, scorer_client, make_club, make_user):
    tid = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    sid = new_season(scorer_client)
    assert add(scorer_client, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    twice = add(scorer_client, sid, [{"type": "evening_added", "tournament": tid}], 1)
    assert twice.status_code == 422 and twice.json()["code"] == "evening_in_season"
    assert twice.json()["index"] == 0
    stale = add(scorer_client, sid, [{"type": "evening_removed", "tournament": tid, "reason": "x"}], 0)
    assert stale.status_code == 409 and stale.json()["current_seq"] == 1
    # an evening of another club, even one the scorer runs too: refused in words
    other_scorer = make_user("other")
    make_club("away", scorer=other_scorer)
    Membership.objects.create(club_id=make_club("third").pk, user=other_scorer, role=Membership.Role.SCORER)
    elsewhere = played_evening(client_for(other_scorer), {1: [[70, 30]], 2: [[45, 55]]}, club="away")
    foreign = add(scorer_client, sid, [{"type": "evening_added", "tournament": elsewhere}], 1)
    assert foreign.status_code == 400 and foreign.json()["code"] == "evening_not_of_club"
    assert str(elsewhere) in foreign.json()["message"]
    malformed = add(scorer_client, sid, [{"type": "evening_added", "tournament": "twelve"}], 1)
    assert malformed.status_code == 400 and malformed.json()["code"] == "malformed"
    assert Season.objects.get(pk=sid).seq == 1 and SeasonEvent.objects.filter(season_id=sid).count() == 1


def test_who_may_create_and_write(club, scorer_client, make_user, anon):
    bad_header = scorer_client.post(
        "/api/clubs/home/seasons/", {"name": "S", "header": {"scoring": "goals"}}, format="json"
    )
    assert bad_header.status_code == 400 and bad_header.json()["code"] == "malformed"
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    denied = client_for(viewer).post("/api/clubs/home/seasons/", {"name": "S"}, format="json")
    assert denied.status_code == 403
    sid = new_season(scorer_client)
    assert add(client_for(viewer), sid, [{"type": "evening_added", "tournament": 1}], 0).status_code == 403
    assert anon.get(f"/api/seasons/{sid}/").status_code == 200  # a public club's season
    assert anon.get("/api/seasons/999999/").status_code == 404


def test_a_members_only_clubs_season_is_hidden_from_others(make_club, make_user, anon):
    owner = make_user("owner")
    make_club("private", visibility="members", scorer=owner)
    sid = new_season(client_for(owner), club="private")
    assert anon.get(f"/api/seasons/{sid}/").status_code == 404
    outsider = make_user("outsider")
    assert add(client_for(outsider), sid, [{"type": "evening_added", "tournament": 1}], 0).status_code == 404


def test_an_idempotency_key_replays_the_append(club, scorer_client):
    tid = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    sid = new_season(scorer_client)
    batch = [{"type": "evening_added", "tournament": tid}]
    first = add(scorer_client, sid, batch, 0, HTTP_IDEMPOTENCY_KEY="k-1")
    again = add(scorer_client, sid, batch, 0, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201 and again.json() == first.json()
    assert SeasonEvent.objects.filter(season_id=sid).count() == 1


def test_season_events_are_append_only_in_the_database(club, scorer_client):
    tid = played_evening(scorer_client, {1: [[70, 30]], 2: [[45, 55]]})
    sid = new_season(scorer_client)
    assert add(scorer_client, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    table = SeasonEvent._meta.db_table
    for sql in (f"UPDATE {table} SET type = 'x'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    with pytest.raises(DatabaseError), transaction.atomic():  # not the next seq of its season
        SeasonEvent.objects.create(season_id=sid, seq=5, type="evening_added", payload={"tournament": tid})
    assert SeasonEvent.objects.filter(season_id=sid).count() == 1


def test_a_duplicate_evenings_open_round_counts_only_for_the_td(club, scorer_client, anon):
    """As the standings API: until the round closes, only the TD sees its results, so only the TD's
    season table counts them (games.tournaments.visibility)."""
    from tests.tournament_api.test_duplicate_visibility import HEADER, close_round, record_results

    tid = create(scorer_client, header=HEADER)["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    record_results(scorer_client, tid)
    sid = new_season(scorer_client)
    assert add(scorer_client, sid, [{"type": "evening_added", "tournament": tid}], 0).status_code == 201
    public = anon.get(f"/api/seasons/{sid}/").json()["table"]
    assert public["table"] == [] and public["waiting"] == [tid]
    td = scorer_client.get(f"/api/seasons/{sid}/").json()["table"]
    assert len(td["table"]) == 8 and td["waiting"] == []
    close_round(scorer_client, tid)
    assert without_names(anon.get(f"/api/seasons/{sid}/").json()["table"]) == without_names(td)
