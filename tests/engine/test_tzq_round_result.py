"""Tien Zi Que's score-line entry (`round_result`, games/engine/tien_zi_que/round_result.py): a
round entered by its score line and folded scores what the line says; every refusal is coded and
names the field a form points at; the reachable totals agree with the book's table."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    check_events,
    check_incoming,
    entry_facts,
    fold,
    new_game,
    random_tzq_record,
    score_json,
    secret_from,
    state_json,
)
from games.engine.tien_zi_que import random_deck, score_pile
from games.engine.tien_zi_que.round_result import reachable_points

PLAYERS = ["Ann", "Bob"]


def line(seat, winner=None, by=None, points=None, pile=None):
    event = {"type": "round_result", "seat": seat}
    for key, value in (("winner", winner), ("by", by), ("points", points), ("score_pile", pile)):
        if value is not None:
            event[key] = value
    return event


def refusal(state, event):
    result = check_events(state, [event])
    assert not result["ok"], event
    return result["error"]


@st.composite
def piles(draw):
    """A random edition's deck and five cards of it: some pile a winner could hold."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    deck = random_deck(rng)
    return rng.sample(deck, 5)


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(
        st.tuples(st.sampled_from([0, 1]), st.sampled_from(["pung", "chow"]), st.integers(0, 10**6)),
        min_size=4,
        max_size=4,
    )
)
def test_points_entered_and_folded_give_the_score_they_state(lines):
    game = new_game("tien-zi-que", players=PLAYERS)
    stated = [0, 0]
    for number, (winner, by, pick) in enumerate(lines):
        possible = sorted(reachable_points(by))
        points = possible[pick % len(possible)]
        game.apply(line(number % 2, winner, by, points))  # starts alternate: seat 0, 1, 0, 1
        stated[winner] += points
        sheet = score_json(game)["hands"][-1]
        assert sheet["points"][winner] == points and sheet["points"][1 - winner] == 0
        assert sheet["winner"] == winner and sheet["by"] == by and sheet["kind"] == "round_result"
    doc = score_json(game)
    assert doc["totals"] == stated and doc["complete"] is True
    assert doc["winner"] == (0 if stated[0] > stated[1] else 1 if stated[1] > stated[0] else None)


@settings(max_examples=80, deadline=None)
@given(pile=piles(), winner=st.sampled_from([0, 1]), by=st.sampled_from(["pung", "chow"]))
def test_a_score_pile_is_scored_by_the_book_and_its_total_is_reachable(pile, winner, by):
    game = new_game("tien-zi-que", players=PLAYERS)
    total, _ = score_pile(pile, winning_draw=by == "pung")
    assert total in reachable_points(by)  # the points-only check never refuses a real pile's score
    game.apply(line(0, winner, by, pile=pile))
    assert score_json(game)["hands"][0]["points"][winner] == total
    # the same line with its points stated is accepted, with other points refused, coded
    other = new_game("tien-zi-que", players=PLAYERS)
    assert check_events(other, [line(0, winner, by, total, pile)]) == {"ok": True}
    error = refusal(other, line(0, winner, by, total + 1, pile))
    assert error["code"] == "result_invalid" and error["params"]["field"] == "points"
    assert (error["params"]["expected"], error["params"]["given"]) == (total, total + 1)  # its words' numbers


def test_the_book_example_by_its_pile_and_by_its_points():
    game = new_game("tien-zi-que", players=PLAYERS)
    game.apply(line(0, 1, "chow", pile=["Ew", "Eb", "Jk", "Jk", "Jk"]))  # the book: +9
    hand = score_json(game)["hands"][0]
    assert hand["points"] == [0, 9]
    assert {s["name"] for s in hand["scoring"]} == {"characters", "pair", "sparrow_emperor"}
    game.apply(line(1, 0, "pung", 10))  # the same pile won by a Pung: +1
    assert score_json(game)["totals"] == [10, 9]


def test_unreachable_points_are_refused_with_the_nearest_possible():
    game = new_game("tien-zi-que", players=PLAYERS)
    error = refusal(game, line(0, 0, "chow", 19))
    assert error["code"] == "result_invalid" and error["params"]["field"] == "points"
    assert "18 or 20" in error["message"]
    assert refusal(game, line(0, 0, "pung", 0))["code"] == "result_invalid"  # a Pung's Mah-jong scores 1 at least
    assert check_events(game, [line(0, 0, "pung", 1)]) == {"ok": True}


