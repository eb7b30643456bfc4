"""The errors of the game writes, each with the stable code the API answers with (games.api) (those
of every stream: games.streams.errors), and the engine's refusals in the request's language (what
the API and the tournaments' services say)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from django.utils.translation import get_language

from games import engine
from games.streams.errors import IdempotencyKeyReused, InvalidInput, SeqConflict, ServiceError

__all__ = [
    "GameNotFound",
    "IdempotencyKeyReused",
    "InvalidInput",
    "RuleViolation",
    "SeqConflict",
    "ServiceError",
    "WriteForbidden",
    "engine_reason",
    "refusal_in_language",
    "seat_names_of",
]


def seat_names_of(state: Any) -> list[str]:
    """What the site's pages call each seat of the game in ``state`` (its players in seat order,
    Threechu's dummy, named in the request's language; engine.seat_names): the names a refusal of
    that game is said with."""
    return engine.seat_names(state.variant.name, list(state.players), get_language())


def refusal_in_language(error: dict[str, Any], names: Sequence[str] = ()) -> str | None:
    """An engine refusal's words in the request's language, or None in English (the engine's own
    message stays) or without a template. Seats are named as the site's pages name them: by
    ``names``, the game's seat names (``seat_names_of``); a seat without one (no game yet, a
    record refused before its players are known) by the engine's word for a nameless seat, as the
    pages' script says it (static/shared/cards.js)."""
    lang = engine.words(get_language()).lang
    if lang == engine.words().lang:
        return None
    return engine.refusal_words(error, list(names), lang)


def engine_reason(error: engine.EngineError, names: Sequence[str] = ()) -> str:
    """What the engine refused, to quote in a service's own message: its words in the request's
    language (seats by ``names``), else its English message."""
    return refusal_in_language(error.as_dict(), names) or error.message


class Refusal(Protocol):
    """A pure core's coded refusal of an event: the engine's EngineError, or the tournament core's
    TournamentError (games.tournaments.services.TournamentRuleViolation)."""

    code: str
    message: str

    def as_dict(self) -> dict[str, Any]: ...


class RuleViolation(ServiceError):
    """The engine refused an event (422); `index` is its position in the batch (or record);
    `names` the game's seat names (`seat_names_of`), which its words name the seats by."""

    def __init__(self, error: engine.EngineError, index: int | None, names: Sequence[str] = ()) -> None:
        super().__init__(error.message)
        self.code = error.code
        self.error: Refusal = error
        self.index = index
        self.names = list(names)

    def in_language(self) -> str | None:
        """The refusal in the request's language, or None to keep its English message."""
        return refusal_in_language(self.error.as_dict(), self.names)


class GameNotFound(ServiceError):
    """No such game, or one the user may not see (404)."""

    code = "not_found"


class WriteForbidden(ServiceError):
    """The user may see the game but is not a scorer or admin of its club (403)."""

    code = "permission_denied"
