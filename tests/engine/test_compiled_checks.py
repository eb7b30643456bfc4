"""The fold's field check is compiled once per event type (schema.compile_checks) for speed; it
must answer exactly as schema.check_types, the check it stands for: the same events accepted,
the same refusals with the same code and message. The ways in (append, legal check, import, CLI)
are tested with wrongly typed fields in tests/api/test_event_fuzz.py and test_event_shapes.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError
from games.engine.schema import FAMILY, TIEN_ZI_QUE, check_types, compile_checks
from tests.engine.event_fields import JSON_VALUES


class Code(str):
    """A str subclass: accepted by isinstance, missed by the compiled quick test."""


class Seat(int):
    """An int subclass that is not a bool: a seat number for isinstance."""


SCHEMAS = {"family": FAMILY, "tien-zi-que": TIEN_ZI_QUE}
COMPILED = {name: compile_checks(schema) for name, schema in SCHEMAS.items()}
#: JSON values, and values of subclasses that only Python callers can pass
VALUES = (
    JSON_VALUES
    | st.builds(Code, st.sampled_from(["5s", "7", "x"]))
    | st.builds(Seat, st.integers(0, 3))
    | st.lists(st.builds(Code, st.sampled_from(["5s", "Dragon"])), max_size=3)
)


def outcome(check, *args) -> tuple[str, str] | None:
    try:
        check(*args)
    except EngineError as err:
        return err.code, err.message
    return None


@settings(max_examples=1500, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(SCHEMAS)))
def test_the_compiled_check_answers_as_check_types(data, name):
    schema = SCHEMAS[name]
    kind = data.draw(st.sampled_from(sorted(schema)))
    event = {"type": kind}
    for field in schema[kind]:
        if data.draw(st.booleans()):
            event[field] = data.draw(VALUES)
    assert outcome(COMPILED[name][kind], event) == outcome(check_types, schema, event)


@pytest.mark.parametrize(
    "event, refused",
    [
        ({"type": "play", "seat": 0, "cards": ["5s"]}, False),
        ({"type": "play", "seat": True, "cards": ["5s"]}, True),
        ({"type": "play", "seat": Seat(1), "cards": [Code("5s")], "wish": Code("7")}, False),
        ({"type": "play", "seat": 0, "cards": ["5s", 5]}, True),
        ({"type": "play", "seat": 0, "cards": ("5s",)}, True),
        ({"type": "play", "seat": 0, "cards": ["5s"], "phoenix": []}, True),
        ({"type": "pass", "seat": 1.0}, True),
        ({"type": "push", "seat": 0, "cards": {"1": "5s", "2": ["6s"]}}, False),
        ({"type": "hand_result", "calls": {}, "out": [0, True], "points": [0, 0]}, True),
    ],
)
def test_the_compiled_check_by_hand(event, refused):
    got = outcome(COMPILED["family"][event["type"]], event)
    assert got == outcome(check_types, FAMILY, event)
    assert (got is not None) == refused
    if refused:
        assert got[0] == "malformed"


@settings(max_examples=300, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(SCHEMAS)))
def test_the_compiled_strict_check_answers_as_check_strict(data, name):
    """schema.strict_check (the import's check of every event coming in) against check_strict:
    unknown fields, texts past MAX_TEXT_CHARS, events past MAX_EVENT_CHARS, odd types and
    non-dict events included."""
    from games.engine.schema import MAX_TEXT_CHARS, check_strict, strict_check

    schema = SCHEMAS[name]
    kind = data.draw(st.sampled_from(sorted(schema) + ["nope", 5]))
    event = {"type": kind}
    for field in schema.get(kind, {}) if isinstance(kind, str) else {}:
        if data.draw(st.booleans()):
            event[field] = data.draw(
                VALUES
                | st.text(min_size=MAX_TEXT_CHARS - 1, max_size=MAX_TEXT_CHARS + 2)
                | st.lists(st.just("5s" * 40), min_size=20, max_size=30)
            )
    if data.draw(st.booleans()):
        event[data.draw(st.sampled_from(["extra", "seat", 3]))] = data.draw(VALUES)
    if data.draw(st.integers(0, 20)) == 0:
        event = data.draw(st.sampled_from([[event], "play", None]))
    strict = strict_check(schema)
    assert strict_check(schema) is strict
    assert outcome(strict, event) == outcome(check_strict, schema, event)
