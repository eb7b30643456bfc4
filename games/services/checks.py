"""Input checks of the game writes (those of every stream's write: games.streams.checks): refused
up front (400/422), before anything is stored."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import engine

from .errors import InvalidInput, RuleViolation

MAX_NAME_LENGTH = 100


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise InvalidInput(
            _("a player name is a non-empty string of at most %(n)s characters") % {"n": MAX_NAME_LENGTH}
        )
    return name


def _check_incoming(variant: str, events: list[dict]) -> None:
    """Only the fields of each event's type, within the engine's size bounds (RuleViolation
    `malformed` with the index in the batch): what is stored stays for ever."""
    try:
        engine.check_incoming(variant, events)
    except engine.EngineError as err:
        raise RuleViolation(err, index=err.index) from None
