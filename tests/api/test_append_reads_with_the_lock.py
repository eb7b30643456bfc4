"""An append that lands on a process which has not seen the game's latest events (another worker
made them) reads them with its lock, in the same query (games.snapshots.offer_events, issue 35):
no query of its own for them, the same state folded, and nothing kept that does not fit."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, snapshots
from games.models import Game
from games.services import append_events, game_create

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def new_game(club, scorer) -> int:
    return game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]


def test_another_workers_events_come_with_the_lock(club, scorer):
    events = engine.random_game(11)["events"]
    game_id = new_game(club, scorer)
    for seq in range(7):
        append_events(game=game_id, events=[events[seq]], expected_seq=seq, user=scorer)
    game = Game.objects.get(pk=game_id)
    # this process read the game's first 3 events; "another worker" appended the 4 after them
    snapshots.forget_local()
    snapshots.stored_events(game, 3)
    assert snapshots.known_events(game_id) == 3
    with CaptureQueriesContext(connection) as queries:
        append_events(game=game_id, events=[events[7]], expected_seq=7, user=scorer)
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]  # the test's transaction
    if connection.vendor == "postgresql":
        # the lock (with the events after the 3rd) and the insert: no read of the events of its own
        assert len(statements) == 2 and "FOR UPDATE" in statements[0], statements
        assert statements[1].startswith("WITH inserted AS (INSERT"), statements
    assert snapshots.known_events(game_id) == 7  # the 8th is kept on commit (none in this test)
    assert snapshots.stored_events(game, 7) == tuple(events[:7])
    game = Game.objects.get(pk=game_id)
    record = {"variant": "nanking", "players": PLAYERS, "events": events}
    assert engine.state_json(snapshots.state_at(game, 8)) == engine.state_json(engine.fold(record, 8))


def test_offered_rows_that_do_not_fit_are_left(club, scorer):
    events = engine.random_game(12)["events"]
    game_id = new_game(club, scorer)
    for seq in range(4):
        append_events(game=game_id, events=[events[seq]], expected_seq=seq, user=scorer)
    game = Game.objects.get(pk=game_id)
    snapshots.forget_local()
    snapshots.stored_events(game, 2)  # this process holds 2 events
    rows = [(seq + 1, e["type"], {k: v for k, v in e.items() if k != "type"}) for seq, e in enumerate(events[:4])]
    for after, offered in (
        (2, rows[2:3]),  # one missing: committed while the lock was awaited
        (2, [rows[3], rows[2]]),  # out of order
        (1, rows[1:]),  # not what this process holds
        (2, None),  # not read (SQLite)
    ):
        snapshots.offer_events(game, after, offered)
        assert snapshots.known_events(game_id) == 2
    other = Game.objects.get(pk=new_game(club, scorer))
    other.pk, other.seq = game_id, 4  # the same id, another stream (an id reused)
    snapshots.offer_events(other, 2, rows[2:])
    assert snapshots.known_events(game_id) == 2
    snapshots.offer_events(game, 2, rows[2:])
    assert snapshots.known_events(game_id) == 4
    assert snapshots.stored_events(game, 4) == tuple(events[:4])
