"""The site's raw SQL, in one module.

The ORM writes every other query. These statements are SQL because building the queryset cost more
than running it on a hot path (figures in each docstring, measured with bench/api.py and bench/
ratings.py). Each is built once per database vendor from the models' metadata (table and column
names: a rename cannot leave one behind), and its values pass through the model fields' own
converters, so it reads and writes exactly what the ORM would. `tests/api/test_raw_sql.py` checks
each against the ORM's result on SQLite and on PostgreSQL (`make test-postgres`).

- `game_with_role`: a game, its club and the reader's role in one query (optionally locking the
  game row: the append's lock), for `games.selectors.game_with_role`.
- `token_with_user`: an API token and its user, for `games.api.authentication` (every API request).
- `players_named`: a club's players by name as the unique constraint compares names, for
  `games.services.players_for_names`.
- `event_rows`: a range of a game's stored events, for `games.snapshots.stored_events`.
- `append_events`: insert an append's event rows and move the game's head, for
  `games.services.append_events` and the import (one statement on PostgreSQL);
  `append_events_if_unchanged`: the same in one statement outside a transaction, written only if
  the game row is still the one read (PostgreSQL: the common append without the row lock).
- `insert_recorded_events`: events each with its own recorder and time, as a club's archive
  holds them (`games.clubs.archive`).
- `insert_event_rows` (any vendor), `insert_imported_events` (PostgreSQL: the events' payloads
  as one JSON text whose parts the server stores as they are, and the games' heads, in one
  statement): a whole imported file's events at once, for `games.bulk_store`.
- `snapshot_reads`: PostgreSQL's REPEATABLE READ for a transaction that reads a whole club at
  once (its archive, `games.clubs.archive`), so that its rows are of one moment.
- `copy_rows`, `commit_without_wal_wait`, `rated_outcome_rows`: PostgreSQL-only helpers of a
  whole rating pool's recompute (`games.ratings.services`), which take the model they work on so
  that this module never imports the ratings (they import the records, not the reverse).
"""

from __future__ import annotations

import datetime
import functools
import json
import weakref
from collections.abc import Iterable
from dataclasses import dataclass

from django.apps import apps
from django.db import models, transaction

from games import ids
from games.models import Club, Event, Game, Membership, Player
from games.streams.models import compact_json

#: events per multi-row INSERT on PostgreSQL: an import would otherwise pass its 65,535 parameters
INSERT_ROWS = 500


def _quote():
    return transaction.get_connection().ops.quote_name


def _column(meta, name: str) -> str:
    return _quote()(meta.get_field(name).column)


def model_from_row(model, connection, values):
    """A model instance from its concrete columns as the database returned them, converted as
    the ORM's compiler converts them (JSON, SQLite's dates and UUIDs)."""
    attnames, plan = _row_plan(model, connection)
    converted = list(values)
    for i, column, converters in plan:
        value = converted[i]
        for convert in converters:
            value = convert(value, column, connection)
        converted[i] = value
    return model.from_db(connection.alias, attnames, converted)


#: per connection (one a thread), per model: the columns' names and converters, found once (asking
#: them for every column of every row was a third of the cost of a token's or a game's read)
_plans: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _row_plan(model, connection) -> tuple[list[str], list[tuple[int, models.Expression, list]]]:
    by_model = _plans.get(connection)
    if by_model is None:
        by_model = _plans[connection] = {}
    plan = by_model.get(model)
    if plan is None:
        fields = model._meta.concrete_fields
        steps = []
        for i, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if converters:
                steps.append((i, column, converters))
        plan = by_model[model] = ([f.attname for f in fields], steps)
    return plan


# --- a game with its club and the reader's role ------------------------------------------------


