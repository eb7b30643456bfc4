"""Import and export round-trip exactly: export(import(r)) == r for every record the engine accepts."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import fold, random_game, score_json, state_json
from games.models import Membership
from tests.api.helpers import PLAYERS, hand, record

pytestmark = pytest.mark.django_db

_CLUB_NUMBERS = itertools.count()
HYPOTHESIS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def import_record(client, club, rec, seen_before: bool = False) -> int:
    """The game's id. `seen_before`: hypothesis may draw a record again in the same database,
    and the same content is imported once per club (200, `already_imported`)."""
    response = client.post(f"/api/games/import/?club={club.pk}", rec, format="json")
    if seen_before and response.status_code == 200:
        assert response.json()["already_imported"] is True
    else:
        assert response.status_code == 201, response.content
    return response.json()["id"]


def export(client, game_id) -> dict:
    response = client.get(f"/api/games/{game_id}/record/")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize(
    "rec",
    [
        record([hand(), hand((30, 70))]),
        record([], options={"preset": "tiki", "target_score": 500}),
        record([hand()], options={}),
        {"variant": "nanking", "players": PLAYERS, "events": [hand()]},  # no format: none comes back
        {"variant": "nanking", "players": ["Zoë", "李", "Ann", "Ann"]},  # no events, repeated name
        record(
            [hand(), {"type": "undo"}, hand((0, 100))], meta={"source": "paper", "table": 3, "nested": [1, {"a": None}]}
        ),
        record([], options=None),
    ],
    ids=["plain", "options", "empty-options", "no-format", "no-events", "undo-and-meta", "null-options"],
)
def test_hand_written_records_round_trip(scorer_client, club, rec):
    game_id = import_record(scorer_client, club, rec)
    assert export(scorer_client, game_id) == rec


@HYPOTHESIS
@given(
    seed=st.integers(0, 2**31),
    cut=st.floats(0, 1),
    names=st.lists(
        st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), min_size=1, max_size=20)
        .map(str.strip)
        .filter(bool),
        min_size=4,
        max_size=4,
    ),
)
def test_bot_played_records_and_their_prefixes_round_trip(scorer_client, make_club, scorer, seed, cut, names):
    # Names as the roster keeps them (trimmed; one spelling per name regardless of case, see
    # test_record_names_take_the_rosters_spelling), in a club of their own for each example.
    assume(len({n.lower() for n in names}) == len(set(names)))
    club = make_club(f"c{next(_CLUB_NUMBERS)}")
    Membership.objects.create(club=club, user=scorer, role=Membership.Role.SCORER)
    full = random_game(seed, players=names)
    rec = {**full, "events": full["events"][: round(cut * len(full["events"]))]}
    game_id = import_record(scorer_client, club, rec, seen_before=True)
    assert export(scorer_client, game_id) == rec
    # Exactly, as JSON text too (key order aside).
    assert json.dumps(export(scorer_client, game_id), sort_keys=True) == json.dumps(rec, sort_keys=True)
    # The imported game is the engine's fold of the record.
    state = fold(rec)
    game = scorer_client.get(f"/api/games/{game_id}/").json()
    assert (game["seq"], game["status"]) == (len(rec["events"]), "finished" if state.is_over else "active")
    assert scorer_client.get(f"/api/games/{game_id}/score/").json() == score_json(state)


def test_appended_game_exports_its_events_and_reimports_identically(scorer_client, club, make_club, scorer):
    rec = random_game(11)
    created = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": rec["players"]}, format="json"
    )
    game_id = created.json()["id"]
    events, seq = rec["events"], 0
    for start in range(0, len(events), 400):
        batch = events[start : start + 400]
        response = scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": seq, "events": batch}, format="json"
        )
        assert response.status_code == 201, response.content
        seq = response.json()["seq"]
    assert response.json()["status"] == "finished"
    exported = export(scorer_client, game_id)
    assert exported == {**rec, "options": None} or exported == {k: v for k, v in rec.items() if k != "options"}
    # into its own club it is the game already there (issue 37 finding 6), into another a copy
    same = scorer_client.post(f"/api/games/import/?club={club.pk}", exported, format="json")
    assert same.status_code == 200 and same.json()["id"] == game_id and same.json()["already_imported"] is True
    other = make_club("elsewhere")
    Membership.objects.create(club=other, user=scorer, role="scorer")
    again = import_record(scorer_client, other, exported)
    assert export(scorer_client, again) == exported
    assert scorer_client.get(f"/api/games/{again}/state/").json() == state_json(fold(rec))


def test_a_record_the_engine_refuses_is_not_imported(scorer_client, club):
    rec = random_game(5)
    bad = {**rec, "events": rec["events"][:40] + [rec["events"][40 + 1]] + rec["events"][42:]}
    response = scorer_client.post(f"/api/games/import/?club={club.pk}", bad, format="json")
    assert response.status_code == 422
    with pytest.raises(Exception) as refused:
        fold(bad)
    assert response.json()["index"] == refused.value.index == 40
    assert response.json()["error"] == refused.value.as_dict()
    assert scorer_client.get("/api/games/").json()["count"] == 0


def test_record_names_take_the_rosters_spelling(scorer_client, club):
    """A record's player names name the club's roster players regardless of case and surrounding
    spaces: the export gives the roster's spelling, and no second player is made."""
    first = import_record(scorer_client, club, record([hand()]))
    assert export(scorer_client, first)["players"] == PLAYERS
    shouted = [" " + name.upper() + "  " for name in PLAYERS]
    second = import_record(scorer_client, club, {**record([hand((30, 70))]), "players": shouted})
    assert export(scorer_client, second)["players"] == PLAYERS
    assert club.players.count() == len(set(PLAYERS))
