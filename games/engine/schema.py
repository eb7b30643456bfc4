"""The shape of each event: its fields and the JSON type each one holds (record-format.md section 3,
docs/tien-zi-que.md for Tien Zi Que's own events).

This is the one home of the event schema. Two checks read it:

- :func:`check_types`, run by the fold on every event: a field that is present holds its JSON type,
  so a wrongly typed field (``"phoenix": []``) is ``malformed``, never a crash inside a rule. A null
  counts as absent; whether a field is required, and which values it may take, stay the rules'.
- :func:`check_strict`, run where events come in (a record's parsing, an append): no field the
  schema does not list (the record format's extension point is the record's free-form ``meta``, not
  the events), and bounded sizes, so nothing arbitrary is stored for ever in an append-only log.
  Reading stored events does not run it: a record written before a field was refused still folds.
"""

from __future__ import annotations

import json
import json.encoder
from typing import Any, Callable, Iterable, Mapping

from .errors import EngineError

#: An event is at most this long as compact JSON. The largest real events are a Tien Zi Que
#: round_start (the whole deck, 361 characters) and a Grand Seigneur deal (under 150).
MAX_EVENT_CHARS = 2000
#: A penalty's ``reason`` names a breach (``missed_wish``): a word, not a comment.
MAX_TEXT_CHARS = 64


class FieldType:
    """What a field holds, in words (for the error message) and as a predicate on the JSON value.

    ``quick`` is the same test as a Python expression on ``v`` that holds for the usual values
    only (exact JSON types): :func:`compile_checks` inlines it, and asks ``accepts`` when it does
    not hold, so that the compiled check accepts and refuses exactly what ``accepts`` does."""

    __slots__ = ("key", "what", "accepts", "quick")

    def __init__(self, key: str, what: str, accepts: Callable[[Any], bool], quick: str = "False") -> None:
        self.key = key  # its name in a refusal's params (``field_type``), worded by wording.FIELD_TYPE_WORDS
        self.what = what
        self.accepts = accepts
        self.quick = quick


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(c, str) for c in v)


# ``"".join`` takes str instances only (subclasses too, as isinstance does) and raises TypeError
# on anything else: the quick test of a list of strings, at C speed.
SEAT = FieldType("seat", "a seat number", _int, "v.__class__ is int")
CARD = FieldType("card", "a card code", lambda v: isinstance(v, str), "v.__class__ is str")
CARDS = FieldType("cards", "a list of card codes", _str_list, "v.__class__ is list and all_str(v)")
RANK = FieldType("rank", 'a rank code such as "7" or "T"', lambda v: isinstance(v, str), "v.__class__ is str")
TEXT = FieldType("text", "a string", lambda v: isinstance(v, str), "v.__class__ is str")
# a push of one card per target (every exchange but Grand Seigneur's tribute) is an object of strings
PUSH = FieldType(
    "push",
    "an object from target seat to a card code or a list of card codes",
    lambda v: isinstance(v, dict) and all(isinstance(c, str) or _str_list(c) for c in v.values()),
    "v.__class__ is dict and all_str(v.values())",
)
CALLS = FieldType(
    "calls",
    'an object from seat to "tichu" or "grand_tichu"',
    lambda v: isinstance(v, dict) and all(isinstance(c, str) for c in v.values()),
    "v.__class__ is dict and all_str(v.values())",
)
SEATS = FieldType("seats", "a list of seat numbers", lambda v: isinstance(v, list) and all(_int(s) for s in v))
POINTS = FieldType("points", "a list of card points per team", lambda v: isinstance(v, list))
WHOLE = FieldType("whole", "a whole number", _int)
HANDS = FieldType(
    "hands",
    "a list of two lists of card codes",
    lambda v: isinstance(v, list) and all(_str_list(h) for h in v),
    # the usual value (Tien Zi Que's round_start: two hands); any other length asks ``accepts``
    "v.__class__ is list and len(v) == 2 and v[0].__class__ is list and v[1].__class__ is list"
    " and all_str(v[0]) and all_str(v[1])",
)

Schema = Mapping[str, Mapping[str, FieldType]]

