"""Writes: clubs, players, memberships, games and the event append (HackSoft-style services).

Every write runs in one transaction. The append locks the game row (select_for_update), so
writers to one game are serialised while other games proceed; the unique (game, seq) constraint
stays the backstop. Nothing is stored when a service raises.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from datetime import timezone as dt_timezone
from typing import Any, Callable

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine, selectors, snapshots, sql, storable
from games.models import Club, Game, GameSeat, IdempotencyKey, Membership, Player
from games.ratings import outbox as rating_outbox
from games.sql import _append_sql  # noqa: F401 - games.bulk_store (the bulk import) reads the append's SQL here

MAX_BATCH = 500  # events per append (docs/api.md); an import may carry a whole game
MAX_IMPORT_EVENTS = 20_000
MAX_NAME_LENGTH = 100


# --- errors the API turns into responses ---------------------------------------------------


class ServiceError(Exception):
    code = "invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    """A request the service cannot act on (400)."""

    def __init__(self, message: str, code: str = "invalid", params: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params or {}  # the engine's parameters of a refusal (docs/api.md "Errors")


class SeqConflict(ServiceError):
    """`expected_seq` is not the game's current seq (409)."""

    code = "seq_conflict"

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(f"expected_seq is {expected_seq} but the game is at seq {current_seq}")
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class RuleViolation(ServiceError):
    """The engine refused an event (422); `index` is its position in the batch (or record)."""

    def __init__(self, error: engine.EngineError, index: int | None) -> None:
        super().__init__(error.message)
        self.code = error.code
        self.error = error
        self.index = index


class GameNotFound(ServiceError):
    """No such game, or one the user may not see (404)."""

    code = "not_found"


class WriteForbidden(ServiceError):
    """The user may see the game but is not a scorer or admin of its club (403)."""

    code = "permission_denied"


class IdempotencyKeyReused(ServiceError):
    """The same Idempotency-Key came with a different request (422)."""

    code = "idempotency_key_reused"


@dataclass(frozen=True)
class WriteResult:
    body: dict[str, Any]
    replayed: bool = False
    created: bool = True  # False: nothing new was stored (content imported before): 200, not 201

    @property
    def status_code(self) -> int:
        return 201 if self.created else 200


# --- idempotency -------------------------------------------------------------------------------


def _fingerprint(operation: str, **request: Any) -> str:
    canonical = json.dumps({"operation": operation, **request}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotent_write(*, user, key: str | None, operation: str, request: dict[str, Any],
                     write: Callable[[], WriteResult]) -> WriteResult:
    """Run `write()` atomically; with an Idempotency-Key, a retry of the same `operation` and
    `request` replays the first answer and stores nothing twice (for writes outside this module:
    games.importing)."""
    fingerprint = _fingerprint(operation, **request) if key is not None else ""
    return _with_idempotency(user=user, key=key, fingerprint=fingerprint, write=write)


def _idempotent_replay(*, user, key: str, fingerprint: str) -> WriteResult | None:
    prior = IdempotencyKey.objects.filter(user=user, key=key).first()
    if prior is None:
        return None
    if prior.fingerprint != fingerprint:
        raise IdempotencyKeyReused("this Idempotency-Key was already used with a different request")
    return WriteResult(body=prior.response, replayed=True, created=prior.status_code == 201)


def _idempotent_store(*, user, key: str, fingerprint: str, body: dict, status_code: int = 201) -> None:
    IdempotencyKey.objects.create(user=user, key=key, fingerprint=fingerprint, status_code=status_code, response=body)


def _with_idempotency(*, user, key: str | None, fingerprint: str,
                      write: Callable[[], WriteResult | dict]) -> WriteResult:
    """Run `write()` in a transaction, remembering its answer under `key` in the same one.
    A concurrent first use of the same key loses on the unique constraint and replays.
    `write` returns a WriteResult, or the body of a 201 (a dict)."""

    def result_of_write() -> WriteResult:
        result = write()
        return result if isinstance(result, WriteResult) else WriteResult(body=result)

    if key is None:
        with transaction.atomic():
            return result_of_write()
    try:
        with transaction.atomic():
            replay = _idempotent_replay(user=user, key=key, fingerprint=fingerprint)
            if replay is not None:
                return replay
            result = result_of_write()
            _idempotent_store(user=user, key=key, fingerprint=fingerprint, body=result.body,
                              status_code=result.status_code)
            return result
    except IntegrityError:
        replay = _idempotent_replay(user=user, key=key, fingerprint=fingerprint)
        if replay is None:
            raise
        return replay


# --- players (clubs and memberships: games.clubs.services) ---------------------------------------------------------------


def _check_storable(value: Any, what: str) -> None:
    """Refuse up front (400), on every backend, what the database cannot store (NUL characters,
    lone surrogates, non-finite numbers: games.storable) rather than fail at the insert. The API's
    parser refuses them already; this is the backstop for the importers and other callers."""
    why = storable.problem(value)
    if why is not None:
        raise InvalidInput(f"{what}: {why}")


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise InvalidInput(f"a player name is a non-empty string of at most {MAX_NAME_LENGTH} characters")
    return name


def player_create(*, club: Club, name: str) -> Player:
    name = _check_name(name).strip()
    existing = selectors.player_named(club, name)
    if existing is not None:
        raise InvalidInput(f"{club} already has a player named {existing.name!r}", code="duplicate")
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=name)
    except IntegrityError:
        raise InvalidInput(f"{club} already has a player named {name!r}", code="duplicate") from None


