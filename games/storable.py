"""JSON the database can store, checked in one place for the API's parser, the importers' file
reading and the services (the backstop for every other caller).

Python's `json` accepts values no column can hold: `1e400` parses as Infinity, `NaN`/`Infinity`
are accepted as words, `"\\udfff"` gives a lone surrogate (a str with no UTF-8 encoding), and NUL
characters are valid JSON that PostgreSQL's text and jsonb refuse. Each would fail at the insert
(a 500) or be stored and fail at the export.
"""
from __future__ import annotations

import json
import math
import re
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

#: A lone surrogate (no UTF-8 encoding) or a NUL character.
_BAD_CHAR = re.compile("[\ud800-\udfff\x00]")


class UnstorableJson(ValueError):
    """JSON text or a value the database cannot store; the message says what and where."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnstorableJson(f"the number {text} is out of range")
    return value


def _no_constant(word: str) -> float:
    raise UnstorableJson(f"{word} is not a JSON number")


def _string_problem(s: str) -> str | None:
    bad = _BAD_CHAR.search(s)
    if bad is None:
        return None
    char = bad.group()
    if char == "\x00":
        return "contains a NUL character (\\u0000), which cannot be stored"
    return f"contains a lone surrogate (\\u{ord(char):04x}): not a character, it has no UTF-8 encoding"


#: JSON text of a value, as compact as the database's (ensure_ascii=False keeps a lone surrogate
#: as itself; a NUL comes out escaped as \u0000, a non-finite float as NaN or Infinity): the C
#: encoder itself where there is one (json.dumps builds an encoder at every call)
if c_make_encoder is not None:
    _chunks = c_make_encoder(None, None, encode_basestring, None, ":", ",", False, False, True)

    def _text(value: Any) -> str:
        return "".join(_chunks(value, 0))
else:  # pragma: no cover - CPython has the C encoder
    _text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def problem(value: Any) -> str | None:
    """What in `value` (parsed JSON) cannot be stored, with its path; None when all of it can.

    First the whole value's JSON text is searched, at C speed, for what any problem leaves in it
    (an escaped NUL, NaN or Infinity, a lone surrogate, which has no UTF-8); a value whose text
    shows none has none (an import's record: the walk in Python cost a tenth of the bulk import).
    Anything else (a hit, which may be a harmless string, or a value json cannot write, or a
    circular one) takes the walk, which decides."""
    try:
        text = _text(value)
    except (TypeError, ValueError, RecursionError):
        return _walk(value)
    if "\\u0000" in text or "NaN" in text or "Infinity" in text:
        return _walk(value)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return _walk(value)
    return None


def _walk(value: Any) -> str | None:
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            why = _string_problem(item)
            if why:
                return f"{path or 'the value'} {why}"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"{path or 'the value'} is {item}: not a finite number"
        elif isinstance(item, dict):
            for key, child in item.items():
                why = _string_problem(key) if isinstance(key, str) else None
                if why:
                    return f"the key {key.encode('utf-8', 'backslashreplace').decode()!r} in {path or 'the object'} {why}"
                stack.append((child, f"{path}.{key}" if path else str(key)))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return None


def check(value: Any) -> Any:
    """`value` itself, or UnstorableJson saying what cannot be stored."""
    why = problem(value)
    if why is not None:
        raise UnstorableJson(why)
    return value


def loads(text: str) -> Any:
    """`json.loads` refusing what cannot be stored (UnstorableJson); other bad JSON raises
    json.JSONDecodeError as usual (both are ValueError)."""
    return check(json.loads(text, parse_float=_finite, parse_constant=_no_constant))