#: The Tichu family (record-format.md section 3). ``dealer`` names a Threechu hand result's dealer.
FAMILY: Schema = {
    "shuffle": {"seat": SEAT},
    "draw": {"seat": SEAT, "card": CARD},
    "deal": {"seat": SEAT, "cards": CARDS},
    "grand_tichu": {"seat": SEAT},
    "tichu": {"seat": SEAT},
    "push": {"seat": SEAT, "cards": PUSH},
    "play": {"seat": SEAT, "cards": CARDS, "wish": RANK, "phoenix": RANK, "to": SEAT},
    "pass": {"seat": SEAT},
    "dragon_gift": {"seat": SEAT, "to": SEAT},
    "penalty": {"seat": SEAT, "reason": TEXT},
    "hand_result": {"calls": CALLS, "out": SEATS, "points": POINTS, "dealer": SEAT},
    # a finished hand's line replaced by a correction (corrections.py): hand_result's fields
    "hand_corrected": {"hand": WHOLE, "calls": CALLS, "out": SEATS, "points": POINTS, "dealer": SEAT, "reason": TEXT},
    "undo": {},
}

#: Tien Zi Que (docs/tien-zi-que.md).
TIEN_ZI_QUE: Schema = {
    "round_start": {"seat": SEAT, "hands": HANDS, "stock": CARDS},
    "draw": {"seat": SEAT, "card": CARD},
    "discard": {"seat": SEAT, "card": CARD},
    "pung": {"seat": SEAT, "cards": CARDS, "keep": CARD},
    "chow": {"seat": SEAT, "cards": CARDS, "keep": CARD, "take": CARD},
    "reshuffle": {"seat": SEAT, "stock": CARDS},
    # a whole round by its score line: the starter, the winner (absent: drawn), how, the points
    "round_result": {"seat": SEAT, "winner": SEAT, "by": TEXT, "points": WHOLE, "score_pile": CARDS},
    "undo": {},
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def event_kind(schema: Schema, event: Any) -> str:
    """The event's type, once it is an object whose ``type`` is one of the schema's."""
    if not isinstance(event, dict):
        raise EngineError(
            "malformed", f"an event must be an object, not {type(event).__name__}", params={"rule": "not_object"}
        )
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in schema:
        raise EngineError(
            "malformed", f"unknown event type {_shown(kind)}", params={"rule": "unknown_type", "type": _shown(kind)}
        )
    return kind


def check_types(schema: Schema, event: Any) -> str:
    """Check that each field present holds its JSON type; returns the event's type."""
    kind = event_kind(schema, event)
    for field, ftype in schema[kind].items():
        value = event.get(field)
        if value is not None and not ftype.accepts(value):
            raise EngineError(
                "malformed",
                f"{kind}: {field!r} must be {ftype.what}, not {_shown(value)}",
                params={"rule": "field_type", "event": kind, "field": field, "field_type": ftype.key},
            )
    return kind


def all_str(v: Iterable[Any]) -> bool:
    """Whether every item is a str (or a subclass): ``all(isinstance(c, str) for c in v)`` at C
    speed, by ``"".join``, which takes exactly those."""
    try:
        "".join(v)
    except TypeError:
        return False
    return True


def compile_checks(schema: Schema) -> dict[str, Callable[[dict[str, Any]], None]]:
    """Per event type, :func:`check_types` for an event already known to be a dict of that type,
    compiled once: the fold runs it on every event, so it is one generated function with the quick
    test of each field inline (no loop over the fields, no call per field). Any field whose quick
    test fails sends the event to :func:`check_types` itself, which gives the refusal (or accepts a
    value of an unusual but accepted type, such as a str subclass): the same answers exactly."""
    compiled: dict[str, Callable[[dict[str, Any]], None]] = {}
    for kind, fields in schema.items():
        lines = ["def check(event, all_str=all_str, _slow=_slow):", "    get = event.get"]
        for field, ftype in fields.items():
            lines.append(f"    v = get({field!r})")
            lines.append(f"    if v is not None and not ({ftype.quick}):")
            lines.append("        _slow(_schema, event)")
            lines.append("        return")
        if not fields:
            lines.append("    return")
        namespace: dict[str, Any] = {"all_str": all_str, "_slow": check_types, "_schema": schema}
        exec("\n".join(lines), namespace)  # the source is built above from the schema's own names
        compiled[kind] = namespace["check"]
    return compiled


#: the compact JSON of :func:`check_strict`'s size bound (``json.dumps(event, ensure_ascii=False,
#: separators=(",", ":"), default=repr)``), by the C encoder itself where there is one: json.dumps
#: builds an encoder at every call. No circular check here: a circular value ends in
#: RecursionError, and then check_strict gives its own answer.
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_event_chunks = (
    _c_make_encoder(None, repr, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    if _c_make_encoder is not None
    else None
)


def _event_json(event: Any) -> str:
    if _event_chunks is not None:
        return "".join(_event_chunks(event, 0))
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), default=repr)  # pragma: no cover