def players_for_names(*, club: Club, names: list[str]) -> list[Player]:
    """The club's Player rows for these display names, in order, creating the new ones. A name
    names the roster's player whatever its case and surrounding spaces ("anna " is "Anna")."""
    players = []
    for name in names:
        name = _check_name(name).strip()
        player = selectors.player_named(club, name)
        if player is None:
            try:
                with transaction.atomic():
                    player = Player.objects.create(club=club, name=name)
            except IntegrityError:  # created by a concurrent request meanwhile
                player = selectors.player_named(club, name)
        players.append(player)
    return players


# --- games and events --------------------------------------------------------------------------


def _new_state(variant: str, options: dict | None, names: list[str]) -> engine.GameState:
    try:
        return engine.new_game(variant, options, players=names)
    except engine.EngineError as err:
        if err.code == "malformed":
            raise InvalidInput(err.message, code="malformed", params=err.params) from None
        raise RuleViolation(err, index=None) from None


def _create_game_rows(*, club: Club, variant: str, options, names: list[str], header: dict, user,
                      played_at=None, import_hash: str | None = None) -> Game:
    dated = {} if played_at is None else {"played_at": played_at}
    game = Game.objects.create(
        club=club, variant=variant, options=options, header=header, created_by=user, status=Game.Status.ACTIVE,
        import_hash=import_hash, **dated,
    )
    players = players_for_names(club=club, names=names)
    GameSeat.objects.bulk_create(GameSeat(game=game, seat=i, player=p) for i, p in enumerate(players))
    return game


def _game_body(game: Game) -> dict[str, Any]:
    return {"id": game.pk, "seq": game.seq, "status": game.status}


def game_create(
    *, club: Club, variant: str, options: dict | None, players: list[str], user, idempotency_key: str | None = None
) -> WriteResult:
    for name in players:
        _check_name(name)
    _check_storable([variant, options, players], "the game")
    state = _new_state(variant, options, players)

    def write() -> dict:
        game = _create_game_rows(
            club=club, variant=variant, options=options, names=players, header={"format": engine.FORMAT}, user=user
        )
        snapshots.cache_on_commit(game, [(0, state, True)])
        return WriteResult(body=_game_body(game))

    fingerprint = (_fingerprint("game_create", club=club.pk, variant=variant, options=options, players=players)
                   if idempotency_key is not None else "")
    return _with_idempotency(user=user, key=idempotency_key, fingerprint=fingerprint, write=write)


def _apply_batch(state: engine.GameState, start: int, events: list[dict]) -> list[snapshots.Snapshot]:
    """Apply `events` to `state` (the state after `start` events); the states worth caching once
    committed come back (snapshots.fold_appended). Raises RuleViolation with the index in `events`
    of the first refused event; `state` is then partly advanced and must be dropped."""
    try:
        return snapshots.fold_appended(state, start, events)
    except engine.EngineError as err:
        raise RuleViolation(err, index=(err.index or start) - start) from None


