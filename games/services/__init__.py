"""Writes: players, games and the event append (HackSoft-style services), one module an aggregate.

Every write runs in one transaction. The append locks the game row (select_for_update), so
writers to one game are serialised while other games proceed; the unique (game, seq) constraint
stays the backstop. Nothing is stored when a service raises.

- `errors`: the errors the API turns into coded answers, the engine's refusals in the request's
  language; `results`: what a write answers;
- `checks`: input checks shared by the writes; `idempotency`: Idempotency-Key replays;
- `players`: a club's players (clubs and memberships: `games.clubs.services`);
- `games`: a game created empty or imported whole; `events`: the append.

The names callers use are importable from `games.services` as before.
"""
from __future__ import annotations

from .checks import MAX_NAME_LENGTH, _check_events_shape, _check_storable
from .errors import (
    GameNotFound,
    IdempotencyKeyReused,
    InvalidInput,
    RuleViolation,
    SeqConflict,
    ServiceError,
    WriteForbidden,
    engine_reason,
    refusal_in_language,
    seat_names_of,
)
from .events import MAX_BATCH, append_events
from .games import (
    MAX_IMPORT_EVENTS,
    _new_state,
    _played_at,
    canonical_json,
    checked_import_events,
    game_create,
    game_import,
    import_hash,
)
from .idempotency import _fingerprint, _idempotent_replay, _idempotent_store, _with_idempotency, idempotent_write
from .players import player_create, players_for_names
from .results import WriteResult

__all__ = [
    "MAX_BATCH", "MAX_IMPORT_EVENTS", "MAX_NAME_LENGTH", "GameNotFound", "IdempotencyKeyReused", "InvalidInput",
    "RuleViolation", "SeqConflict", "ServiceError", "WriteForbidden", "WriteResult", "append_events", "game_create",
    "game_import", "idempotent_write", "import_hash", "player_create", "players_for_names",
    # the engine's refusals in the request's language (the API's answers, the tournaments' services)
    "engine_reason", "refusal_in_language", "seat_names_of",
    # package-private helpers the tournaments' services share (games.tournaments.services)
    "_check_events_shape", "_check_storable", "_fingerprint", "_idempotent_replay", "_idempotent_store",
    "_with_idempotency",
    # shared with the bulk import (games.bulk_store)
    "canonical_json", "checked_import_events", "_new_state", "_played_at",
]