_STRICT: dict[int, tuple[Schema, Callable[[Any], str]]] = {}


def strict_check(schema: Schema) -> Callable[[Any], str]:
    """:func:`check_strict` for ``schema``, compiled once: the usual event (a dict of a known type,
    no field its type lacks, short texts) takes the compiled field check (:func:`compile_checks`)
    and one JSON encoding for its size; anything else, and any event that fails a step, goes to
    :func:`check_strict` itself, which gives the refusal: the same answers exactly, in the same
    order (the import runs it on every event)."""
    known = _STRICT.get(id(schema))
    if known is not None and known[0] is schema:
        return known[1]
    checks = compile_checks(schema)
    allowed = {kind: frozenset(fields) | {"type"} for kind, fields in schema.items()}
    texts = {kind: tuple(f for f, t in fields.items() if t is TEXT) for kind, fields in schema.items()}

    def strict(event: Any) -> str:
        kind: Any = event.get("type") if event.__class__ is dict else None
        check = checks.get(kind) if kind.__class__ is str else None
        if check is None or not allowed[kind].issuperset(event):
            return check_strict(schema, event)
        for field in texts[kind]:
            value = event.get(field)
            if value.__class__ is str and len(value) > MAX_TEXT_CHARS:
                return check_strict(schema, event)
        check(event)
        try:
            size = len(_event_json(event))
        except RecursionError:
            return check_strict(schema, event)
        if size > MAX_EVENT_CHARS:
            return check_strict(schema, event)
        return kind

    _STRICT[id(schema)] = (schema, strict)
    return strict


def check_strict(schema: Schema, event: Any) -> str:
    """What an event coming in must also be: only the fields of its type, a text field at most
    MAX_TEXT_CHARS long, the whole at most MAX_EVENT_CHARS of JSON. Returns the event's type."""
    kind = check_types(schema, event)
    fields = schema[kind]
    unknown = sorted(
        _shown(k) if not isinstance(k, str) or len(k) > 40 else repr(k)
        for k in event
        if k != "type" and k not in fields
    )
    if unknown:
        allowed = ", ".join(fields) if fields else "no field but its type"
        said = {"event": kind, "fields": ", ".join(unknown[:5])}
        raise EngineError(
            "malformed",
            f"{kind}: unknown field(s) {', '.join(unknown[:5])}; a {kind} has {allowed} (record-format.md section 3)",
            params={"rule": "unknown_fields", "allowed": allowed, **said}
            if fields
            else {"rule": "unknown_fields_none", **said},
        )
    for field, ftype in fields.items():
        value = event.get(field)
        if ftype is TEXT and isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            raise EngineError(
                "malformed",
                f"{kind}: {field!r} is at most {MAX_TEXT_CHARS} characters, not {len(value)}",
                params={
                    "rule": "text_too_long",
                    "event": kind,
                    "field": field,
                    "limit": MAX_TEXT_CHARS,
                    "given": len(value),
                },
            )
    size = len(json.dumps(event, ensure_ascii=False, separators=(",", ":"), default=repr))
    if size > MAX_EVENT_CHARS:
        raise EngineError(
            "malformed",
            f"{kind}: the event is {size} characters of JSON; an event is at most {MAX_EVENT_CHARS}",
            params={"rule": "event_too_big", "event": kind, "size": size, "limit": MAX_EVENT_CHARS},
        )
    return kind
