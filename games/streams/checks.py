"""Input checks of every write to a stream: refused up front (400), before anything is stored."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import storable

from .errors import InvalidInput


def check_storable(value: Any, what: str) -> None:
    """Refuse up front (400), on every backend, what the database cannot store (NUL characters,
    lone surrogates, non-finite numbers: games.storable) rather than fail at the insert. The API's
    parser refuses them already; this is the backstop for the importers and other callers.
    `what` is an English phrase marked with gettext_noop ("the game"), translated here with the
    problem's sentence, so the message is in the reader's language and costs nothing when all is well."""
    why = storable.problem_sentence(value)
    if why is not None:
        raise InvalidInput(_("%(what)s: %(why)s") % {"what": _(what), "why": why.render(_)})


def check_events_shape(events: Any, limit: int) -> None:
    """A list of at most `limit` objects, each with a string `type` (what each type may carry is
    the stream's own check)."""
    if not isinstance(events, list):
        raise InvalidInput(_("events must be a list of event objects"))
    if len(events) > limit:
        raise InvalidInput(
            _("at most %(limit)s events per request, got %(count)s") % {"limit": limit, "count": len(events)},
            code="batch_too_large",
        )
    for i, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise InvalidInput(_("events[%(i)s] must be an object with a string “type”") % {"i": i})


def check_batch(events: Any, limit: int) -> None:
    """An append's batch: its shape and size, not empty, storable."""
    check_events_shape(events, limit)
    if not events:
        raise InvalidInput(_("events must not be empty"))
    check_storable(events, gettext_noop("an event"))