def _insert_events(*, game: Game, start: int, events: list[dict], state: engine.GameState, user) -> None:
    """Insert the event rows and move the game's seq, status and finished_at (under its lock), in
    one statement on PostgreSQL (games.sql.append_events)."""
    was_finished = game.status == Game.Status.FINISHED
    game.seq = start + len(events)
    game.status = Game.Status.FINISHED if state.is_over else Game.Status.ACTIVE
    game.finished_at = (game.finished_at or timezone.now()) if state.is_over else None
    user_id = user.pk if user is not None and user.is_authenticated else None
    sql.append_events(game, start, events, recorded_by=user_id, recorded_at=timezone.now())
    if state.is_over or was_finished:
        # finished, reopened by an undo, or changed while finished: the ratings must follow
        rating_outbox.record(game)


def _check_events_shape(events: Any, limit: int) -> None:
    if not isinstance(events, list):
        raise InvalidInput("events must be a list of event objects")
    if len(events) > limit:
        raise InvalidInput(f"at most {limit} events per request, got {len(events)}", code="batch_too_large")
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise InvalidInput(f"events[{i}] must be an object with a string 'type'")


def _check_incoming(variant: str, events: list[dict]) -> None:
    """Only the fields of each event's type, within the engine's size bounds (RuleViolation
    `malformed` with the index in the batch): what is stored stays for ever."""
    try:
        engine.check_incoming(variant, events)
    except engine.EngineError as err:
        raise RuleViolation(err, index=err.index) from None


def _lock_game_for_writer(game_id: int, user) -> Game:
    """Lock the game row (serialising writers to this game only) and check, in the same query,
    that `user` is a scorer or admin of its club."""
    locked = selectors.game_with_role(game_id, user, for_update=True)
    if locked is None or not selectors.is_visible(locked):
        raise GameNotFound("no such game")
    if locked.viewer_role not in Membership.WRITER_ROLES:
        raise WriteForbidden(f"recording games needs the scorer or admin role in club {locked.club.slug!r}")
    return locked


def _idempotency_scope(user, key: str | None):
    """Who an Idempotency-Key belongs to: the user, or for a table code (which has no account) the
    tournament's director, under a key derived from the code's id and the client's key."""
    owner = getattr(user, "idempotency_owner", None)
    if owner is None or key is None:
        return user, key
    td = owner()
    if td is None:
        return user, None  # a tournament without a director keeps no keys for its codes
    return td, f"table-code:{user.table_code.pk}:" + hashlib.sha256(key.encode()).hexdigest()


def append_events(
    *, game: Game | int, events: list[dict], expected_seq: int, idempotency_key: str | None = None, user
) -> WriteResult:
    """Append a batch atomically: all of it or nothing.

    Locks the game row (checking that `user` is a scorer or admin of its club), replays a remembered answer for a known Idempotency-Key, checks
    `expected_seq` (SeqConflict), folds the current state (cached snapshot or events), applies
    each event through the engine (RuleViolation with the batch index), inserts the rows and
    moves `game.seq` and `game.status` in the same transaction. When the game finishes, the
    rating task is queued on commit."""
    _check_events_shape(events, MAX_BATCH)
    if not events:
        raise InvalidInput("events must not be empty")
    _check_storable(events, "an event")
    game_id = game.pk if isinstance(game, Game) else game
    # only a retried request needs it (a hash over the whole batch: not on every append)
    fingerprint = (_fingerprint("append_events", game=game_id, expected_seq=expected_seq, events=events)
                   if idempotency_key is not None else "")
    key_owner, idempotency_key = _idempotency_scope(user, idempotency_key)
    with transaction.atomic():
        locked = _lock_game_for_writer(game_id, user)
        if idempotency_key is not None:
            replay = _idempotent_replay(user=key_owner, key=idempotency_key, fingerprint=fingerprint)
            if replay is not None:
                return replay
        if expected_seq != locked.seq:
            raise SeqConflict(expected_seq, locked.seq)
        # cards as typed ("ph", "10s") become their codes: the stored record is canonical
        events = [engine.canonical_event(e, locked.variant) for e in events]
        _check_incoming(locked.variant, events)
        state = snapshots.state_at(locked, locked.seq)
        kept = _apply_batch(state, locked.seq, events)
        start = locked.seq
        _insert_events(game=locked, start=start, events=events, state=state, user=user)
        record_write = getattr(user, "record_write", None)
        if record_write is not None:  # a table code: the write is recorded as made with it
            record_write(locked.pk, start + 1, start + len(events))
        body = {**_game_body(locked), "appended": len(events), "first_seq": start + 1}
        if idempotency_key is not None:
            _idempotent_store(user=key_owner, key=idempotency_key, fingerprint=fingerprint, body=body)
        snapshots.cache_on_commit(locked, kept, start, events)
    if isinstance(game, Game):
        game.seq, game.status, game.finished_at = locked.seq, locked.status, locked.finished_at
    return WriteResult(body=body)


