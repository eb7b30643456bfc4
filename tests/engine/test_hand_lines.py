"""Which hand lines a deal can end with (games.engine.hand_line_refusal), against what the engine
itself scores: every line a legal hand_result (or a played hand) scores is accepted, and a line
none of them produces is refused, with its rule and numbers."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    fold,
    hand_line_reachable,
    hand_line_refusal,
    new_game,
    paper_hand_line,
    random_game,
    score_json,
)
from games.engine.variants import NANKING

DTM = {"grand_tichu": False, "double_victory_points": 100, "keep_last_dragon_trick": True, "hands": 4}
OPTION_SETS = [
    {},
    DTM,
    {"grand_tichu": False},
    {"double_victory_points": 150},
    {"bsw_grand_tichu_quirk": "partner_grand"},
    {"bsw_grand_tichu_quirk": "both_grand", "double_victory_points": 100},
]
TEAM_OF = [0, 1, 0, 1]


def dv_side(line: dict) -> int | None:
    out = line["out"]
    return out[0] % 2 if len(out) >= 2 and out[0] % 2 == out[1] % 2 else None


def calls_of(made: tuple) -> dict[str, str]:
    return {str(s): c for s, c in enumerate(made) if c}


@st.composite
def hand_results(draw, options: dict):
    calls = (None, "tichu", "grand_tichu") if options.get("grand_tichu", True) else (None, "tichu")
    made = draw(st.tuples(*[st.sampled_from(calls)] * 4))
    out = draw(st.permutations([0, 1, 2, 3]))
    event = {"type": "hand_result", "calls": calls_of(made), "out": list(out)}
    if out[0] % 2 != out[1] % 2:
        a = draw(st.integers(-5, 25)) * 5
        event["points"] = [a, 100 - a]
    return event


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OPTION_SETS), st.data())
def test_every_line_a_hand_result_scores_is_accepted(options, data):
    event = data.draw(hand_results(options))
    game = new_game("nanking", options)
    game.apply(event)
    line = score_json(game)["hands"][0]
    assert hand_line_refusal(line["points"], dv_side(line), options) is None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([{}, {"grand_tichu": False, "double_victory_points": 100}]))
def test_every_line_of_a_played_game_is_accepted(seed, options):
    options = {**options, "hands": 2}  # hands played card by card by the bot: two a game keep it quick
    for line in score_json(fold(random_game(seed, options=options)))["hands"]:
        assert hand_line_reachable(line["points"], dv_side(line), options), line


def produced_lines(options: dict) -> set[tuple[int, int, int | None]]:
    """Every line the engine scores: each hand_result (calls, who goes out first and with whom,
    the card points) and each missed-wish penalty (variants.score_penalty), exhaustively."""
    calls = (None, "tichu", "grand_tichu") if options.get("grand_tichu", True) else (None, "tichu")
    lines = set()
    for made in itertools.product(calls, repeat=4):
        for first in range(4):
            for second in (first ^ 2, (first + 1) % 4):  # the partner (a double victory) or an opponent
                rest = [s for s in range(4) if s not in (first, second)]
                event = {"type": "hand_result", "calls": calls_of(made), "out": [first, second, *rest]}
                splits = [None] if second == first ^ 2 else [[a, 100 - a] for a in range(-25, 130, 5)]
                for points in splits:
                    game = new_game("nanking", options)
                    game.apply({**event, **({"points": points} if points else {})})
                    line = score_json(game)["hands"][0]
                    lines.add((*line["points"], dv_side(line)))
        said = {s: c for s, c in enumerate(made) if c}
        for offender in range(4):
            for out in ([], *([s] for s in range(4) if s != offender)):
                hand = SimpleNamespace(teams=((0, 2), (1, 3)), team_of=TEAM_OF, calls=said, out=out)
                lines.add((*NANKING.score_penalty(hand, offender, options)["points"], None))
    return lines


@pytest.mark.parametrize("options", [DTM, {}, {"bsw_grand_tichu_quirk": "partner_grand"}], ids=["dtm", "rio", "bsw"])
def test_a_line_is_accepted_exactly_when_the_engine_can_score_it(options):
    produced = produced_lines(options)
    grid = range(-700, 905, 5)
    for dv in (None, 0, 1):
        for a in grid:
            for b in range(-700, 905, 25):
                assert hand_line_reachable([a, b], dv, options) == ((a, b, dv) in produced), (a, b, dv)
    assert hand_line_reachable([102, -2], None, options) is False


@pytest.mark.parametrize(
    ("line", "dv", "options", "rule"),
    [
        ([250, 50], None, DTM, "line_calls"),  # only a Grand Tichu makes it
        ([55, 40], None, DTM, "line_sum"),
        ([55, 40], None, {}, "line_sum"),
        ([52, 48], None, {}, "line_step"),
        ([200, 0], 1, DTM, "line_double_victory"),
        ([300, 0], 0, DTM, "line_double_victory"),  # 100 + a Tichu at most under DTM
    ],
)
def test_impossible_lines_are_refused_with_their_rule_and_numbers(line, dv, options, rule):
    refusal = hand_line_refusal(line, dv, options)
    assert isinstance(refusal, EngineError) and refusal.code == "result_invalid"
    assert refusal.params["rule"] == rule and refusal.params["line"] == f"{line[0]}:{line[1]}"
    assert f"{line[0]}:{line[1]}" in refusal.message


def test_the_same_lines_pass_where_the_rules_allow_them():
    assert hand_line_reachable([250, 50], None, {})  # a Grand Tichu won, 50:50 in cards
    assert hand_line_reachable([300, 0], 0, {})  # 200 for the double victory and a Tichu
    assert hand_line_reachable([200, 0], 0, DTM)  # DTM's double victory is 100, and a Tichu
    assert not hand_line_reachable([200, 0], 0, {"double_victory_points": 150})


def test_a_bad_shape_is_refused_not_raised():
    for bad in ([1], "100:0", [True, 0], [1.5, 98.5]):
        assert hand_line_refusal(bad).params["rule"] == "line_shape"
    assert hand_line_refusal([100, 0], 2).params["rule"] == "line_shape"


def test_a_paper_hand_becomes_its_line_under_the_options():
    assert paper_hand_line(DTM, {"0": "tichu"}, [0, 1, 2, 3], [60, 40]) == {
        "points": [160, 40],
        "double_victory": None,
        "card_points": [60, 40],
    }
    assert paper_hand_line(DTM, {"1": "tichu"}, [3, 1], None) == {
        "points": [0, 0],
        "double_victory": 1,
        "card_points": [0, 100],
    }
    assert paper_hand_line({}, {"2": "grand_tichu"}, [2, 0], None)["points"] == [400, 0]
    with pytest.raises(EngineError) as err:
        paper_hand_line(DTM, {"0": "grand_tichu"}, [0, 2], None)
    assert err.value.params["rule"] == "no_grand_tichu"
    with pytest.raises(EngineError) as err:
        paper_hand_line(DTM, {}, [0, 1, 2, 3], [55, 40])
    assert err.value.params["rule"] == "result_points_sum"
