"""The fold's field check is compiled once per event type (schema.compile_checks) for speed; it
must answer exactly as schema.check_types, the check it stands for: the same events accepted,
the same refusals with the same code and message. The ways in (append, legal check, import, CLI)
are tested with wrongly typed fields in tests/api/test_event_fuzz.py and test_event_shapes.py."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

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
VALUES = JSON_VALUES | st.builds(Code, st.sampled_from(["5s", "7", "x"])) | st.builds(Seat, st.integers(0, 3)) \
    | st.lists(st.builds(Code, st.sampled_from(["5s", "Dragon"])), max_size=3)


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


@pytest.mark.parametrize("event, refused", [
    ({"type": "play", "seat": 0, "cards": ["5s"]}, False),
    ({"type": "play", "seat": True, "cards": ["5s"]}, True),
    ({"type": "play", "seat": Seat(1), "cards": [Code("5s")], "wish": Code("7")}, False),
    ({"type": "play", "seat": 0, "cards": ["5s", 5]}, True),
    ({"type": "play", "seat": 0, "cards": ("5s",)}, True),
    ({"type": "play", "seat": 0, "cards": ["5s"], "phoenix": []}, True),
    ({"type": "pass", "seat": 1.0}, True),
    ({"type": "push", "seat": 0, "cards": {"1": "5s", "2": ["6s"]}}, False),
    ({"type": "hand_result", "calls": {}, "out": [0, True], "points": [0, 0]}, True),
])
def test_the_compiled_check_by_hand(event, refused):
    got = outcome(COMPILED["family"][event["type"]], event)
    assert got == outcome(check_types, FAMILY, event)
    assert (got is not None) == refused
    if refused:
        assert got[0] == "malformed"
