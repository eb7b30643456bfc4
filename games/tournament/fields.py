"""The fields each tournament event type allows (docs/tournament.md, "Events"), checked when an
event comes in.

What is appended is stored for ever, so an event coming in carries only its type's fields, its
texts within :data:`MAX_TEXT_CHARS`, its numbers finite and within :data:`NUMBER_LIMITS` (.limits)
and its pairing explanation within :data:`MAX_EXPLANATION_CHARS` of JSON. The fold does not apply this check: a stored history with extra fields (written before
the check existed) still loads and folds. A refusal is ``malformed`` with ``params["rule"]``
(``unknown_fields``, ``text_too_long``, ``explanation_too_large``, ``number_out_of_range``) so a caller can word it in its
reader's language.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .limits import MAX_CLOCK_MINUTES, MAX_ID, MAX_POINTS, MAX_ROUNDS, MAX_TABLE, MAX_VP
from .record import malformed

_RESULT = frozenset({"round", "table", "game", "hands", "score", "vp"})
_PAIRING = frozenset({"round", "tables", "byes"})

#: type -> the fields (besides ``type``) an event of that type may carry.
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "entry_registered": frozenset({"entry", "players", "name"}),
    "entry_withdrawn": frozenset({"entry", "reason"}),
    "entry_reentered": frozenset({"entry"}),
    "round_paired": _PAIRING | {"explanation"},
    "pairing_overridden": _PAIRING | {"reason"},
    # side: which side of the table sent or answers the result (0 or 1); none when the TD does
    "result_recorded": _RESULT | {"side"},
    "result_corrected": _RESULT | {"reason"},
    # hands: the lines the answer was given to (a table with a game: an answer stands for them)
    "result_confirmed": frozenset({"round", "table", "side", "hands"}),
    "result_disputed": frozenset({"round", "table", "reason", "side", "hands"}),
    "score_adjusted": frozenset({"entry", "vp", "points", "round", "reason"}),
    "round_shortened": frozenset({"round", "table", "hands", "reason"}),
    "round_closed": frozenset({"round"}),
    "lots_drawn": frozenset({"order"}),
    "tournament_finished": frozenset(),
    # started_at: the instant the TD started it, given by the service (the core has no clock)
    "round_clock_started": frozenset({"round", "minutes", "started_at"}),
}

#: the longest entry id, entry name, reason or string game id an event may carry
MAX_TEXT_CHARS = 200
_TEXT_FIELDS = ("entry", "name", "reason", "game", "started_at")
#: a pairing's explanation (what `propose` says about it) as JSON; a real one is far smaller
MAX_EXPLANATION_CHARS = 20_000
#: field -> the largest magnitude of any number in it (at any depth: a table list's numbers, a
#: hand line's points), so that every sum the standings make stays finite (.limits)
NUMBER_LIMITS: dict[str, int] = {
    "round": MAX_ROUNDS,
    "table": MAX_TABLE,
    "tables": MAX_TABLE,
    "players": MAX_ID,
    "hands": MAX_POINTS,
    "score": MAX_POINTS,
    "points": MAX_POINTS,
    "vp": MAX_VP,
    "minutes": MAX_CLOCK_MINUTES,
}


def check_incoming(event: dict[str, Any]) -> None:
    """Refuse (``malformed``) an event coming in with a field its type does not have, a text past
    :data:`MAX_TEXT_CHARS` or an explanation past :data:`MAX_EXPLANATION_CHARS`. An unknown type is
    left to the fold, which refuses it."""
    kind = event.get("type")
    allowed = EVENT_FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return
    unknown = sorted(str(k) for k in set(event) - allowed - {"type"})
    if unknown:
        raise malformed(
            f"{kind}: unknown field(s) {', '.join(unknown[:5])}; a {kind} has "
            f"{', '.join(sorted(allowed)) or 'no field but its type'}",
            rule="unknown_fields",
            type=kind,
            fields=unknown[:5],
            allowed=sorted(allowed),
        )
    for field in _TEXT_FIELDS:
        value = event.get(field)
        if field in allowed and isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            raise malformed(
                f"{kind}: {field!r} is at most {MAX_TEXT_CHARS} characters, not {len(value)}",
                rule="text_too_long",
                type=kind,
                field=field,
                limit=MAX_TEXT_CHARS,
                length=len(value),
            )
    for field, limit in NUMBER_LIMITS.items():
        if field in allowed and field in event:
            bad = _number_past(event[field], limit)
            if bad is not None:
                raise malformed(
                    f"{kind}: the numbers in {field!r} are finite and at most {limit} in size, not {bad}",
                    rule="number_out_of_range",
                    type=kind,
                    field=field,
                    limit=limit,
                    value=bad,
                )
    explanation = event.get("explanation")
    if explanation is not None:
        size = _json_size(explanation)
        if size is None or size > MAX_EXPLANATION_CHARS:
            raise malformed(
                f"{kind}: 'explanation' is a JSON object of at most {MAX_EXPLANATION_CHARS} characters",
                rule="explanation_too_large",
                type=kind,
                limit=MAX_EXPLANATION_CHARS,
            )


def _number_past(value: Any, limit: int, depth: int = 0) -> str | None:
    """The first number in ``value`` (a number, or lists and objects of them) that is not finite or
    whose magnitude passes ``limit``, written short; None when every one is within it. What is not
    a number is left to the fold's shape checks."""
    if isinstance(value, bool):
        return None
    if depth > 8:
        return "a value nested too deep"
    if isinstance(value, float):
        return None if math.isfinite(value) and abs(value) <= limit else f"{value:.6g}"
    if isinstance(value, int):
        if abs(value) <= limit:
            return None
        digits = len(str(abs(value)))  # JSON's ints are within Python's str limit
        return str(value) if digits <= 20 else f"a number of {digits} digits"
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        bad = _number_past(item, limit, depth + 1)
        if bad is not None:
            return bad
    return None


def _json_size(value: Any) -> int | None:
    """The length of ``value`` as JSON, or None when it is not an object (or too deep to write)."""
    if not isinstance(value, dict):
        return None
    try:
        return len(json.dumps(value, allow_nan=False))
    except (ValueError, TypeError, RecursionError):
        return None
