"""A game's event rows in fewer bytes (issue 35 item 6, migration 0031, docs/speed.md "An
archive's bytes"): every event its own row with game, seq, type, payload, recorded_by and
recorded_at; the key (game, seq) with no surrogate id; the payload compact JSON text in the order
it was appended; the columns in the order of least padding; the guarantees kept across the
migration (append-only, seq checks, the app role's rights), and the rows converted."""

from __future__ import annotations

import json

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Event, Game
from games.selectors import game_record
from games.services import append_events, game_create
from games.streams.models import JSONTextField, compact_json
from tests.api.helpers import PLAYERS, hand
from tests.plugins.db_roles import app_role, app_role_mode

BEFORE = ("games", "0030_game_seq_notifies_its_listeners")

#: JSON as an event's payload may hold it (strings with quotes, commas, colons and blanks: what a
#: text compaction could get wrong)
TEXT = st.text(alphabet=st.sampled_from('ab Ä😀",: \\\t{}[]'), max_size=8)
SCALARS = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | TEXT
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8
)
PAYLOADS = st.dictionaries(TEXT.filter(lambda k: k != "type"), VALUES, max_size=4)


def stored_text(game: Game) -> list[tuple[int, str, str]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT seq, type, payload FROM games_event WHERE game_id = %s ORDER BY seq", [game.pk])
        return cursor.fetchall()


def new_game(club, scorer) -> Game:
    return Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )


def migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


@given(PAYLOADS)
def test_the_payload_field_stores_compact_text_and_gives_back_the_value_in_its_order(payload):
    field = JSONTextField()
    text = field.get_prep_value(payload)
    assert text == json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    back = field.from_db_value(text, None, connection)
    assert back == payload and list(back) == list(payload)


@pytest.mark.django_db
def test_an_appended_payload_is_stored_compact_in_its_order_and_read_back_so(club, scorer):
    game = new_game(club, scorer)
    event = {"type": "hand_result", "points": [25, 75], "out": [0, 1, 2, 3], "calls": {"2": "tichu"}}
    append_events(game=game, events=[event], expected_seq=0, user=scorer)
    assert stored_text(game) == [(1, "hand_result", '{"points":[25,75],"out":[0,1,2,3],"calls":{"2":"tichu"}}')]
    (read,) = game_record(game)["events"]
    assert read == event and list(read) == list(event)  # the key order as appended


@pytest.mark.django_db
def test_every_event_is_its_own_row_keyed_by_game_and_seq(club, scorer):
    game = new_game(club, scorer)
    append_events(game=game, events=[hand(), hand()], expected_seq=0, user=scorer)
    columns = [f.column for f in Event._meta.concrete_fields]
    assert "id" not in columns
    assert set(columns) == {"game_id", "seq", "type", "payload", "recorded_by_id", "recorded_at"}
    assert [f.name for f in Event._meta.pk.fields] == ["game", "seq"]
    first = Event.objects.get(pk=(game.pk, 1))
    assert (first.game_id, first.seq, first.type, first.recorded_by_id) == (game.pk, 1, "hand_result", scorer.pk)
    assert first.recorded_at is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(game=game, seq=2, type="undo", payload={})  # (game, seq) taken


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_table_has_its_columns_in_padding_order_and_one_index_per_purpose(club, scorer):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'games_event'::regclass "
            "AND attnum > 0 AND NOT attisdropped ORDER BY attnum"
        )
        assert cursor.fetchall() == [
            ("game_id", "bigint"),
            ("recorded_at", "timestamp with time zone"),
            ("seq", "integer"),
            ("recorded_by_id", "integer"),
            ("type", "character varying(30)"),
            ("payload", "text"),
        ]
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'games_event' ORDER BY 1")
        indexes = dict(cursor.fetchall())
    assert set(indexes) == {"event_recorded_by_set", "games_event_pkey"}
    assert "(game_id, seq) WITH (fillfactor='100')" in indexes["games_event_pkey"]


@pytest.mark.postgres
@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(PAYLOADS)
def test_the_migrations_conversion_of_a_jsonb_payload_is_its_compact_text(payload):
    """0031's SQL (COMPACT) on jsonb's text: the same value, and exactly the compact text of the
    value in jsonb's key order (blanks inside strings kept, none outside)."""
    from importlib import import_module

    compact = import_module("games.migrations.0031_event_compact_rows").COMPACT
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {compact}, payload::text FROM (SELECT %s::jsonb AS payload) p", [json.dumps(payload)])
        converted, jsonb_text = cursor.fetchone()
    assert json.loads(converted) == payload
    assert converted == compact_json(json.loads(jsonb_text))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("as_owner")  # DDL: as the owner in the PostgreSQL stages
def test_the_migration_converts_the_rows_and_keeps_the_guarantees_both_ways(club, scorer):
    game = new_game(club, scorer)
    events = [hand(), {"type": "undo"}, {"type": "hand_result", "out": [1, 3], "calls": {"1": "grand_tichu"}}]
    append_events(game=game, events=events, expected_seq=0, user=scorer)
    before = [(e.seq, e.type, e.payload, e.recorded_by_id, e.recorded_at) for e in Event.objects.filter(game=game)]
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        migrate([BEFORE])
        with connection.cursor() as cursor:
            cursor.execute("SELECT id, seq, payload FROM games_event WHERE game_id = %s ORDER BY seq", [game.pk])
            back = cursor.fetchall()
        assert [row[1] for row in back] == [1, 2, 3] and len({row[0] for row in back}) == 3
        assert [json.loads(p) if isinstance(p, str) else p for _, _, p in back] == [e[2] for e in before]
    finally:
        migrate(leaves)
    after = [(e.seq, e.type, e.payload, e.recorded_by_id, e.recorded_at) for e in Event.objects.filter(game=game)]
    assert after == before
    assert all(" " not in text for _, _, text in stored_text(game))  # compact (no blank in these strings)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET type = 'pass'")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event")
    with pytest.raises(IntegrityError, match="seq must be the next one"), transaction.atomic():
        Event.objects.create(game=game, seq=5, type="undo", payload={})  # seq 4 skipped
    append_events(game=game, events=[{"type": "undo"}], expected_seq=3, user=scorer)
    assert Event.objects.filter(game=game).count() == 4
    if app_role_mode():  # the app role keeps exactly SELECT and INSERT on the rebuilt table
        with connection.cursor() as cursor:
            rights = ["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"]
            cursor.execute(
                "SELECT " + ", ".join(["has_table_privilege(%s, 'games_event', %s)"] * len(rights)),
                [x for right in rights for x in (app_role(), right)],
            )
            assert dict(zip(rights, cursor.fetchone())) == {r: r in ("SELECT", "INSERT") for r in rights}
