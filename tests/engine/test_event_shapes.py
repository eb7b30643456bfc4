"""Events of the wrong shape are refused with EngineError("malformed") (or a rule's code), never
with a crash: the fields named by record-format.md section 3 may hold any JSON value at all.

The property tests fold bot-played games to a random point and apply a mangled event there: the
real next event with one field replaced by an arbitrary JSON value, or any event type with every
field arbitrary. Whatever the engine answers, it is EngineError with a code of section 5."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    CODES,
    EngineError,
    check_incoming,
    fold,
    parse_record,
    random_record,
    random_tzq_record,
    score_json,
)
from games.engine.cli import main as cli_main
from games.engine.schema import MAX_EVENT_CHARS
from tests.engine.event_fields import FAMILY_FIELDS, JSON_VALUES, TZQ_FIELDS

TABLES = [
    ("nanking", list("ABCD"), {}),
    ("tientsin", list("ABCDEF"), {}),
    ("threechu", list("ABC"), {}),
    ("grand-seigneur", list("ABCDEFGH"), {"decks": 2}),
]


def _records() -> list[dict]:
    records = [
        random_record(seed, variant=v, players=p, options=o, max_hands=1) for seed in (1, 2) for v, p, o in TABLES
    ]
    records.append(random_tzq_record(3, options={"rounds": 2}))
    return records


RECORDS = _records()


def assert_only_engine_errors(state, event) -> None:
    try:
        state.apply(event)
    except EngineError as err:
        assert err.code in CODES
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{type(exc).__name__}: {exc} on {event!r}")


def _state_at(record: dict, at: int):
    return fold(record, min(at, len(record["events"])))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(RECORDS) - 1), at=st.integers(0, 400), data=st.data())
def test_one_field_of_the_next_event_mangled_never_crashes(which, at, data):
    record = RECORDS[which]
    events = record["events"]
    at = min(at, len(events) - 1)
    state = _state_at(record, at)
    event = dict(events[at])
    fields = (TZQ_FIELDS if record["variant"] == "tien-zi-que" else FAMILY_FIELDS)[event["type"]] + ["type"]
    field = data.draw(st.sampled_from(fields))
    event[field] = data.draw(JSON_VALUES)
    assert_only_engine_errors(state, event)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(RECORDS) - 1), at=st.integers(0, 400), data=st.data())
def test_any_event_with_arbitrary_fields_never_crashes(which, at, data):
    record = RECORDS[which]
    state = _state_at(record, at)
    table = TZQ_FIELDS if record["variant"] == "tien-zi-que" else FAMILY_FIELDS
    kind = data.draw(st.sampled_from(sorted(table)))
    event = {"type": kind}
    for field in table[kind]:
        if data.draw(st.booleans()):
            event[field] = data.draw(JSON_VALUES)
    assert_only_engine_errors(state, event)


# --- the probe's cases, by hand ----------------------------------------------------------------


def _play_position() -> tuple[object, dict]:
    """A nanking state where seat `turn` leads, and its first legal single."""
    record = random_record(5, max_hands=1)
    for i, event in enumerate(record["events"]):
        if event["type"] == "play":
            return fold(record, i), event
    raise AssertionError("no play")


@pytest.mark.parametrize("field", ["phoenix", "wish", "to", "seat", "cards"])
@pytest.mark.parametrize("value", [[], {}, [1], {"a": 1}, 1.5, True])
def test_a_play_field_of_the_wrong_json_type_is_malformed(field, value):
    state, play = _play_position()
    with pytest.raises(EngineError) as info:
        state.apply({**play, field: value})
    assert info.value.code == "malformed", info.value
    assert field in info.value.message


@pytest.mark.parametrize("value", [[], {}, ["play"], 7, None])
def test_an_event_type_that_is_not_a_string_is_malformed(value):
    state, _ = _play_position()
    with pytest.raises(EngineError) as info:
        state.apply({"type": value, "seat": 0})
    assert info.value.code == "malformed"


def test_the_cli_exits_2_malformed_on_a_phoenix_list(tmp_path, capsys):
    record = random_record(5, max_hands=1)
    i = next(i for i, e in enumerate(record["events"]) if e["type"] == "play")
    record["events"][i] = {**record["events"][i], "phoenix": []}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert cli_main(["score", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["index"] == i and out["error"]["code"] == "malformed"


def test_a_push_to_a_unicode_digit_seat_is_refused_not_crashed():
    """'²'.isdigit() is true but int('²') raises: a target seat is ASCII digits."""
    rng = random.Random(0)
    record = random_record(rng.randrange(1000), max_hands=1)
    i = next(i for i, e in enumerate(record["events"]) if e["type"] == "push")
    state = fold(record, i)
    push = record["events"][i]
    cards = dict(push["cards"])
    first = sorted(cards)[0]
    cards["²"] = cards.pop(first)
    assert_only_engine_errors(state, {**push, "cards": cards})


# --- strict intake: no unknown field, bounded sizes (finding 8) ---------------------------------


def _first_of_each_type() -> list[tuple[dict, int]]:
    """(record, index) of the first event of each type found in the bot's games."""
    found: dict[str, tuple[dict, int]] = {}
    records = RECORDS + [random_record(7, options={"deal_method": "western"}, max_hands=1)]
    for record in records:
        for i, event in enumerate(record["events"]):
            found.setdefault(f"{record['variant']}:{event['type']}", (record, i))
    return sorted(found.values(), key=lambda ri: (ri[0]["variant"], ri[0]["events"][ri[1]]["type"]))