@pytest.mark.parametrize(
    ("event", "code", "field"),
    [
        (line(0), "result_invalid", "winner"),  # drawn without the option
        (line(0, 0), "result_invalid", "by"),
        (line(0, 0, "mahjong", 3), "result_invalid", "by"),
        (line(0, 2, "chow", 3), "result_invalid", "winner"),
        (line(0, 0, "chow"), "result_invalid", "points"),  # neither points nor a pile
        (line(0, 0, "chow", -1), "result_invalid", "points"),
        (line(0, 0, "chow", pile=["Ew", "Eb", "Jk", "Jk"]), "result_invalid", "score_pile"),
        (line(0, 0, "chow", pile=["Ew", "Eb", "Jk", "Jk", "Jw"]), "unknown_card", "score_pile"),
        (line(0, 0, "chow", pile=["Ew", "Eb", "Ek", "Er", "C1w"]), "result_invalid", "score_pile"),  # four Easts
        (
            line(0, 0, "chow", pile=["C1w", "C1w", "C2b", "C3b", "C4b"]),
            "result_invalid",
            "score_pile",
        ),  # one series twice
    ],
)
def test_refusals_are_coded_and_name_their_field(event, code, field):
    error = refusal(new_game("tien-zi-que", players=PLAYERS), event)
    assert error["code"] == code and error["params"]["field"] == field


def test_wrong_starter_mid_round_and_after_the_game_are_refused():
    game = new_game("tien-zi-que", players=PLAYERS)
    game.apply(line(1, 0, "chow", 4))
    assert refusal(game, line(1, 0, "chow", 4))["code"] == "not_your_turn"  # starts alternate
    free = new_game("tien-zi-que", {"starts": "free", "rounds": 2}, players=PLAYERS)
    free.apply(line(1, 0, "chow", 4))
    assert refusal(free, line(1, 0, "chow", 4))["code"] == "not_your_turn"  # seat 1 started its half
    record = random_tzq_record(3, options={"rounds": 2})
    played = fold({**record, "events": record["events"][:1]})  # round 1 dealt, in play
    assert refusal(played, line(1, 0, "chow", 4))["code"] == "wrong_phase"
    over = fold(record)
    assert refusal(over, line(0, 0, "chow", 4))["code"] == "game_over"


def test_min_points_and_drawn_rounds_follow_the_options():
    strict = new_game("tien-zi-que", {"min_points": 2}, players=PLAYERS)
    assert refusal(strict, line(0, 0, "pung", 2))["code"] == "result_invalid"  # 1 from the cards + the draw
    assert (
        refusal(strict, line(0, 0, "chow", pile=["C1w", "C3w", "C5b", "C7b", "Ek"]))["params"]["field"] == "score_pile"
    )
    assert check_events(strict, [line(0, 0, "pung", 3)]) == {"ok": True}
    drawn = new_game("tien-zi-que", {"exhausted_stock_draws": True}, players=PLAYERS)
    assert refusal(drawn, line(0, points=3))["code"] == "result_invalid"
    drawn.apply(line(0))
    assert score_json(drawn)["hands"][0]["drawn"] is True and score_json(drawn)["totals"] == [0, 0]


def test_undo_a_played_round_then_a_score_line_and_nothing_is_secret_between_rounds():
    record = random_tzq_record(5, options={"rounds": 4})
    starts = [i for i, e in enumerate(record["events"]) if e["type"] == "round_start"]
    played = record["events"][: starts[1]]  # round 1 played action by action
    game = fold({**record, "events": played})
    starter = 1 - record["events"][0]["seat"]
    events = played + [line(starter, 0, "chow", 12)]
    game.apply(events[-1])
    assert state_json(game)["totals"][0] == score_json(fold({**record, "events": played}))["totals"][0] + 12
    assert secret_from(events, game) is None  # a score line is a whole round: nothing in play
    game.apply({"type": "undo"})
    assert len(state_json(game)["score_sheet"]) == 1 and game.phase == "between_rounds"


def test_entry_facts_say_what_a_score_line_may_say_now():
    game = new_game("tien-zi-que", {"starts": "free", "min_points": 2}, players=PLAYERS)
    facts = entry_facts(game)["round_sheet"]
    assert facts["starters"] == [0, 1] and facts["min_points"] == 2 and facts["round"] == 1
    assert facts["points"]["chow"] == sorted(reachable_points("chow", 2)) and 0 not in facts["points"]["chow"]
    record = random_tzq_record(5)
    assert entry_facts(fold({**record, "events": record["events"][:2]}))["round_sheet"] is None  # a round in play


def test_an_incoming_round_result_holds_only_its_fields():
    check_incoming("tien-zi-que", [line(0, 0, "chow", 3)])
    with pytest.raises(EngineError) as err:
        check_incoming("tien-zi-que", [{**line(0, 0, "chow", 3), "note": "x"}])
    assert err.value.code == "malformed"
    with pytest.raises(EngineError) as err:
        new_game("tien-zi-que", players=PLAYERS).apply({**line(0, 0, "chow"), "points": "9"})
    assert err.value.code == "malformed"