def game_with_role(
    game_id: int,
    user_id: int | None,
    *,
    for_update: bool = False,
    has_one: type[models.Model] | None = None,
    events_after: int | None = None,
    version: bool = False,
) -> tuple[Game, str | None] | None:
    """The game (its club loaded) and the role of user `user_id` in its club (None: no member),
    in one query; `for_update` also locks the game row for the transaction. Compiling the
    equivalent queryset with its role subquery cost about 2 ms per call, more than the rest of a
    `state?at=N` read. `has_one`: a model with a one-to-one `game` field (the online table, which
    this module does not import); the same query then also tells whether the game has one, set on
    the game as `has_one` (True/False): the append asked it in a query of its own (issue 35).
    `events_after` (PostgreSQL; ignored elsewhere): the same query also reads the game's events
    with seq > `events_after` as (seq, type, payload) rows, set on the game as `events_after`
    (None when not asked); the append's worker reads those it has not seen this way rather than
    in a query of its own (games.snapshots.offer_events). With the lock, they are read before
    the lock is had: events committed while waiting for it are missing, and the caller must
    check that the rows reach the game's seq (offer_events does). `version` (PostgreSQL; None
    elsewhere): the game row's version (its `xmin`), set on the game as `row_version`, for a write
    that must find the row as it was read (`append_events_if_unchanged`)."""
    if not ids.in_range(game_id):
        return None  # no such row, and the driver would refuse the number
    connection = transaction.get_connection()
    with_events = events_after is not None and connection.vendor == "postgresql"
    with_version = version and connection.vendor == "postgresql"
    params: list = [user_id, game_id] if not with_events else [events_after, user_id, game_id]
    with connection.cursor() as cursor:
        other = None if has_one is None else (has_one._meta.db_table, has_one._meta.get_field("game").column)
        cursor.execute(_game_with_role_sql(connection.vendor, for_update, other, with_events, with_version), params)
        row = cursor.fetchone()
    if row is None:
        return None
    game_fields, club_fields = Game._meta.concrete_fields, Club._meta.concrete_fields
    game = model_from_row(Game, connection, row[: len(game_fields)])
    game.club = model_from_row(Club, connection, row[len(game_fields) : len(game_fields) + len(club_fields)])
    extra = list(row[len(game_fields) + len(club_fields) :])
    if with_events:
        rows = extra.pop()
        decode = Event._meta.get_field("payload").from_db_value
        game.events_after = [tuple(r) for r in decode(rows, None, connection)] if rows is not None else []
    else:
        game.events_after = None
    game.row_version = extra.pop() if with_version else None
    if has_one is not None:
        game.has_one = bool(extra.pop())
    return game, extra[0]


@functools.cache
def _game_with_role_sql(
    vendor: str,
    for_update: bool,
    has_one: tuple[str, str] | None = None,
    with_events: bool = False,
    with_version: bool = False,
) -> str:
    connection = transaction.get_connection()
    q, features = connection.ops.quote_name, connection.features
    game, club, member = Game._meta, Club._meta, Membership._meta
    columns = [f"g.{q(f.column)}" for f in game.concrete_fields] + [f"c.{q(f.column)}" for f in club.concrete_fields]
    lock = ""
    if for_update and features.has_select_for_update:
        lock = " " + connection.ops.for_update_sql(of=("g",) if features.has_select_for_update_of else ())
    exists = ""
    if has_one is not None:  # (its table, the column of its game)
        exists = f", EXISTS (SELECT 1 FROM {q(has_one[0])} o WHERE o.{q(has_one[1])} = g.{q(game.pk.column)})"
    # PostgreSQL only: the row version's number as text (xid has no cast to a number)
    version = ", g.xmin::text" if with_version else ""
    events = ""
    # PostgreSQL only: the rows as one JSON text (decoded as the payload field decodes); the payload
    # column holds JSON text (games.streams.models.JSONTextField), read as json so that it is
    # nested as the object it is, not as a string
    if with_events:
        ev = Event._meta
        seq, kind, payload = (f"e.{_column(ev, f)}" for f in ("seq", "type", "payload"))
        events = (
            f", (SELECT json_agg(json_build_array({seq}, {kind}, {payload}::json) ORDER BY {seq})::text "
            f"FROM {q(ev.db_table)} e WHERE e.{_column(ev, 'game')} = g.{q(game.pk.column)} AND {seq} > %s)"
        )
    return (
        f"SELECT {', '.join(columns)}, m.{_column(member, 'role')}{exists}{version}{events} "
        f"FROM {q(game.db_table)} g "
        f"JOIN {q(club.db_table)} c ON c.{q(club.pk.column)} = g.{_column(game, 'club')} "
        f"LEFT JOIN {q(member.db_table)} m ON m.{_column(member, 'club')} = g.{_column(game, 'club')} "
        f"AND m.{_column(member, 'user')} = %s WHERE g.{q(game.pk.column)} = %s{lock}"
    )


