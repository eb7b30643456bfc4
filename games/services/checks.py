"""Input checks shared by the writes: refused up front (400/422), before anything is stored."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import engine, storable

from .errors import InvalidInput, RuleViolation

MAX_NAME_LENGTH = 100


def _check_storable(value: Any, what: str) -> None:
    """Refuse up front (400), on every backend, what the database cannot store (NUL characters,
    lone surrogates, non-finite numbers: games.storable) rather than fail at the insert. The API's
    parser refuses them already; this is the backstop for the importers and other callers.
    `what` is an English phrase marked with gettext_noop ("the game"), translated here with the
    problem's sentence, so the message is in the reader's language and costs nothing when all is well."""
    why = storable.problem_sentence(value)
    if why is not None:
        raise InvalidInput(_("%(what)s: %(why)s") % {"what": _(what), "why": why.render(_)})


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise InvalidInput(_("a player name is a non-empty string of at most %(n)s characters") % {"n": MAX_NAME_LENGTH})
    return name


def _check_events_shape(events: Any, limit: int) -> None:
    if not isinstance(events, list):
        raise InvalidInput(_("events must be a list of event objects"))
    if len(events) > limit:
        raise InvalidInput(_("at most %(limit)s events per request, got %(count)s") % {"limit": limit, "count": len(events)},
                           code="batch_too_large")
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise InvalidInput(_("events[%(i)s] must be an object with a string “type”") % {"i": i})


def _check_incoming(variant: str, events: list[dict]) -> None:
    """Only the fields of each event's type, within the engine's size bounds (RuleViolation
    `malformed` with the index in the batch): what is stored stays for ever."""
    try:
        engine.check_incoming(variant, events)
    except engine.EngineError as err:
        raise RuleViolation(err, index=err.index) from None