def _played_at(record: dict) -> datetime | None:
    """The record's ``meta.played_at`` (ISO 8601; a date alone is midnight UTC, a time without
    offset is UTC), or None when it has none: the game is then dated by its import."""
    meta = record.get("meta")
    value = meta.get("played_at") if isinstance(meta, dict) else None
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00")) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None:
        raise InvalidInput(f"meta.played_at must be an ISO 8601 date or time, not {value!r}", code="malformed")
    return when if when.tzinfo is not None else when.replace(tzinfo=dt_timezone.utc)


def import_hash(record: dict) -> str:
    """The content of an imported record: SHA-256 of its canonical JSON (keys sorted, `meta`
    included: a tracker game's id or a log's game number tells two games with equal events apart)."""
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _already_imported(club: Club, content: str) -> WriteResult | None:
    game = Game.objects.filter(club=club, import_hash=content).first()
    if game is None:
        return None
    return WriteResult(body={**_game_body(game), "already_imported": True}, created=False)


def game_import(*, club: Club, record: Any, user, idempotency_key: str | None = None) -> WriteResult:
    """Store a whole record (section 1) as a new game in `club`. The record is checked by the
    engine first (malformed: InvalidInput; a refused event: RuleViolation with its index in
    `events`); the events are stored exactly as given, so that the export equals the record.

    Idempotent by content: a record the club imported before (`import_hash`) stores nothing and
    answers with the game already there (`already_imported`, `created` False), also when two
    imports of it race (the unique constraint decides; the loser answers with the winner's game)."""
    if not isinstance(record, dict):
        raise InvalidInput("a record is a JSON object", code="malformed")
    _check_storable(record, "the record")
    try:
        engine.parse_record(record, strict=True)
    except engine.EngineError as err:
        if err.code == "malformed":
            raise InvalidInput(err.message, code="malformed") from None
        raise RuleViolation(err, index=err.index) from None
    events = record.get("events", [])
    _check_events_shape(events, MAX_IMPORT_EVENTS)
    names = record["players"]
    variant, options = record["variant"], record.get("options")
    # Everything else at the top level (`format`, extensions, an explicit `"options": null`) is
    # kept verbatim for the export.
    header = {
        k: v
        for k, v in record.items()
        if k not in ("variant", "players", "events") and not (k == "options" and v is not None)
    }
    if "events" not in record:
        header[Game.OMITTED_EVENTS] = True
    played_at = _played_at(record)
    state = _new_state(variant, options, names)
    kept = _apply_batch(state, 0, events)

    content = import_hash(record)

    def write() -> WriteResult:
        existing = _already_imported(club, content)
        if existing is not None:
            return existing
        try:
            with transaction.atomic():
                game = _create_game_rows(club=club, variant=variant, options=options, names=names, header=header,
                                         user=user, played_at=played_at, import_hash=content)
        except IntegrityError:
            existing = _already_imported(club, content)  # a concurrent import of the same content won
            if existing is None:
                raise
            return existing
        if events:
            _insert_events(game=game, start=0, events=events, state=state, user=user)
        snapshots.cache_on_commit(game, kept, 0, events)
        return WriteResult(body=_game_body(game))

    fingerprint = _fingerprint("game_import", club=club.pk, record=record) if idempotency_key is not None else ""
    return _with_idempotency(user=user, key=idempotency_key, fingerprint=fingerprint, write=write)
