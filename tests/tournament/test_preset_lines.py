"""The preset decides the numbers (issue 31, item 2): a result's hand lines are lines a deal under
the tournament's rules can end with, the round's hands are all there unless the TD recorded a
short round, and VP are counted from the lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import new_game, score_json
from games.tournament import TournamentError, engine_options, fold, hand_lines, standings_json

from .play import register, with_events

HEADERS = {
    "dtm": {"scoring": "dtm", "rounds": 2},
    "round_vp": {"scoring": "round_vp", "rounds": 2},
    "duplicate": {"system": "duplicate", "scoring": "matchpoints", "hands_per_round": 2, "rounds": 1},
    "duplicate_gt": {
        "system": "duplicate",
        "scoring": "matchpoints",
        "hands_per_round": 2,
        "rounds": 1,
        "grand_tichu": True,
    },
}


def paired(header: dict, n: int = 4) -> dict:
    """Four pairs, round 1 paired (tables 1 and 2)."""
    record = {"header": {"entrants": "pairs", **header}, "events": register(n)}
    tables = [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}]
    record["events"].append({"type": "round_paired", "round": 1, "tables": tables, "byes": []})
    if header.get("system") == "duplicate":  # the movement decides the tables: take its pairing
        from games.tournament import propose

        record["events"][-1] = propose(fold({**record, "events": record["events"][:-1]})).event()
    return record


def result(hands, **kw) -> dict:
    return {"type": "result_recorded", "round": 1, "table": 1, "hands": hands, **kw}


def refusal(record: dict, *events) -> TournamentError:
    with pytest.raises(TournamentError) as info:
        fold(with_events(record, *events))
    return info.value


@st.composite
def scored_lines(draw, options: dict, count: int):
    """``count`` hands entered as score-sheet lines (calls, order out, card points) under the
    options, as the engine scores them, turned into tournament hand lines."""
    calls = (None, "tichu", "grand_tichu") if options.get("grand_tichu", True) else (None, "tichu")
    game = new_game("nanking", options)
    for _ in range(count):
        made = draw(st.tuples(*[st.sampled_from(calls)] * 4))
        out = draw(st.permutations([0, 1, 2, 3]))
        event = {"type": "hand_result", "calls": {str(s): c for s, c in enumerate(made) if c}, "out": list(out)}
        if out[0] % 2 != out[1] % 2:
            a = draw(st.integers(-5, 25)) * 5
            event["points"] = [a, 100 - a]
        game.apply(event)
    return hand_lines(score_json(game))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(HEADERS)), st.data())
def test_every_line_the_engine_scores_under_the_tournaments_rules_is_accepted(name, data):
    record = paired(HEADERS[name])
    state = fold(record)
    table = min(state.rounds[0].tables)
    lines = data.draw(scored_lines(engine_options(state.header), state.header["hands_per_round"]))
    event = {"type": "result_recorded", "round": 1, "table": table, "hands": lines}
    folded = fold(with_events(record, event))
    assert folded.rounds[0].tables[table].result["score"] == tuple(
        sum(line["points"][s] for line in lines) for s in (0, 1)
    )


@pytest.mark.parametrize(
    ("name", "line", "rule"),
    [
        ("dtm", [250, 50], "line_calls_no_grand"),  # only a Grand Tichu makes it; DTM has none
        ("dtm", [55, 40], "line_sum"),  # the two sides of a Tichu hand sum to a multiple of 100
        ("round_vp", [55, 40], "line_sum"),
        ("round_vp", [52, 48], "line_step"),
        ("round_vp", [650, 50], "line_calls"),
        ("dtm", {"points": [300, 0], "double_victory": 0}, "line_double_victory"),  # 100 + a Tichu at most
        ("round_vp", {"points": [150, 0], "double_victory": 0}, "line_double_victory"),  # a double victory is 200 here
    ],
)
def test_a_line_no_deal_makes_is_refused_in_words_with_the_rule_and_numbers(name, line, rule):
    record = paired(HEADERS[name])
    good = [[100, 0]] * 4
    err = refusal(record, result([good[0], line, *good[2:]]))
    assert err.code == "result_invalid" and err.params["rule"] == rule and err.params["hand"] == 2
    points = line["points"] if isinstance(line, dict) else line
    assert err.params["line"] == f"{points[0]}:{points[1]}" and f"{points[0]}:{points[1]}" in err.message
    assert err.message.startswith("hand 2: ")
    # the same checks for a correction
    fixed = with_events(record, result(good))
    assert (
        refusal(fixed, {**result([line, *good[1:]]), "type": "result_corrected", "reason": "x"}).params["rule"] == rule
    )


def test_250_50_passes_where_grand_tichu_is_played():
    record = paired(HEADERS["round_vp"])
    fold(with_events(record, result([[250, 50], [100, 0], [0, 100], [50, 50]])))


def test_a_round_with_the_wrong_number_of_hands_is_refused_unless_the_td_shortened_it():
    record = paired(HEADERS["dtm"])
    two = [[100, 0], [0, 100]]
    err = refusal(record, result(two))
    assert err.params == {"hands": 2, "hands_per_round": 4, "rule": "hand_count"}
    short = {"type": "round_shortened", "round": 1, "table": 1, "hands": 2, "reason": "time ran out"}
    state = fold(with_events(record, short, result(two)))
    assert state.rounds[0].tables[1].short == (2, "time ran out")
    rows = {r["entry"]: r for r in standings_json(state)["standings"]}
    assert rows["e0"]["vp"] == rows["e1"]["vp"] == 2
    assert refusal(record, short, result(two + [[100, 0]])).params["rule"] == "short_hand_count"
    # the other table still plays the whole round
    assert refusal(record, short, {**result(two), "table": 2}).params["rule"] == "hand_count"


@pytest.mark.parametrize(
    ("event", "code", "rule"),
    [
        ({"hands": 4}, "result_invalid", "short_not_shorter"),
        ({"hands": 0}, "malformed", "integer"),
        ({"reason": ""}, "reason_required", None),
    ],
)
def test_a_short_round_is_shorter_and_has_its_reason(event, code, rule):
    record = paired(HEADERS["dtm"])
    short = {"type": "round_shortened", "round": 1, "table": 1, "hands": 2, "reason": "time", **event}
    err = refusal(record, short)
    assert err.code == code and err.params.get("rule") == rule


def test_a_short_round_comes_before_the_result_in_an_open_round_of_a_round_with_hands():
    record = paired(HEADERS["dtm"])
    short = {"type": "round_shortened", "round": 1, "table": 1, "hands": 2, "reason": "time"}
    full = [[100, 0]] * 4
    assert refusal(record, result(full), short).params["rule"] == "short_after_result"
    closed = with_events(record, result(full), {**result(full), "table": 2}, {"type": "round_closed", "round": 1})
    assert refusal(closed, short).code == "round_closed"
    target = paired({"scoring": "box", "rounds": 2})
    assert refusal(target, short).params["rule"] == "short_no_hands"


def test_a_stored_stream_folds_whatever_its_lines_but_what_is_appended_is_checked():
    """A result stored before the line checks (55:40 here) still folds when the site reads the
    stored stream (`stored=True`): its pages must open. The state then checks what is appended."""
    good = [[100, 0]] * 3
    record = with_events(paired(HEADERS["round_vp"]), result([[55, 40], *good]))
    with pytest.raises(TournamentError):
        fold(record)
    state = fold(record, stored=True)
    assert state.rounds[0].tables[1].result is not None
    with pytest.raises(TournamentError) as refused:
        state.apply(result([[55, 40], *good], table=2))
    assert refused.value.code == "result_invalid"
    state.apply(result([[60, 40], *good], table=2))
