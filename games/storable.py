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
from dataclasses import dataclass
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

#: A lone surrogate (no UTF-8 encoding) or a NUL character.
_BAD_CHAR = re.compile("[\ud800-\udfff\x00]")


def _(text: str) -> str:
    """Marks an English sentence for the site's catalogue (makemessages finds `_(...)` here too):
    this module stays free of Django, and the services translate the Problem it returns."""
    return text


@dataclass(frozen=True)
class Problem:
    """What cannot be stored, as a whole sentence with named placeholders (%(name)s) filled at
    rendering; a value may be a Problem of its own ("the value", "the object": a phrase)."""

    template: str
    values: dict

    def render(self, translate=lambda text: text) -> str:
        """`translate` the template (English by default) and fill it in."""
        filled = {k: v.render(translate) if isinstance(v, Problem) else v for k, v in self.values.items()}
        return translate(self.template) % filled

    def __str__(self) -> str:
        return self.render()


class UnstorableJson(ValueError):
    """JSON text or a value the database cannot store; the message says what and where (in
    English; `problem` is the same sentence for a message in the reader's language)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnstorableJson(Problem(_("the number %(number)s is out of range"), {"number": text}))
    return value


def _no_constant(word: str) -> float:
    raise UnstorableJson(Problem(_("%(word)s is not a JSON number"), {"word": word}))


def _string_problem(s: str) -> str | None:
    """The bad character of `s` (a NUL or a lone surrogate), None when all of it can be stored."""
    bad = _BAD_CHAR.search(s)
    return None if bad is None else bad.group()


def _escaped(char: str) -> str:
    return f"\\u{ord(char):04x}"


def _in_string(where: Any, char: str) -> Problem:
    if char == "\x00":
        return Problem(_("%(where)s contains a NUL character (\\u0000), which cannot be stored"), {"where": where})
    return Problem(
        _("%(where)s contains a lone surrogate (%(char)s): not a character, it has no UTF-8 encoding"),
        {"where": where, "char": _escaped(char)},
    )


def _in_key(key: str, where: Any, char: str) -> Problem:
    shown = repr(key.encode("utf-8", "backslashreplace").decode())
    if char == "\x00":
        return Problem(
            _("the key %(key)s in %(where)s contains a NUL character (\\u0000), which cannot be stored"),
            {"key": shown, "where": where},
        )
    return Problem(
        _(
            "the key %(key)s in %(where)s contains a lone surrogate (%(char)s): not a character, it has no "
            "UTF-8 encoding"
        ),
        {"key": shown, "where": where, "char": _escaped(char)},
    )


#: "the value" or "the object" where a problem has no path (the whole value is the string, the
#: float, or the object whose key is bad)
_THE_VALUE = Problem(_("the value"), {})
_THE_OBJECT = Problem(_("the object"), {})


#: JSON text of a value, as compact as the database's (ensure_ascii=False keeps a lone surrogate
#: as itself; a NUL comes out escaped as \u0000, a non-finite float as NaN or Infinity): the C
#: encoder itself where there is one (json.dumps builds an encoder at every call)
if c_make_encoder is not None:
    _chunks = c_make_encoder(None, None, encode_basestring, None, ":", ",", False, False, True)

    def _text(value: Any) -> str:
        return "".join(_chunks(value, 0))
else:  # pragma: no cover - CPython has the C encoder
    _encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

    def _text(value: Any) -> str:
        return _encoder.encode(value)


def problem(value: Any) -> str | None:
    """What in `value` (parsed JSON) cannot be stored, with its path, in English; None when all
    of it can (problem_sentence: the same as a Problem, for a message in the reader's language)."""
    found = problem_sentence(value)
    return None if found is None else str(found)


def problem_sentence(value: Any) -> Problem | None:
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


def _walk(value: Any) -> Problem | None:
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            bad = _string_problem(item)
            if bad:
                return _in_string(path or _THE_VALUE, bad)
        elif isinstance(item, float):
            if not math.isfinite(item):
                return Problem(
                    _("%(where)s is %(number)s: not a finite number"),
                    {"where": path or _THE_VALUE, "number": str(item)},
                )
        elif isinstance(item, dict):
            for key, child in item.items():
                bad = _string_problem(key) if isinstance(key, str) else None
                if bad:
                    return _in_key(key, path or _THE_OBJECT, bad)
                stack.append((child, f"{path}.{key}" if path else str(key)))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return None


def check(value: Any) -> Any:
    """`value` itself, or UnstorableJson saying what cannot be stored."""
    why = problem_sentence(value)
    if why is not None:
        raise UnstorableJson(why)
    return value


def loads(text: str) -> Any:
    """`json.loads` refusing what cannot be stored (UnstorableJson); other bad JSON raises
    json.JSONDecodeError as usual (both are ValueError)."""
    return check(json.loads(text, parse_float=_finite, parse_constant=_no_constant))
