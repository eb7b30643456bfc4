"""games_event.recorded_by_id is indexed only where set (migration 0018): an imported event
(no recording user) costs no index entry, the lookup of a user's events (the PROTECT on user
deletion) still goes by the index, and the migration goes back and forth keeping the table's
append-only triggers (SQLite rebuilds a table for AlterField; 0018 drops and creates the index
alone)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError

from games.models import Event, Game
from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand

PARTIAL, FULL = "event_recorded_by_set", "games_event_recorded_by_id_1805bc8a"


def index_definitions() -> dict[str, str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'games_event'")
        else:
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games_event'")
        return {name: sql or "" for name, sql in cursor.fetchall()}


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


@pytest.mark.django_db
def test_only_the_events_with_a_user_are_indexed_and_a_users_events_still_protect_them(club, scorer):
    definition = index_definitions()
    assert FULL not in definition and "IS NOT NULL" in definition[PARTIAL].upper()
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    with pytest.raises(ProtectedError):
        scorer.delete()
    if connection.vendor == "postgresql":  # the PROTECT lookup of the keys goes by the partial index
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN SELECT game_id, seq FROM games_event WHERE recorded_by_id IN (%s)", [scorer.pk])
            assert PARTIAL in " ".join(row[0] for row in cursor.fetchall())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("as_owner")  # DDL: as the owner in the PostgreSQL stages
def test_the_migration_goes_back_and_forth_and_keeps_the_append_only_triggers(club, scorer):
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        migrate([("games", "0017_event_seq_check_writes_lagging_games_only")])
        definition = index_definitions()
        assert PARTIAL not in definition and FULL in definition
    finally:
        migrate(leaves)
    assert PARTIAL in index_definitions()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET type = 'pass'")
    with pytest.raises(IntegrityError, match="seq must be the next one"), transaction.atomic():
        Event.objects.create(game=game, seq=3, type="undo", payload={})  # seq 2 skipped
    assert Event.objects.filter(game=game).count() == 1