@pytest.mark.parametrize(
    "record, index", _first_of_each_type(), ids=lambda v: v["events"][0]["type"] if isinstance(v, dict) else str(v)
)
@pytest.mark.parametrize("extra", [{"comment": "nice play"}, {"Seat": 0}, {"x" * 1000: None}])
def test_an_unknown_field_in_any_event_is_refused_where_events_come_in(record, index, extra):
    events = list(record["events"][: index + 1])
    events[index] = {**events[index], **extra}
    with pytest.raises(EngineError) as info:
        parse_record({**record, "events": events}, strict=True)
    assert info.value.code == "malformed" and info.value.index == index
    assert "unknown field" in info.value.message and len(info.value.message) < 400
    with pytest.raises(EngineError) as info:
        check_incoming(record["variant"], events[index:], start=index)
    assert info.value.code == "malformed" and info.value.index == index
    # the real events pass, and stored events are still read as they were written
    parse_record({**record, "events": events[:index]}, strict=True)
    assert fold({**record, "events": events}).events_applied == index + 1


def test_undo_has_no_fields():
    with pytest.raises(EngineError, match="unknown field"):
        check_incoming("nanking", [{"type": "undo", "seat": 0}])


def test_a_penalty_reason_is_a_word_not_a_comment():
    check_incoming("nanking", [{"type": "penalty", "seat": 0, "reason": "missed_wish"}])
    with pytest.raises(EngineError, match="64"):
        check_incoming("nanking", [{"type": "penalty", "seat": 0, "reason": "x" * 65}])


def test_an_event_too_large_is_refused_before_the_rules_read_it():
    with pytest.raises(EngineError) as info:
        check_incoming("nanking", [{"type": "deal", "seat": 0, "cards": ["2s"] * 1000}])
    assert info.value.code == "malformed" and str(MAX_EVENT_CHARS) in info.value.message


def test_the_cli_refuses_an_unknown_field_with_exit_2(tmp_path, capsys):
    record = random_record(5, max_hands=1)
    record["events"][3] = {**record["events"][3], "comment": "x"}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert cli_main(["score", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["index"] == 3 and out["error"]["code"] == "malformed"


# --- fold() of a whole record tests the events' shape only when something is refused ------------


def _folded(record: dict, upto: int | None):
    try:
        state = fold(record, upto)
    except EngineError as err:
        return "refused", err.code, err.message, err.params, err.index
    return "folded", state.events_applied, json.dumps(score_json(state), sort_keys=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(RECORDS) - 1), data=st.data())
def test_folding_a_whole_record_refuses_as_checking_its_shape_first(which, data):
    """fold(record) leaves parse_record's test of every event's shape to its own loop and asks
    parse_record again only on a refusal: the same answer as fold(record, upto=len) (parse_record
    first, as ever), whatever comes first: a malformed event, a rule broken before or after it, a
    variant that is not a string."""
    record = RECORDS[which]
    events = list(record["events"])
    if data.draw(st.booleans()):  # an event of no shape (not an object, or a type that is no string)
        bad = data.draw(st.sampled_from([["pass"], "pass", None, 7, {"type": 7}, {"seat": 0}, {"type": None}]))
        events.insert(data.draw(st.integers(0, len(events))), bad)
    if data.draw(st.booleans()):  # a rule broken (a seat that does not exist)
        k = data.draw(st.integers(0, len(events) - 1))
        if isinstance(events[k], dict):
            events[k] = {**events[k], "seat": 99}
    mangled = {**record, "events": events}
    if data.draw(st.booleans()):
        mangled["variant"] = data.draw(st.sampled_from([5, None, "no-such-game"]))
    assert _folded(mangled, None) == _folded(mangled, len(events))
