"""``hand_corrected`` (games/engine/corrections.py): a director's correction of a finished hand is
an event on the game; the fold replaces the hand's line, adds the totals up again, decides the
game's end again, keeps what the line was and why, and an undo retracts it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, new_game, score_json

SEATS = ["Ann", "Bob", "Cid", "Dee"]


def _game(hands: int = 2):
    g = new_game("nanking", {"hands": hands}, players=SEATS)
    g.apply({"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 1, 2, 3], "points": [60, 40]})
    g.apply({"type": "hand_result", "calls": {}, "out": [1, 2, 0, 3], "points": [30, 70]})
    return g


def test_a_finished_game_takes_a_correction_and_its_score_follows():
    g = _game()
    assert g.over and score_json(g)["totals"] == [190, 110]
    g.apply({"type": "hand_corrected", "hand": 1, "calls": {"0": "tichu"}, "out": [0, 2], "reason": "double victory"})
    score = score_json(g)
    assert score["totals"] == [300 + 30, 70]
    assert score["hands"][0]["kind"] == "hand_corrected" and score["hands"][0]["points"] == [300, 0]
    assert g.history[0]["corrected"] == {"reason": "double victory", "was": [160, 40]}
    assert g.over and g.winner == 0


def test_a_correction_can_change_the_winner():
    g = _game()
    g.apply(
        {
            "type": "hand_corrected",
            "hand": 1,
            "calls": {"0": "tichu"},
            "out": [1, 0, 2, 3],
            "points": [60, 40],
            "reason": "Ann was not first out",
        }
    )
    assert score_json(g)["totals"] == [-40 + 30, 40 + 70] and g.winner == 1


def test_undo_retracts_the_correction():
    g = _game()
    g.apply({"type": "hand_corrected", "hand": 2, "out": [0, 1, 2, 3], "points": [50, 50], "reason": "miscount"})
    assert score_json(g)["totals"] == [210, 90]
    g.apply({"type": "undo"})
    assert score_json(g)["totals"] == [190, 110] and g.history[1]["kind"] == "hand_result"


def test_a_correction_in_a_target_game_can_reopen_it():
    g = new_game("nanking", {"target_score": 200}, players=SEATS)
    g.apply({"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 2]})
    assert g.over
    g.apply({"type": "hand_corrected", "hand": 1, "out": [0, 1, 2, 3], "points": [60, 40], "reason": "no double"})
    assert not g.over and score_json(g)["totals"] == [60, 40]
    g.apply({"type": "hand_result", "calls": {}, "out": [0, 2]})  # the game goes on
    assert g.over


@pytest.mark.parametrize(
    "event, code, rule",
    [
        ({"hand": 3, "out": [0, 1, 2, 3], "points": [50, 50], "reason": "x"}, "result_invalid", "correct_hand_number"),
        ({"hand": 0, "out": [0, 1, 2, 3], "points": [50, 50], "reason": "x"}, "result_invalid", "correct_hand_number"),
        ({"hand": 1, "out": [0, 1, 2, 3], "points": [50, 50], "reason": " "}, "malformed", "correct_reason"),
        ({"hand": 1, "out": [0, 1, 2, 3], "points": [55, 50], "reason": "x"}, "result_invalid", "result_points_sum"),
        ({"hand": 1, "out": [0, 1, 2, 3], "points": [50, 50]}, "malformed", "correct_reason"),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(event, code, rule):
    g = _game()
    before = score_json(g)
    with pytest.raises(EngineError) as err:
        g.apply({"type": "hand_corrected", **event})
    assert (err.value.code, err.value.params.get("rule")) == (code, rule)
    assert score_json(g) == before


def test_no_correction_while_a_hand_is_played():
    g = new_game("nanking", {"hands": 2}, players=SEATS)
    g.apply({"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [60, 40]})
    g.apply({"type": "shuffle", "seat": 0})
    with pytest.raises(EngineError) as err:
        g.apply({"type": "hand_corrected", "hand": 1, "out": [0, 1, 2, 3], "points": [50, 50], "reason": "x"})
    assert err.value.code == "wrong_phase"


def test_other_events_are_still_refused_after_the_end():
    g = _game()
    with pytest.raises(EngineError) as err:
        g.apply({"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [50, 50]})
    assert err.value.code == "game_over"


POINTS = st.integers(-5, 25).map(lambda k: 5 * k)


def _line(out, a) -> dict:
    """A hand_result's fields: no card points when the first two out are partners."""
    double = out[0] % 2 == out[1] % 2
    return {"calls": {}, "out": list(out)} if double else {"calls": {}, "out": list(out), "points": [a, 100 - a]}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.permutations(range(4)), POINTS), min_size=1, max_size=4), st.data())
def test_the_totals_are_always_the_sum_of_the_lines(hands, data):
    """Whatever hands are corrected, in whatever order: the totals are the score sheet's sum, and
    the corrected line is the one a hand_result of the same hand would have written."""
    g = new_game("nanking", {"hands": len(hands)}, players=SEATS)
    for out, a in hands:
        g.apply({"type": "hand_result", **_line(out, a)})
    for _ in range(data.draw(st.integers(1, 3))):
        number = data.draw(st.integers(1, len(hands)))
        out, a = data.draw(st.permutations(range(4))), data.draw(POINTS)
        g.apply({"type": "hand_corrected", "hand": number, **_line(out, a), "reason": "r"})
        alone = new_game("nanking", {"hands": 1}, players=SEATS)
        alone.apply({"type": "hand_result", **_line(out, a)})
        assert g.history[number - 1]["points"] == alone.history[0]["points"]
        score = score_json(g)
        assert score["totals"] == [sum(h["points"][i] for h in score["hands"]) for i in (0, 1)]


def test_a_hand_played_card_by_card_is_corrected_as_its_score_sheet_line():
    from games.engine import fold, random_record

    record = random_record(7, variant="nanking", options={"hands": 2})
    g = fold(record)
    shuffler = g.history[0]["shuffler"]
    g.apply({"type": "hand_corrected", "hand": 1, "out": [1, 0, 2, 3], "points": [30, 70], "reason": "r"})
    assert g.history[0]["points"] == [30, 70] and g.history[0]["shuffler"] == shuffler
    assert score_json(g)["totals"] == [30 + g.history[1]["points"][0], 70 + g.history[1]["points"][1]]
