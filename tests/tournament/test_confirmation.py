"""The opponents confirm or dispute a table's result; a confirmed result changes only by the TD's
correction, a disputed one keeps the round open until the TD corrects it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import TournamentError, fold, propose
from games.tournament.standings import rounds_json

from .play import header, register, with_events

CONFIRM = {"type": "result_confirmed", "round": 1, "table": 1}
DISPUTE = {"type": "result_disputed", "round": 1, "table": 1, "reason": "hand 3 was 60:40"}
CORRECT = {"type": "result_corrected", "round": 1, "table": 1, "score": [250, 150], "reason": "sheet checked"}


@pytest.fixture
def one_result():
    """Four pairs, round 1 paired, table 1 has a result."""
    record = {"header": header(rounds=2), "events": register(4)}
    record["events"].append(propose(fold(record)).event())
    record["events"].append({"type": "result_recorded", "round": 1, "table": 1, "score": [300, 100]})
    return record


def table_row(record, table=1):
    return next(t for t in rounds_json(fold(record))["rounds"][0]["tables"] if t["table"] == table)


def refused(record, event, code):
    state = fold(record)
    before = rounds_json(state)
    with pytest.raises(TournamentError) as info:
        state.apply(event)
    assert info.value.code == code, info.value
    assert rounds_json(state) == before, "a refusal changes nothing"
    return info.value


def test_a_new_result_is_unconfirmed_then_confirmed(one_result):
    assert table_row(one_result)["confirmation"] == "unconfirmed"
    confirmed = with_events(one_result, CONFIRM)
    assert table_row(confirmed)["confirmation"] == "confirmed"
    refused(confirmed, CONFIRM, "result_confirmed")
    refused(confirmed, DISPUTE, "result_confirmed")
    refused(confirmed, {"type": "result_recorded", "round": 1, "table": 1, "score": [1, 2]}, "result_exists")
    corrected = with_events(confirmed, CORRECT)
    row = table_row(corrected)
    assert row["confirmation"] == "corrected" and row["result"]["score"] == [250, 150]
    refused(corrected, CONFIRM, "result_corrected")


def test_a_dispute_needs_a_reason_and_holds_the_round_until_corrected(one_result):
    refused(one_result, {**DISPUTE, "reason": " "}, "reason_required")
    disputed = with_events(one_result, DISPUTE)
    row = table_row(disputed)
    assert row["confirmation"] == "disputed" and row["dispute_reason"] == "hand 3 was 60:40"
    refused(disputed, CONFIRM, "result_disputed")
    other = {"type": "result_recorded", "round": 1, "table": 2, "score": [200, 200]}
    err = refused(with_events(disputed, other), {"type": "round_closed", "round": 1}, "results_disputed")
    assert err.params["tables"] == [1]
    closed = with_events(disputed, other, CORRECT, {"type": "round_closed", "round": 1})
    assert fold(closed).rounds[0].closed


def test_nothing_to_confirm_and_closed_rounds(one_result):
    refused(one_result, {**CONFIRM, "table": 2}, "no_result")
    refused(one_result, {**CONFIRM, "table": 7}, "table_not_in_round")
    refused(one_result, {**CONFIRM, "table": "1"}, "malformed")
    done = with_events(
        one_result,
        {"type": "result_recorded", "round": 1, "table": 2, "score": [200, 200]},
        {"type": "round_closed", "round": 1},
    )
    refused(done, CONFIRM, "round_closed")


def test_confirmation_survives_an_override_that_keeps_the_table(one_result):
    confirmed = with_events(one_result, CONFIRM)
    paired = confirmed["events"][4]
    override = {
        "type": "pairing_overridden",
        "round": 1,
        "tables": paired["tables"],
        "byes": paired["byes"],
        "reason": "same seats",
    }
    assert table_row(with_events(confirmed, override))["confirmation"] == "confirmed"


# --- the other side answers (issue 30, finding 5) ----------------------------------------------


def recorded_by_side(side):
    record = {"header": header(rounds=2), "events": register(4)}
    record["events"].append(propose(fold(record)).event())
    record["events"].append({"type": "result_recorded", "round": 1, "table": 1, "score": [300, 100], "side": side})
    return record


@pytest.mark.parametrize("side", [0, 1])
def test_the_side_that_sent_a_result_neither_confirms_nor_disputes_it(side):
    record = recorded_by_side(side)
    err = refused(record, {**CONFIRM, "side": side}, "same_side")
    assert (err.params["round"], err.params["table"], err.params["side"]) == (1, 1, side)
    refused(record, {**DISPUTE, "side": side}, "same_side")
    assert table_row(with_events(record, {**CONFIRM, "side": 1 - side}))["confirmation"] == "confirmed"
    assert table_row(with_events(record, {**DISPUTE, "side": 1 - side}))["confirmation"] == "disputed"
    assert table_row(with_events(record, CONFIRM))["confirmation"] == "confirmed", "the TD's word (no side)"


def test_a_result_sent_by_the_td_is_answered_by_either_side(one_result):
    for side in (0, 1):
        assert table_row(with_events(one_result, {**CONFIRM, "side": side}))["confirmation"] == "confirmed"


def test_a_correction_forgets_which_side_sent_the_result():
    record = with_events(recorded_by_side(0), {**CORRECT})
    refused(record, {**CONFIRM, "side": 1}, "result_corrected")  # the TD's word needs no answer
    again = with_events(recorded_by_side(0), {**DISPUTE, "side": 1}, CORRECT)
    assert table_row(again)["confirmation"] == "corrected"


@pytest.mark.parametrize("bad", [2, -1, "0", True, 0.0])
def test_a_side_is_0_or_1(bad):
    record = recorded_by_side(0)
    refused(record, {**CONFIRM, "side": bad}, "malformed")
    state = fold({"header": header(rounds=2), "events": register(4)})
    state.apply(propose(state).event())
    with pytest.raises(TournamentError) as info:
        state.apply({"type": "result_recorded", "round": 1, "table": 1, "score": [300, 100], "side": bad})
    assert info.value.code == "malformed"


ANSWER = st.sampled_from(["record", "confirm", "dispute", "correct"])
SIDE = st.sampled_from([None, 0, 1])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(ANSWER, SIDE), max_size=8))
def test_no_side_ever_answers_the_result_it_sent(steps):
    """Property: whatever events come, in whatever order, every confirmation or dispute the fold
    accepts comes from the TD (no side) or from the side that did not send the result it answers."""
    record = {"header": header(rounds=2), "events": register(4)}
    record["events"].append(propose(fold(record)).event())
    state = fold(record)
    where = {"round": 1, "table": 1}
    sender = None  # who sent the standing result, kept here from the accepted events alone
    for kind, side in steps:
        said = {} if side is None else {"side": side}
        event = {
            "record": {"type": "result_recorded", **where, "score": [300, 100], **said},
            "confirm": {**CONFIRM, **said},
            "dispute": {**DISPUTE, **said},
            "correct": CORRECT,
        }[kind]
        try:
            state.apply(event)
        except TournamentError as err:
            if kind in ("confirm", "dispute") and side is not None and side == sender:
                assert err.code in ("same_side", "result_confirmed", "result_disputed", "result_corrected")
            continue
        if kind in ("confirm", "dispute"):
            assert side is None or side != sender, (steps, event)
        elif kind == "record":
            sender = side
        else:
            sender = None
