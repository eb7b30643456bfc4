"""Writes: players, games and the event append (HackSoft-style services), one module an aggregate.

Every write runs in one transaction. The append locks the game row (select_for_update), so
writers to one game are serialised while other games proceed; the unique (game, seq) constraint
stays the backstop. Nothing is stored when a service raises.

- `errors`: the errors the API turns into coded answers, the engine's refusals in the request's
  language; `results`: what a write answers;
- `checks`: the game writes' input checks;
- `players`: a club's players (clubs and memberships: `games.clubs.services`);
- `games`: a game created empty or imported whole; `events`: the append.

What every stream's writes share (the append's frame, Idempotency-Key replays, the shape, size and
storable checks, the errors, an import's content and "already imported" answer) is the stream
store's, games.streams. The names callers use are importable from `games.services` as before; no
name with a leading underscore is (tests/api/test_private_names.py).
"""

from __future__ import annotations

from games.streams.checks import check_storable
from games.streams.idempotency import idempotent_write
from games.streams.imports import canonical_json, import_hash

from .checks import MAX_NAME_LENGTH
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
    checked_import_events,
    game_create,
    game_import,
    new_game_state,
    record_played_at,
)
from .players import player_create, players_for_names
from .results import WriteResult

__all__ = [
    "MAX_BATCH",
    "MAX_IMPORT_EVENTS",
    "MAX_NAME_LENGTH",
    "GameNotFound",
    "IdempotencyKeyReused",
    "InvalidInput",
    "RuleViolation",
    "SeqConflict",
    "ServiceError",
    "WriteForbidden",
    "WriteResult",
    "append_events",
    "game_create",
    "game_import",
    "idempotent_write",
    "import_hash",
    "player_create",
    "players_for_names",
    # the engine's refusals in the request's language (the API's answers, the tournaments' services)
    "engine_reason",
    "refusal_in_language",
    "seat_names_of",
    # every write's storable check (the stream store's, games.streams.checks)
    "check_storable",
    # shared with the bulk import (games.bulk_store)
    "canonical_json",
    "checked_import_events",
    "new_game_state",
    "record_played_at",
]
