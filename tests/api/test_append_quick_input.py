"""The append's body taken by exact-type tests (`EventsAppendInput.quick`, issue 35): for any
body, either None (the serializer then checks it and answers in its own words) or exactly the
serializer's `validated_data`; and the usual body is always taken the quick way."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.api.exceptions import ApiError
from games.api.serializers import EventsAppendInput
from games.services.events import MAX_BATCH

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=4)
)
values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6,
)
events = st.one_of(
    st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(["play", "pass", "shuffle"]), values)}, optional={"seat": values}
    ),
    values,
)
bodies = st.one_of(
    st.fixed_dictionaries(
        {
            "expected_seq": st.one_of(st.integers(-3, 10**6), values),
            "events": st.one_of(st.lists(events, max_size=4), values),
        },
        optional={"extra": values},
    ),
    values,
)


def serializer_answer(body):
    """The serializer's validated data, or None when it refuses the body (a ValidationError, or
    its own ApiError: unknown fields, a batch too large)."""
    serializer = EventsAppendInput(data=body)
    try:
        return serializer.validated_data if serializer.is_valid() else None
    except ApiError:
        return None


@settings(max_examples=400, deadline=None)
@given(bodies)
def test_quick_is_none_or_the_serializers_answer(body):
    quick = EventsAppendInput.quick(body)
    if quick is not None:
        assert quick == serializer_answer(body)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 10**6),
    st.lists(
        st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "pass", "shuffle"])}, optional={"seat": st.integers(0, 3)}
        ),
        min_size=1,
        max_size=5,
    ),
)
def test_a_valid_body_is_taken_the_quick_way(seq, batch):
    body = {"expected_seq": seq, "events": batch}
    assert EventsAppendInput.quick(body) == serializer_answer(body) == body


def test_what_the_quick_way_leaves_to_the_serializer():
    event = {"type": "pass", "seat": 1}
    for body in (
        {"expected_seq": True, "events": [event]},  # a bool is not a seq
        {"expected_seq": -1, "events": [event]},
        {"expected_seq": 0, "events": []},
        {"expected_seq": 0, "events": [event] * (MAX_BATCH + 1)},
        {"expected_seq": 0, "events": [{"seat": 1}]},
        {"expected_seq": 0, "events": [event], "extra": 1},
        {"events": [event]},
        [event],
    ):
        assert EventsAppendInput.quick(body) is None
        assert serializer_answer(body) is None
    assert (
        EventsAppendInput.quick({"expected_seq": 0, "events": [event]})["events"][0] is not event
    )  # a copy, as the serializer's