# --- an API token with its user ------------------------------------------------------------------


def token_with_user(token_model: type[models.Model], key: str) -> models.Model | None:
    """The token of `token_model` (DRF's authtoken Token, which this module does not import) whose
    key is `key`, its `user` loaded, or None: the query of DRF's `TokenAuthentication`
    (`select_related("user").get(key=key)`), every API request's, without compiling a queryset
    (about 0.3 ms of the ORM per request, the ping's and the append's alike; issue 35)."""
    connection = transaction.get_connection()
    user_model = token_model._meta.get_field("user").related_model
    with connection.cursor() as cursor:
        cursor.execute(_token_with_user_sql(connection.vendor, token_model._meta.label), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    token_fields = token_model._meta.concrete_fields
    token = model_from_row(token_model, connection, row[: len(token_fields)])
    token.user = model_from_row(user_model, connection, row[len(token_fields) :])
    return token


@functools.cache
def _token_with_user_sql(vendor: str, token_label: str) -> str:
    q = _quote()
    token_model = apps.get_model(token_label)
    token, user = token_model._meta, token_model._meta.get_field("user").related_model._meta
    columns = [f"t.{q(f.column)}" for f in token.concrete_fields] + [f"u.{q(f.column)}" for f in user.concrete_fields]
    return (
        f"SELECT {', '.join(columns)} FROM {q(token.db_table)} t "
        f"JOIN {q(user.db_table)} u ON u.{q(user.pk.column)} = t.{_column(token, 'user')} "
        f"WHERE t.{_column(token, 'key')} = %s"
    )


# --- a club's players by name -------------------------------------------------------------------


def players_named(club_id: int, names: list[str]) -> list[Player]:
    """The club's players whose name is one of `names` as the unique constraint compares names
    (LOWER(TRIM()): "anna " is "Anna"), for `games.services.players_for_names`. The queryset (an
    annotation and a LOWER(TRIM()) expression per name) cost about 1 ms a call to build, twice
    per imported file in the bulk import. One equality per name on the whole key of the unique
    (club, LOWER(TRIM(name))) index, joined by UNION ALL. Never a prepared statement on
    PostgreSQL (planned at every call, about 0.1 ms): a bulk import starts on a club with few
    players, and the generic plan psycopg's prepared statement settled on then (a scan of the
    club's players) stayed while the table grew by four players a file, until an ANALYZE, which
    a server without autovacuum never runs: the lookup grew from 0.7 to 11.7 ms a file over 700
    files, linearly with the archive."""
    if not names:
        return []
    connection = transaction.get_connection()
    sql, params = _players_named_sql(connection.vendor, len(names)), [x for name in names for x in (club_id, name)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with connection.wrap_database_errors:
                cursor.cursor.execute(sql, params, prepare=False)
        else:
            cursor.execute(sql, params)
        return [model_from_row(Player, connection, row) for row in cursor.fetchall()]


@functools.cache
def _players_named_sql(vendor: str, count: int) -> str:
    q = _quote()
    meta = Player._meta
    columns = ", ".join(q(f.column) for f in meta.concrete_fields)
    one = (
        f"SELECT {columns} FROM {q(meta.db_table)} WHERE {_column(meta, 'club')} = %s "
        f"AND LOWER(TRIM({_column(meta, 'name')})) = LOWER(TRIM(%s))"
    )
    return " UNION ALL ".join([one] * count)


# --- a game's stored events --------------------------------------------------------------------


def event_rows(game_id: int, after: int, upto: int) -> list[tuple[int, str, dict]]:
    """(seq, type, payload) of the events after..upto of a game, in order. The queryset it
    replaces cost ~0.5 ms per call in query building, on every append that lands on a worker that
    has not read the game's latest events."""
    connection = transaction.get_connection()
    decode = Event._meta.get_field("payload").from_db_value
    with connection.cursor() as cursor:
        cursor.execute(_event_rows_sql(connection.vendor), [game_id, after, upto])
        return [(s, k, decode(p, None, connection)) for s, k, p in cursor.fetchall()]


@functools.cache
def _event_rows_sql(vendor: str) -> str:
    q = _quote()
    meta = Event._meta
    seq, kind, payload, game = (_column(meta, f) for f in ("seq", "type", "payload", "game"))
    return (
        f"SELECT {seq}, {kind}, {payload} FROM {q(meta.db_table)} "
        f"WHERE {game} = %s AND {seq} > %s AND {seq} <= %s ORDER BY {seq}"
    )


# --- the append's writes -----------------------------------------------------------------------


@dataclass(frozen=True)
class _AppendSql:
    insert: str  # INSERT INTO the event table (columns) without its VALUES
    row: str  # one row's placeholders
    update: str  # the game's seq, status, finished_at, content_hash and updated_at
    event_columns = ("game", "seq", "type", "payload", "recorded_by", "recorded_at")


@functools.cache
def _append_sql(vendor: str) -> _AppendSql:
    q = _quote()
    game, ev = Game._meta, Event._meta
    return _AppendSql(
        insert=f"INSERT INTO {q(ev.db_table)} ({', '.join(_column(ev, c) for c in _AppendSql.event_columns)})",
        row=f"({', '.join(['%s'] * len(_AppendSql.event_columns))})",
        update=(
            f"UPDATE {q(game.db_table)} SET {_column(game, 'seq')} = %s, {_column(game, 'status')} = %s, "
            f"{_column(game, 'finished_at')} = %s, {_column(game, 'content_hash')} = %s, "
            f"{_column(game, 'updated_at')} = %s WHERE {q(game.pk.column)} = %s"
        ),
    )


def append_events(game: Game, start: int, events: list[dict], recorded_by: int | None, recorded_at) -> None:
    """Insert `events` as the game's rows seq start+1.. and write its head (`game.seq`, `status`,
    `finished_at`, `content_hash`, `updated_at` as the caller set them), under the caller's lock. Values are prepared by the
    model fields, so JSON and time zones are stored as the ORM stores them. bulk_create + save()
    cost about 0.3 ms more per append; on PostgreSQL both go in one statement (a data-modifying
    CTE: one round trip)."""
    connection = transaction.get_connection()
    sql = _append_sql(connection.vendor)
    prep_payload = Event._meta.get_field("payload").get_db_prep_save
    at = Event._meta.get_field("recorded_at").get_db_prep_save(recorded_at, connection)
    rows = [
        (
            game.pk,
            start + i + 1,
            event["type"],
            prep_payload({k: v for k, v in event.items() if k != "type"}, connection),
            recorded_by,
            at,
        )
        for i, event in enumerate(events)
    ]
    finished_at = Game._meta.get_field("finished_at").get_db_prep_save(game.finished_at, connection)
    updated_at = Game._meta.get_field("updated_at").get_db_prep_save(game.updated_at, connection)
    update_params = [game.seq, game.status, finished_at, game.content_hash, updated_at, game.pk]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(rows) <= INSERT_ROWS:
            values = ", ".join([sql.row] * len(rows))
            cursor.execute(
                f"WITH inserted AS ({sql.insert} VALUES {values}) {sql.update}",
                [x for row in rows for x in row] + update_params,
            )
        elif connection.vendor == "postgresql":
            # An import (up to services.MAX_IMPORT_EVENTS): multi-row INSERTs in seq order, in the
            # caller's transaction (a statement a row cost 5x more), then the head's update.
            for first in range(0, len(rows), INSERT_ROWS):
                part = rows[first : first + INSERT_ROWS]
                cursor.execute(
                    f"{sql.insert} VALUES {', '.join([sql.row] * len(part))}", [x for row in part for x in row]
                )
            cursor.execute(sql.update, update_params)
        else:
            cursor.executemany(f"{sql.insert} VALUES {sql.row}", rows)
            cursor.execute(sql.update, update_params)


def append_events_if_unchanged(
    game: Game,
    start: int,
    events: list[dict],
    recorded_by: int,
    recorded_at,
    *,
    row_version: str,
    roles: tuple[str, ...],
    without: type[models.Model],
) -> bool:
    """PostgreSQL, outside a transaction: `append_events`'s rows and head in one statement that
    writes only if the game row is still the version `row_version` that was read (so its seq is
    still `start`, and its header and status are those the batch was folded against), user
    `recorded_by` still has one of `roles` in its club, and no `without` row (a model with a
    one-to-one `game`: the online table, which this module does not import) names the game.
    Whether it wrote comes back; it writes nothing or everything (one statement in autocommit
    is its own transaction). The head's UPDATE takes the row's lock as the append's
    `SELECT ... FOR UPDATE` does: a writer that changed the row meanwhile is waited for, and
    then the version no longer matches (PostgreSQL re-reads the row: EvalPlanQual), so two
    appends at the same `expected_seq` store one batch. The event rows pass the table's triggers
    (the seq checks, append-only) as any insert does. Saves the transaction's three round trips
    (`BEGIN`, the lock, `COMMIT`) of the common append (docs/speed.md, "the append in one
    statement")."""
    connection = transaction.get_connection()
    prep_payload = Event._meta.get_field("payload").get_db_prep_save
    at = Event._meta.get_field("recorded_at").get_db_prep_save(recorded_at, connection)
    finished_at = Game._meta.get_field("finished_at").get_db_prep_save(game.finished_at, connection)
    updated_at = Game._meta.get_field("updated_at").get_db_prep_save(game.updated_at, connection)
    params: list = [game.seq, game.status, finished_at, game.content_hash, updated_at]
    params += [game.pk, start, row_version, recorded_by, *roles, recorded_by, at]
    for i, event in enumerate(events):
        params += [
            start + i + 1,
            event["type"],
            prep_payload({k: v for k, v in event.items() if k != "type"}, connection),
        ]
    other = (without._meta.db_table, without._meta.get_field("game").column)
    with connection.cursor() as cursor:
        cursor.execute(_append_if_unchanged_sql(len(roles), len(events), other), params)
        return cursor.rowcount > 0


@functools.cache
def _append_if_unchanged_sql(roles: int, rows: int, without: tuple[str, str]) -> str:
    connection = transaction.get_connection()
    q = connection.ops.quote_name
    game, ev, member = Game._meta, Event._meta, Membership._meta
    pk = f"g.{q(game.pk.column)}"
    # the VALUES are not the INSERT's own: their parameters need their types said
    cast = {name: ev.get_field(name).cast_db_type(connection) for name in ("seq", "type", "payload")}
    row = f"(%s::{cast['seq']}, %s::{cast['type']}, %s::{cast['payload']})"
    by, at = (ev.get_field(name).cast_db_type(connection) for name in ("recorded_by", "recorded_at"))
    columns = ", ".join(_column(ev, c) for c in _AppendSql.event_columns)
    return (
        f"WITH head AS (UPDATE {q(game.db_table)} g SET {_column(game, 'seq')} = %s, "
        f"{_column(game, 'status')} = %s, {_column(game, 'finished_at')} = %s, "
        f"{_column(game, 'content_hash')} = %s, {_column(game, 'updated_at')} = %s "
        f"WHERE {pk} = %s AND g.{_column(game, 'seq')} = %s AND g.xmin::text = %s "
        f"AND EXISTS (SELECT 1 FROM {q(member.db_table)} m WHERE m.{_column(member, 'club')} = "
        f"g.{_column(game, 'club')} AND m.{_column(member, 'user')} = %s "
        f"AND m.{_column(member, 'role')} IN ({', '.join(['%s'] * roles)})) "
        f"AND NOT EXISTS (SELECT 1 FROM {q(without[0])} o WHERE o.{q(without[1])} = {pk}) "
        f"RETURNING {pk} AS game) "
        f"INSERT INTO {q(ev.db_table)} ({columns}) "
        f"SELECT head.game, v.seq, v.type, v.payload, %s::{by}, %s::{at} FROM head "
        f"CROSS JOIN (VALUES {', '.join([row] * rows)}) AS v(seq, type, payload)"
    )


# --- a whole imported file's events (games.bulk_store) -------------------------------------------

#: (game id, seq, type, payload without its type) of one event row of the bulk import
EventRow = tuple[int, int, str, dict]


def insert_event_rows(rows: Iterable[EventRow], recorded_by: int | None, recorded_at: datetime.datetime) -> None:
    """Insert event rows of any games (each game's in seq order from its next seq: the trigger
    `games_event_seq_is_next` checks every game's stream), values prepared by the model fields as
    for `append_events`. The heads of the games are the caller's to move."""
    connection = transaction.get_connection()
    sql = _append_sql(connection.vendor)
    prep_payload = Event._meta.get_field("payload").get_db_prep_save
    at = Event._meta.get_field("recorded_at").get_db_prep_save(recorded_at, connection)
    params = [
        (game_id, seq, kind, prep_payload(payload, connection), recorded_by, at) for game_id, seq, kind, payload in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(f"{sql.insert} VALUES {sql.row}", params)


#: (game id, seq, type, payload without its type, recorded_by id, recorded_at) of an event as recorded
RecordedEventRow = tuple[int, int, str, dict, int | None, datetime.datetime]


def insert_recorded_events(rows: list[RecordedEventRow]) -> None:
    """Insert event rows each with its own recorder and time, as they were recorded (a club's
    archive, `games.clubs.archive`): values prepared by the model fields as for `append_events`,
    each game's rows in seq order from its next seq (the seq triggers check them). The ORM's
    raw `_insert` of the same rows cost about 0.2 ms a row to compile, half of an import's time."""
    if not rows:
        return
    connection = transaction.get_connection()
    sql = _append_sql(connection.vendor)
    prep_payload = Event._meta.get_field("payload").get_db_prep_save
    prep_at = Event._meta.get_field("recorded_at").get_db_prep_save
    params = [
        (game_id, seq, kind, prep_payload(payload, connection), by, prep_at(at, connection))
        for game_id, seq, kind, payload, by, at in rows
    ]
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.executemany(f"{sql.insert} VALUES {sql.row}", params)
            return
        for first in range(0, len(params), INSERT_ROWS):
            part = params[first : first + INSERT_ROWS]
            cursor.execute(f"{sql.insert} VALUES {', '.join([sql.row] * len(part))}", [x for row in part for x in row])


def insert_imported_events(games: list[tuple[Game, list[dict]]], recorded_at: datetime.datetime) -> None:
    """PostgreSQL: the events of imported games and their heads in one statement. Each game
    comes with its record's events; event i is stored as seq i (`type` its column, the rest its
    payload, as `append_events` stores it), and each game moves to `game.seq`, `status`,
    `finished_at` as the caller set them. The payloads go as one compact JSON text for the whole
    file ([[game id, [payload, ...], [type, ...]], ...], one C-encoder call), from which the
    server takes each payload's own text (json, not jsonb: json_array_elements gives an element's
    text as it is, which is what the column stores). Encoding every payload apart in Python and
    passing it by COPY cost the bulk import about 0.4 ms of Python a hand; the jsonb document of
    before cost the server a parse and an encoding per payload (docs/speed.md, "An archive's
    bytes"). The rows pass every trigger of the event table like any INSERT (the seq checks once
    per statement: games/migrations/0016); the game rows move in the same statement, so the
    statement trigger writes none of them again (0017)."""
    if not games:
        return
    connection = transaction.get_connection()
    prep = Game._meta.get_field("finished_at").get_db_prep_save
    at = Event._meta.get_field("recorded_at").get_db_prep_save(recorded_at, connection)
    documents = compact_json(
        [
            [game.pk, [{k: v for k, v in e.items() if k != "type"} for e in events], [e["type"] for e in events]]
            for game, events in games
        ]
    )
    heads = [
        [game.pk for game, _ in games],
        [game.seq for game, _ in games],
        [game.status for game, _ in games],
        [prep(game.finished_at, connection) for game, _ in games],
    ]
    with connection.cursor() as cursor:
        cursor.execute(_imported_events_sql(), [documents, at, *heads])


@functools.cache
def _imported_events_sql() -> str:
    q = _quote()
    game, ev = Game._meta, Event._meta
    columns = ", ".join(_column(ev, c) for c in _AppendSql.event_columns)
    # MATERIALIZED: each game's parts taken from the document once (a json value is text: an
    # inlined CTE read the game's id again for every event row, parsing its whole text each time)
    return (
        f"WITH records AS MATERIALIZED (SELECT (r.doc ->> 0)::bigint AS game, r.doc -> 1 AS payloads, "
        f"r.doc -> 2 AS types FROM json_array_elements(%s::json) AS r(doc)), "
        f"inserted AS (INSERT INTO {q(ev.db_table)} ({columns}) "
        f"SELECT r.game, e.n, e.type, e.payload::text, NULL, %s FROM records r "
        f"CROSS JOIN LATERAL ROWS FROM (json_array_elements(r.payloads), json_array_elements_text(r.types)) "
        f"WITH ORDINALITY AS e(payload, type, n)) "
        f"UPDATE {q(game.db_table)} g SET {_column(game, 'seq')} = h.seq, {_column(game, 'status')} = h.status, "
        f"{_column(game, 'finished_at')} = h.finished_at "
        f"FROM unnest(%s::bigint[], %s::integer[], %s::text[], %s::timestamptz[]) AS h(game, seq, status, finished_at) "
        f"WHERE g.{q(game.pk.column)} = h.game"
    )


# --- one moment's reads ------------------------------------------------------------------------


def snapshot_reads() -> None:
    """Make the current transaction, before its first query, read one snapshot (PostgreSQL's
    REPEATABLE READ, READ ONLY): a club's archive reads its tables one after another, and under
    the default READ COMMITTED a game appended to meanwhile would come without its new events.
    SQLite's transactions read one snapshot already (WAL): nothing to do there."""
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


# --- PostgreSQL helpers of the rating recompute ------------------------------------------------


def copy_rows(model: type[models.Model], columns: tuple[str, ...], rows: list[tuple]) -> None:
    """COPY `rows` (values in `columns` order, as the database takes them) into `model`'s table
    (PostgreSQL only; the recompute of 100,000 games writes its rating changes this way, several
    times faster than multi-row INSERTs)."""
    connection = transaction.get_connection()
    q = connection.ops.quote_name
    names = ", ".join(q(model._meta.get_field(c).column) for c in columns)
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {q(model._meta.db_table)} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def commit_without_wal_wait() -> None:
    """Let the current transaction's commit return before its WAL is flushed (PostgreSQL's
    `synchronous_commit = off` for this transaction only): for work that is re-runnable from what
    is stored, which a crash right after the commit may lose but never corrupt."""
    with transaction.get_connection().cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit TO OFF")


def rated_outcome_rows(outcome: type[models.Model], club_id: int, variant: str) -> list[dict]:
    """The rated outcomes of a (club, variant) rating pool in finishing order, as
    `values(*RATED_OUTCOME_FIELDS)` dicts (PostgreSQL only; the ratings' ORM read elsewhere):
    outcomes with hands, no refusal reason, of finished games, folded at the game's current seq.
    The six JSON columns come as one JSON array per row, one decode instead of five (the read
    is the largest Python cost of a 100,000-game recompute). `outcome` is the ratings' GameOutcome
    model (passed in: the records never import the ratings)."""
    connection = transaction.get_connection()
    q = connection.ops.quote_name
    o, g = outcome._meta, Game._meta
    col = lambda meta, name: q(meta.get_field(name).column)  # noqa: E731
    plain = ", ".join(f"o.{col(o, f)}" for f in ("game", "finished_at", "winner", "hands"))
    array = ", ".join(f"o.{col(o, f)}" for f in RATED_OUTCOME_JSON)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {plain}, json_build_array({array})::text FROM {q(o.db_table)} o "
            f"JOIN {q(g.db_table)} g ON g.{q(g.pk.column)} = o.{col(o, 'game')} AND g.{col(g, 'seq')} = o.{col(o, 'seq')} "
            f"AND g.{col(g, 'status')} = %s "
            f"WHERE o.{col(o, 'club')} = %s AND o.{col(o, 'variant')} = %s AND o.{col(o, 'reason')} = '' "
            f"AND o.{col(o, 'hands')} > 0 ORDER BY o.{col(o, 'finished_at')}, o.{col(o, 'game')}",
            [Game.Status.FINISHED, club_id, variant],
        )
        rows = cursor.fetchall()
    loads = json.loads
    out = []
    for game_id, finished_at, winner, hands, doc in rows:
        sides, totals, hand_points, calls, doubles, vp = loads(doc)
        out.append(
            {
                "game_id": game_id,
                "club_id": club_id,
                "variant": variant,
                "finished_at": finished_at,
                "sides": sides,
                "totals": totals,
                "winner": winner,
                "hands": hands,
                "hand_points": hand_points,
                "calls": calls,
                "doubles": doubles,
                "vp": vp,
            }
        )
    return out


#: the JSON columns of a rated outcome, in the order `rated_outcome_rows` decodes them
RATED_OUTCOME_JSON = ("sides", "totals", "hand_points", "calls", "doubles", "vp")
