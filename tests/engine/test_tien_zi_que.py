"""Tien Zi Que (seed 004, docs/tien-zi-que.md): the scoring table, the book's worked example,
jokers, the reshuffle, refused events, options, the CLI, and property tests over bot-played games."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, Replay, fold, new_game, score_json, state_json
from games.engine.record import new_state
from games.engine.tien_zi_que import (
    TienZiQueState,
    combination_kind,
    deck_problems,
    random_deck,
    random_tzq_record,
    score_pile,
    sort_cards,
)
from tests.engine.tzq_table import DECK, PLAYERS, Game, snapshot

ROOT = Path(__file__).resolve().parents[2]


def record(events, options=None):
    return {
        "format": "tichu-record/1",
        "variant": "tien-zi-que",
        "options": {"deck": DECK, **(options or {})},
        "players": PLAYERS,
        "events": events,
    }


def plan_round(starter, winner, groups, keeps, last_by="pung"):
    """A round the ``winner`` wins with five combinations ``groups`` (three cards each; the
    third is the one drawn, or taken by the Chow), keeping ``keeps``; the other player draws and
    discards. Returns (round_start, action events)."""
    used = Counter(c for g in groups for c in g)
    rest = sort_cards((Counter(DECK) - used).elements())
    fillers, other_hand, spare = rest[:3], rest[3:8], rest[8:]
    hand = list(groups[0][:2]) + fillers
    loser = 1 - winner
    stock: list[str] = []
    actions: list[dict] = []

    def other_turn(card=None):
        card = card or spare.pop(0)
        stock.append(card)
        actions.extend([{"type": "draw", "seat": loser}, {"type": "discard", "seat": loser, "card": card}])

    if starter != winner:
        other_turn()
    for k, (g, keep) in enumerate(zip(groups, keeps)):
        if k == 4 and last_by == "chow":
            actions.append({"type": "chow", "seat": winner, "take": g[2], "cards": list(g), "keep": keep})
            break
        stock.append(g[2])
        actions.append({"type": "draw", "seat": winner})
        actions.append({"type": "pung", "seat": winner, "cards": list(g), "keep": keep})
        if k < 4:
            stock.extend(groups[k + 1][:2])
            other_turn(groups[4][2] if k == 3 and last_by == "chow" else None)
    stock.extend(spare)
    hands = [hand, other_hand] if winner == 0 else [other_hand, hand]
    return {"type": "round_start", "seat": starter, "hands": hands, "stock": stock}, actions


#: five sequences of blue and black coins, and the card kept from each: a pile worth 0
PLAIN = [
    ["C1b", "C2b", "C3b"],
    ["C4b", "C5b", "C6b"],
    ["C7b", "C8b", "C9b"],
    ["C1k", "C2k", "C3k"],
    ["C6k", "C7k", "C8k"],
]
PLAIN_KEEPS = ["C1b", "C4b", "C9b", "C3k", "C8k"]


# --- cards and the deck ------------------------------------------------------------------------


def test_the_test_deck_and_random_decks_are_decks():
    assert deck_problems(DECK) == []
    for seed in range(20):
        assert deck_problems(random_deck(random.Random(seed))) == []


@pytest.mark.parametrize(
    "deck, words",
    [
        (DECK[:-1], ["53 cards", "2 Tien Zi Que"]),
        ([c if c != "C5g" else "C5b" for c in DECK], ["two 5 of coins of the same colour"]),
        (
            [c.replace("C5g", "C5w").replace("C6g", "C6w") if c[:2] in ("C5", "C6") else c for c in DECK],
            ["each of the four series is one colour"],
        ),
        ([c if c != "Ew" else "Sw" for c in DECK], ["1 East instead of 3", "5 South instead of 3"]),
    ],
)
def test_a_deck_that_is_not_the_book_s_is_refused_as_an_option(deck, words):
    problems = "; ".join(deck_problems(deck))
    for w in words:
        assert w in problems
    with pytest.raises(EngineError) as info:
        TienZiQueState({"deck": deck}, PLAYERS)
    assert info.value.code == "malformed"


def test_jokers_are_black_and_codes_are_checked():
    with pytest.raises(EngineError) as info:
        TienZiQueState({"deck": [c if c != "Jk" else "Jw" for c in DECK]}, PLAYERS)
    assert info.value.code == "malformed" and "not card codes" in info.value.message
    g = Game()
    g.refuse(
        {"type": "round_start", "seat": 0, "hands": [["Ks"] * 5, DECK[5:10]], "stock": DECK[10:]},
        "unknown_card",
        "'Ks'",
    )


def test_exactly_two_players():
    for players in (["A"], ["A", "B", "C"]):
        with pytest.raises(EngineError) as info:
            TienZiQueState({}, players)
        assert info.value.code == "malformed" and "exactly 2 players" in info.value.message
    assert isinstance(new_state("tien-zi-que", {}, PLAYERS), TienZiQueState)
    g = new_game("tien-zi-que")
    assert g.n == 2 and g.variant.name == "tien-zi-que" and g.players == ["Player 1", "Player 2"]


def test_effective_options_have_defaults():
    g = TienZiQueState(None, PLAYERS)
    assert g.options == {
        "preset": "rio",
        "deck": None,
        "rounds": 4,
        "starts": "alternate",
        "min_points": 0,
        "exhausted_stock_draws": False,
    }
    for bad in (
        {"rounds": 3},
        {"min_points": -1},
        {"starts": "loser"},
        {"exhausted_stock_draws": 1},
        {"unknown": True},
        {"deck": "all"},
    ):
        with pytest.raises(EngineError) as info:
            TienZiQueState(bad, PLAYERS)
        assert info.value.code == "malformed"


def test_without_a_deck_option_the_first_round_start_fixes_the_deck():
    g = Game()
    g.state = TienZiQueState({}, PLAYERS)
    other = sort_cards(c if c != "Ew" else "Ek" for c in DECK)  # another edition's East colours
    # not a deck: refused with deal_invalid
    g.refuse(
        {"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]], "stock": DECK[10:-1]},
        "deal_invalid",
        "53 cards",
    )
    g.do({"type": "round_start", "seat": 0, "hands": [other[:5], other[5:10]], "stock": other[10:]})
    assert g.js["deck"] == other
    g.do({"type": "undo"})
    assert g.js["deck"] is None
    g.do({"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]], "stock": DECK[10:]})
    assert g.js["deck"] == DECK


# --- combinations ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, kind",
    [
        (["C5b", "C6k", "C7r"], "sequence"),  # any series
        (["C7r", "C5b", "C6k"], "sequence"),  # any order
        (["C4b", "C5b", "Jk"], "sequence"),  # book example 1: the TZQ as a 3 or a 6
        (["C4b", "Jk", "C6g"], "sequence"),
        (["Ew", "Eb", "Jk"], "triplet"),  # book example 2
        (["Nw", "Ng", "Nr"], "triplet"),
        (["C2b", "C2k", "C2r"], "triplet"),
        (["Dr", "Dr", "Dw"], "triplet"),
        (["C8b", "C9b", "C1b"], None),  # no wrap-around
        (["C4b", "C5b", "C5k"], None),
        (["Ew", "Sw", "Ww"], None),  # honours make no sequence
        (["Ew", "Sw", "Jk"], None),
        (["C4b", "C7b", "Jk"], None),
        (["C4b", "Jk", "Jk"], None),  # at most one TZQ
        (["Jk", "Jk", "Jk"], None),
        (["C4b", "C5b"], None),
    ],
)
def test_combination_kinds(cards, kind):
    assert combination_kind(cards) == kind


# --- the scoring table -------------------------------------------------------------------------


def lines_of(pile, winning_draw=False):
    points, lines = score_pile(pile, winning_draw)
    by_name: dict[str, int] = {}
    for line in lines:
        by_name[line["name"]] = by_name.get(line["name"], 0) + line["points"]
    return points, by_name


@pytest.mark.parametrize(
    "pile, points, lines",
    [
        # Couleur: five cards of one colour, blue, red or green
        (["C1r", "C3r", "C5r", "C7r", "C9r"], 3, {"colour": 3}),
        (["C1b", "C3b", "C5b", "C7b", "Wb"], 4, {"colour": 3, "characters": 1}),
        (["C1g", "C3g", "C5g", "C8g", "Sg"], 4, {"colour": 3, "characters": 1}),
        # five black cards are not in the table (the book lists blue, red, green); the TZQ is black
        (["C1k", "C3k", "C5k", "C8k", "Jk"], 0, {}),
        # Jeu Blanc: five white cards (here all honours: Honneurs and a pair of East too)
        (["Ew", "Ew", "Sw", "Ww", "Nw"], 22, {"white_hand": 4, "honours": 16, "pair": 2}),
        # Cinq Éléments: five colours, the TZQ as black
        (["Ew", "C1b", "Jk", "C3r", "C5g"], 5, {"five_elements": 4, "characters": 1}),
        (["Ew", "C1b", "C3k", "C5r", "C8g"], 5, {"five_elements": 4, "characters": 1}),
        # Empereur des Moineaux, and the book's worked example (+9)
        (["Ew", "Eb", "Jk", "Jk", "Jk"], 9, {"characters": 1, "pair": 2, "sparrow_emperor": 6}),
        (["C1b", "C5r", "Jk", "Jk", "Jk"], 6, {"sparrow_emperor": 6}),
        # Fier Dragon: five coins in exact sequence, any series
        (["C2b", "C3k", "C4r", "C5g", "C6b"], 6, {"proud_dragon": 6}),
        (["C6r", "C2r", "C4r", "C3r", "C5r"], 9, {"proud_dragon": 6, "colour": 3}),
        (["C2b", "C3k", "C4r", "C5g", "Jk"], 0, {}),  # a TZQ never stands for a card when scoring
        (["C2b", "C3k", "C4r", "C5g", "C7b"], 0, {}),
        # Paire, Brelan (no Paire), Carré (no Paire, no Brelan)
        (["C2b", "C2r", "C5k", "C7g", "C9b"], 2, {"pair": 2}),
        (["Sw", "Sr", "C5k", "C7k", "C9b"], 3, {"pair": 2, "characters": 1}),
        (["C2b", "C2r", "C2k", "C7g", "C9b"], 5, {"three_of_a_kind": 5}),
        (["C2b", "C2r", "C2k", "C2g", "C9b"], 10, {"four_of_a_kind": 10}),
        (["C2b", "C2r", "Jk", "Jk", "C9b"], 2, {"pair": 2}),  # TZQs are no Brelan
        # two different pairs both count; a Brelan and a Paire of different cards both count
        (["C2b", "C2r", "C5k", "C5g", "C9b"], 4, {"pair": 4}),
        (["C2b", "C2r", "C2k", "C5g", "C5b"], 7, {"three_of_a_kind": 5, "pair": 2}),
        # Caractères: only the line of the number of types held
        (["Eb", "C1b", "C3k", "C5r", "C8g"], 1, {"characters": 1}),
        (["Ew", "Eb", "C1b", "C3k", "C8r"], 3, {"characters": 1, "pair": 2}),
        (["Eb", "Sw", "C1b", "C4k", "C8r"], 3, {"characters": 3}),
        (["Eb", "Sw", "Wk", "C1b", "C5r"], 5, {"characters": 5}),
        (["Eb", "Sw", "Wk", "Dr", "C5r"], 9, {"characters": 9}),
        # Rose des vents: the four winds, no Caractères
        (["Eb", "Sw", "Wk", "Nr", "C5r"], 12, {"wind_rose": 12}),
        (["Eb", "Sw", "Wk", "Nr", "Jk"], 12, {"wind_rose": 12}),  # the TZQ is no honour
        # Honneurs: five honour cards, no Caractères nor Rose des vents
        (["Ew", "Sw", "Wk", "Dr", "Dw"], 18, {"honours": 16, "pair": 2}),
        (["Eb", "Sw", "Wk", "Nr", "Nw"], 18, {"honours": 16, "pair": 2}),
        # Honneurs suprêmes: the five types, no Caractères, Rose des vents or Honneurs
        (["Eb", "Sw", "Wk", "Nr", "Dw"], 20, {"supreme_honours": 20}),
        (["Eb", "Sw", "Wk", "Ng", "Dr"], 24, {"supreme_honours": 20, "five_elements": 4}),
        # nothing at all: a round can be won for 0
        (["C1b", "C3b", "C5k", "C7k", "C9r"], 0, {}),
    ],
)
def test_every_line_of_the_scoring_table(pile, points, lines):
    assert lines_of(pile) == (points, lines)
    assert lines_of(pile, winning_draw=True) == (points + 1, {**lines, "winning_draw": 1})


def test_score_lines_name_the_cards_and_the_book_s_label():
    _, lines = score_pile(["Ew", "Eb", "Jk", "Jk", "Jk"])
    assert lines == [
        {"name": "sparrow_emperor", "label": "Empereur des Moineaux", "points": 6, "cards": ["Jk", "Jk", "Jk"]},
        {"name": "pair", "label": "Paire", "points": 2, "cards": ["Ew", "Eb"]},
        {"name": "characters", "label": "Caractères", "points": 1, "cards": ["Ew", "Eb"]},
    ]


# --- rounds played through the engine ---------------------------------------------------------


def test_a_round_won_by_five_pungs_scores_the_pile_plus_the_winning_draw():
    g = Game()
    start, actions = plan_round(0, 0, PLAIN, PLAIN_KEEPS)
    g.do(start, *actions)
    (line,) = g.state.history
    assert line["winner"] == 0 and line["by"] == "pung" and line["points"] == [1, 0]
    assert line["score_pile"] == PLAIN_KEEPS
    assert [s["name"] for s in line["scoring"]] == ["winning_draw"]
    assert g.state.totals == [1, 0] and g.state.phase == "between_rounds" and g.state.turn is None
    assert g.state.next_starter == 1


def test_a_round_won_by_a_chow_has_no_winning_draw_and_only_the_winner_scores():
    g = Game()
    start, actions = plan_round(1, 0, PLAIN, PLAIN_KEEPS, last_by="chow")
    g.do(start, *actions)
    assert g.state.history[-1]["points"] == [0, 0] and g.state.history[-1]["by"] == "chow"


def test_the_book_s_worked_example_through_play_needs_two_reshuffles():
    """East, East and the three TZQ on the pile: +9, won by a Chow. With three East cards in the
    deck, the second East triplet needs a TZQ, which it discards: a reshuffle brings it back."""
    g = Game()
    g.start(0, ["Ew", "Ew", "Jk", "Jk", "C1b"], ["C9k", "C9r", "C8k", "Sg", "Wk"], stock_top=["Eb", "C2b", "C4b"])
    g.do({"type": "draw", "seat": 0}, {"type": "pung", "seat": 0, "cards": ["Ew", "Ew", "Eb"], "keep": "Ew"})
    assert g.js["hands"][0] == ["C1b", "C2b", "C4b", "Jk", "Jk"]
    assert g.js["discard"] == ["Ew", "Eb"] and g.js["chowable"] == ["Ew", "Eb"]
    # both players draw and discard until the stock is exhausted; a draw is then refused
    exhaust_to(g, 0)
    assert g.state.turn == 0
    g.refuse({"type": "draw", "seat": 0}, "wrong_phase", "reshuffle")
    g.reshuffle(["Ew", "C5k", "Eb", "C3g", "C7g", "C6k", "Nw", "Jk", "Ng", "C7k", "C2g", "Nr", "Dw"])
    assert g.js["discard"] == [] and g.js["chowable"] == []
    g.do({"type": "draw", "seat": 0, "card": "Ew"}, {"type": "discard", "seat": 0, "card": "C4b"})
    g.pass_turn()
    # the second East triplet, the TZQ standing for the third East (discarded with the other East)
    g.do(
        {"type": "draw", "seat": 0, "card": "Eb"},
        {"type": "pung", "seat": 0, "cards": ["Ew", "Eb", "Jk"], "keep": "Eb"},
    )
    assert g.js["hands"][0] == ["C1b", "C2b", "C3g", "C7g", "Jk"]
    g.pass_turn()
    g.do(
        {"type": "draw", "seat": 0, "card": "Nw"},
        {"type": "pung", "seat": 0, "cards": ["C1b", "C2b", "Jk"], "keep": "Jk"},
    )
    g.pass_turn()
    g.do(
        {"type": "draw", "seat": 0, "card": "C2g"},
        {"type": "pung", "seat": 0, "cards": ["C2g", "C3g", "Jk"], "keep": "Jk"},
    )
    assert g.js["score_piles"][0] == ["Ew", "Eb", "Jk", "Jk"]
    assert g.js["hands"][0] == ["C7g", "Nw", "Nr", "Ng", "Dw"]
    # the last TZQ lies in the discard pile: the second reshuffle brings it back
    exhaust_to(g, 0)
    seat = g.state.turn
    g.reshuffle((["C9g"] if seat == 1 else []) + ["Jk", "C8g"])
    if seat == 1:
        g.pass_turn()
    g.do({"type": "draw", "seat": 0, "card": "Jk"}, {"type": "discard", "seat": 0, "card": "Nw"})
    g.do({"type": "draw", "seat": 1, "card": "C8g"}, {"type": "discard", "seat": 1, "card": "C8g"})
    g.do({"type": "chow", "seat": 0, "take": "C8g", "cards": ["C7g", "C8g", "Jk"], "keep": "Jk"})
    (line,) = g.state.history
    assert line["score_pile"] == ["Ew", "Eb", "Jk", "Jk", "Jk"]
    assert line["points"] == [9, 0] and line["by"] == "chow" and line["winner"] == 0
    assert {s["name"]: s["points"] for s in line["scoring"]} == {"characters": 1, "pair": 2, "sparrow_emperor": 6}
    assert fold(record(g.events)).totals == [9, 0]
    assert sum(e["type"] == "reshuffle" for e in g.events) == 2


def test_a_full_game_is_four_rounds_each_player_starting_two():
    g = Game()
    for r, (starter, winner) in enumerate([(0, 0), (1, 1), (0, 1), (1, 1)]):
        start, actions = plan_round(starter, winner, PLAIN, PLAIN_KEEPS, last_by="pung" if r % 2 else "chow")
        if r:
            g.refuse({**start, "seat": 1 - starter}, "not_your_turn", f"seat {starter} starts round {r + 1}")
        g.do(start, *actions)
    assert g.state.over and g.state.is_over and g.state.phase == "game_over" and g.state.turn is None
    assert g.state.totals == [0, 2] and g.state.winner == 1
    assert [h["starter"] for h in score_json(g.state)["hands"]] == [0, 1, 0, 1]
    start, _ = plan_round(0, 0, PLAIN, PLAIN_KEEPS)
    g.refuse(start, "game_over", "4 rounds")
    g.do({"type": "undo"})  # an undo is still accepted
    assert not g.state.over and g.state.phase == "drawn"


def test_a_tied_game_has_no_winner():
    g = Game({"rounds": 2})
    for starter, winner in ((0, 0), (1, 1)):
        start, actions = plan_round(starter, winner, PLAIN, PLAIN_KEEPS)
        g.do(start, *actions)
    assert g.state.over and g.state.totals == [1, 1] and g.state.winner is None
    assert score_json(g.state)["complete"] is True


def test_free_starts_let_a_player_start_twice_in_a_row_but_not_more_than_half():
    g = Game({"starts": "free"})
    for starter in (0, 0):
        start, actions = plan_round(starter, starter, PLAIN, PLAIN_KEEPS)
        g.do(start, *actions)
    start, actions = plan_round(0, 0, PLAIN, PLAIN_KEEPS)
    g.refuse(start, "not_your_turn", "already started 2 rounds")
    assert [a["seat"] for a in g.state.legal_actions()] == [1]


# --- the three actions, jokers, the discard pile -----------------------------------------------


def opening(options=None):
    """Seat 0: C4b C5b Jk Ew Eb; seat 1: C4k C6r Sw Sr Dw; the stock starts C6k, C7k, C8k."""
    g = Game(options)
    return g.start(
        0,
        ["C4b", "C5b", "Jk", "Ew", "Eb"],
        ["C4k", "C6r", "Sw", "Sr", "Dw"],
        stock_top=["C6k", "C7k", "C8k", "C9k", "Sg", "Ng"],
    )


def test_draw_then_discard_keeps_five_cards():
    g = opening()
    assert g.state.phase == "action" and g.state.turn == 0
    g.do({"type": "draw", "seat": 0, "card": "C6k"})
    assert g.state.phase == "drawn" and len(g.js["hands"][0]) == 6 and g.js["drawn"] == "C6k"
    g.do({"type": "discard", "seat": 0, "card": "C6k"})
    assert g.js["hands"][0] == ["C4b", "C5b", "Ew", "Eb", "Jk"] and g.js["discard"] == ["C6k"]
    assert g.state.turn == 1 and g.js["stock_size"] == 43


def test_pung_keeps_one_card_discards_two_and_refills_to_five():
    g = opening()
    g.do({"type": "draw", "seat": 0}, {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C6k"], "keep": "C5b"})
    js = g.js
    assert js["score_piles"][0] == ["C5b"] and js["discard"] == ["C4b", "C6k"]
    assert js["hands"][0] == ["C7k", "C8k", "Ew", "Eb", "Jk"]
    assert js["combinations"][0] == [
        {"action": "pung", "kind": "sequence", "cards": ["C4b", "C5b", "C6k"], "keep": "C5b"}
    ]
    assert js["turn"] == 1 and js["phase"] == "action" and js["stock_size"] == 41


def test_chow_takes_one_of_the_two_discards_and_the_turn_refills():
    g = Game()
    g.start(
        0,
        ["C4b", "C5b", "Jk", "Ew", "Eb"],
        ["C4k", "C4r", "C7r", "C8r", "Dw"],
        stock_top=["C6k", "C7k", "C8k", "C9k", "Sg", "Ng"],
    )
    g.do({"type": "draw", "seat": 0}, {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C6k"], "keep": "C6k"})
    assert g.js["chowable"] == ["C4b", "C5b"]
    # the lower of the two discards is taken too
    g.do({"type": "chow", "seat": 1, "take": "C4b", "cards": ["C4b", "C4k", "C4r"], "keep": "C4r"})
    js = g.js
    assert js["discard"] == ["C5b", "C4b", "C4k"] and js["chowable"] == ["C4b", "C4k"]
    assert js["hands"][1] == ["C7r", "C8r", "C9k", "Sg", "Dw"]
    assert js["combinations"][1][0]["take"] == "C4b" and js["combinations"][1][0]["action"] == "chow"
    # the C5b lies under them now: it may no longer be taken
    g.refuse(
        {"type": "chow", "seat": 0, "take": "C5b", "cards": ["C5b", "C7k", "C8k"], "keep": "C5b"},
        "invalid_combination",
        "C5b",
    )


def test_after_a_draw_only_the_last_discard_may_be_taken():
    g = opening()
    g.do({"type": "draw", "seat": 0}, {"type": "discard", "seat": 0, "card": "C5b"})
    g.do({"type": "draw", "seat": 1}, {"type": "discard", "seat": 1, "card": "Sw"})
    assert g.js["chowable"] == ["Sw"]
    g.refuse(
        {"type": "chow", "seat": 0, "take": "C5b", "cards": ["C4b", "C5b", "C6k"], "keep": "C6k"},
        "invalid_combination",
        "only Sw",
    )
    # the opponent's last discard with a joker: a triplet of South is not in hand, a refusal
    g.refuse(
        {"type": "chow", "seat": 0, "take": "Sw", "cards": ["Sw", "Ew", "Jk"], "keep": "Sw"},
        "invalid_combination",
        "neither a triplet",
    )


def test_jokers_in_combinations():
    g = opening()
    # TZQ as the 6 (or 3) of the book's first example, kept on the score pile
    g.do({"type": "draw", "seat": 0}, {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "Jk"], "keep": "Jk"})
    assert g.js["score_piles"][0] == ["Jk"] and g.js["combinations"][0][0]["kind"] == "sequence"
    g = opening()
    # the book's second example: an East discarded, taken with East and TZQ
    g.do({"type": "draw", "seat": 0}, {"type": "discard", "seat": 0, "card": "Eb"})
    g.do({"type": "draw", "seat": 1}, {"type": "discard", "seat": 1, "card": "C7k"})
    g.do({"type": "draw", "seat": 0}, {"type": "discard", "seat": 0, "card": "C8k"})
    g.do({"type": "draw", "seat": 1}, {"type": "discard", "seat": 1, "card": "Sw"})
    g.refuse(
        {"type": "chow", "seat": 0, "take": "Sw", "cards": ["Sw", "Ew", "Jk"], "keep": "Jk"}, "invalid_combination"
    )


def test_a_discarded_tzq_may_not_be_taken_and_two_tzq_never_combine():
    g = Game()
    g.start(0, ["C4b", "C5b", "Jk", "Jk", "Eb"], ["C4k", "C5k", "Jk", "Sr", "Dw"], stock_top=["C9g", "C7k"])
    g.refuse({"type": "draw", "seat": 0, "card": "C7k"}, "deal_invalid", "top card of the stock")
    g.do({"type": "draw", "seat": 0})
    g.refuse(
        {"type": "pung", "seat": 0, "cards": ["C4b", "Jk", "Jk"], "keep": "C4b"},
        "invalid_combination",
        "at most one Tien Zi Que",
    )
    g.do({"type": "discard", "seat": 0, "card": "Jk"})
    g.refuse(
        {"type": "chow", "seat": 1, "take": "Jk", "cards": ["Jk", "C4k", "C5k"], "keep": "C4k"},
        "invalid_combination",
        "Tien Zi Que just discarded",
    )
    assert not [a for a in g.state.legal_actions() if a["type"] == "chow"]


# --- refused events leave the state unchanged ---------------------------------------------------


def test_refusals_name_the_rule_and_leave_the_state_unchanged():
    g = opening()
    g.refuse({"type": "draw", "seat": 1}, "not_your_turn", "seat 0's turn")
    g.refuse({"type": "discard", "seat": 0, "card": "Ew"}, "wrong_phase", "draw or to make a Chow")
    g.refuse({"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "Jk"], "keep": "Jk"}, "wrong_phase")
    g.refuse(
        {"type": "chow", "seat": 0, "take": "C6k", "cards": ["C4b", "C5b", "C6k"], "keep": "C6k"},
        "invalid_combination",
        "no discarded card may be taken",
    )
    g.refuse({"type": "reshuffle", "seat": 0, "stock": []}, "wrong_phase", "still holds 44")
    g.refuse(
        {"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]], "stock": DECK[10:]},
        "wrong_phase",
        "round 1 is in progress",
    )
    g.refuse({"type": "play", "seat": 0, "cards": ["Ew"]}, "not_in_variant", "Tichu")
    g.refuse({"type": "bogus"}, "malformed", "unknown event type")
    g.refuse({"type": "draw", "seat": 2}, "malformed", "'seat'")
    g.refuse({"type": "draw", "seat": True}, "malformed")
    g.refuse("draw", "malformed")
    g.do({"type": "draw", "seat": 0})
    g.refuse({"type": "draw", "seat": 0}, "wrong_phase", "has drawn")
    g.refuse(
        {"type": "chow", "seat": 0, "take": "C6k", "cards": ["C4b", "C5b", "C6k"], "keep": "C6k"},
        "wrong_phase",
        "has drawn",
    )
    g.refuse({"type": "discard", "seat": 0, "card": "Nw"}, "card_not_in_hand", "Nw")
    g.refuse({"type": "discard", "seat": 0, "card": "Zz"}, "unknown_card", "'Zz'")
    g.refuse({"type": "discard", "seat": 0, "card": "Jw"}, "unknown_card", "always black")
    g.refuse({"type": "discard", "seat": 0}, "malformed", "'card'")
    g.refuse(
        {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C7r"], "keep": "C4b"},
        "invalid_combination",
        "is neither a triplet",
    )
    g.refuse({"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C6r"], "keep": "C4b"}, "card_not_in_hand", "C6r")
    g.refuse(
        {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C6k"], "keep": "Ew"},
        "invalid_combination",
        "one of the combination's cards",
    )
    g.refuse({"type": "pung", "seat": 0, "cards": ["C4b", "C5b"], "keep": "C4b"}, "malformed", "3 cards")
    g.refuse({"type": "pung", "seat": 1, "cards": ["C4b", "C5b", "C6k"], "keep": "C4b"}, "not_your_turn")
    g.refuse({"type": "reshuffle", "seat": 0, "stock": []}, "wrong_phase")


def test_round_start_is_checked():
    g = Game()
    g.refuse({"type": "draw", "seat": 0}, "wrong_phase", "round_start comes first")
    g.refuse(
        {"type": "round_start", "seat": 0, "hands": [DECK[:4], DECK[4:10]], "stock": DECK[10:]},
        "deal_invalid",
        "seat 0 gets 4",
    )
    bad = list(DECK[10:])
    bad[0] = "Jk"
    g.refuse(
        {"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]], "stock": bad}, "deal_invalid", "missing"
    )
    g.refuse({"type": "round_start", "seat": 0, "hands": DECK[:10], "stock": DECK[10:]}, "malformed")
    g.refuse({"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]]}, "malformed", "'stock'")
    g.refuse({"type": "undo"}, "wrong_phase", "no event to undo")


# --- the reshuffle -----------------------------------------------------------------------------


def exhaust_to(g, left):
    """Draw-and-discard turns until ``left`` cards remain in the stock."""
    while g.js["stock_size"] > left:
        g.pass_turn()
    return g


def test_a_stock_exhausted_during_a_refill_is_remade_without_the_two_cards_just_discarded():
    g = Game()
    # the stock's last two cards: C6k (drawn for the Pung) and C9r (the one refill card left)
    g.start(0, ["C4b", "C5b", "Jk", "Ew", "Eb"], ["C4k", "C6r", "Sw", "Sr", "Dw"], stock_bottom=["C6k", "C9r"])
    exhaust_to(g, 2)
    assert g.state.turn == 0 and g.js["hands"][0] == ["C4b", "C5b", "Ew", "Eb", "Jk"]
    g.do(
        {"type": "draw", "seat": 0, "card": "C6k"},
        {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C6k"], "keep": "C6k"},
    )
    js = g.js
    assert js["phase"] == "reshuffle" and js["turn"] == 0 and js["stock_size"] == 0
    assert len(js["hands"][0]) == 4 and "C9r" in js["hands"][0]
    pile = list(js["discard"])
    assert pile[-2:] == ["C4b", "C5b"]
    others = pile[:-2]
    g.refuse({"type": "draw", "seat": 1}, "wrong_phase", "a reshuffle comes first")
    g.refuse({"type": "chow", "seat": 1, "take": "C4b", "cards": ["C4b", "C4k", "Jk"], "keep": "C4k"}, "wrong_phase")
    g.refuse({"type": "reshuffle", "seat": 0, "stock": pile}, "deal_invalid", "except the two cards")
    g.refuse({"type": "reshuffle", "seat": 1, "stock": others}, "not_your_turn")
    g.refuse({"type": "reshuffle", "seat": 0, "stock": others[1:]}, "deal_invalid", "missing")
    new = list(reversed(others))
    g.do({"type": "reshuffle", "seat": 0, "stock": new})
    js = g.js
    assert js["discard"] == ["C4b", "C5b"] and js["chowable"] == ["C4b", "C5b"]
    assert len(js["hands"][0]) == 5 and new[0] in js["hands"][0]
    assert js["stock_size"] == len(new) - 1 and js["turn"] == 1 and js["reshuffles"] == 1
    # the opponent may still take one of the two for a Chow
    assert js["hands"][1] == ["C4k", "C6r", "Sw", "Sr", "Dw"]
    g.do({"type": "chow", "seat": 1, "take": "C5b", "cards": ["C4k", "C5b", "C6r"], "keep": "C5b"})
    assert g.js["score_piles"][1] == ["C5b"] and g.js["discard"] == ["C4b", "C4k", "C6r"]


def test_a_stock_exhausted_between_turns_is_remade_from_the_whole_discard_pile():
    g = opening()
    exhaust_to(g, 0)
    seat = g.state.turn
    pile = g.js["discard"]
    assert g.js["phase"] == "action"
    assert "draw" not in {a["type"] for a in g.state.legal_actions()}
    assert {a["type"] for a in g.state.legal_actions()} <= {"reshuffle", "chow"}
    g.refuse({"type": "reshuffle", "seat": seat, "stock": pile[:-1]}, "deal_invalid", "whole discard pile")
    g.do({"type": "reshuffle", "seat": seat, "stock": pile})
    assert g.js["discard"] == [] and g.js["stock_size"] == len(pile) and g.state.turn == seat
    g.do({"type": "draw", "seat": seat, "card": pile[0]})


# --- the optional rules ------------------------------------------------------------------------


def test_option_min_points_refuses_a_mahjong_under_two_points():
    g = Game({"min_points": 2})
    start, actions = plan_round(1, 0, PLAIN, PLAIN_KEEPS, last_by="chow")
    g.do(start, *actions[:-1])
    err = g.refuse(actions[-1], "invalid_combination", "min_points")
    assert "would score 0" in err.message
    assert not [a for a in g.state.legal_actions() if a["type"] == "chow"]
    # a Pung Mah-jong (whose Pioche gagnante point does not count) is refused too; a pair makes it
    g = Game({"min_points": 2})
    start, actions = plan_round(0, 0, PLAIN, PLAIN_KEEPS)
    g.do(start, *actions[:-1])
    g.refuse(actions[-1], "invalid_combination", "would score 0")
    # a pile with a pair (C1b, C1k) is worth 2: that Mah-jong stands
    g = Game({"min_points": 2})
    start, actions = plan_round(1, 0, PLAIN, ["C1b", "C4b", "C9b", "C1k", "C8k"], last_by="chow")
    g.do(start, *actions)
    assert g.state.history[0]["points"] == [2, 0]


def test_option_min_points_counts_the_score_pile_s_cards_not_the_winning_draw():
    # 004, optional rules: "un joueur devra obligatoirement marquer un minimum de deux points à
    # l'aide des cinq cartes de sa « Pile de Victoire »". The Pioche gagnante point comes from the
    # action, not from the five cards: a pile worth 1 (Caractères, one East) stays under the minimum
    # even when the Mah-jong is a Pung.
    groups = PLAIN[:4] + [["Ew", "Ew", "Eb"]]
    keeps = PLAIN_KEEPS[:4] + ["Ew"]
    assert score_pile(sort_cards(keeps))[0] == 1
    g = Game({"min_points": 2})
    start, actions = plan_round(0, 0, groups, keeps)
    g.do(start, *actions[:-1])
    err = g.refuse(actions[-1], "invalid_combination", "min_points")
    assert "would score 1" in err.message
    assert not [
        a
        for a in g.state.legal_actions()
        if a["type"] == "pung" and len(g.js["score_piles"][0]) == 4 and a["keep"] == "Ew"
    ]
    # without the option the same Mah-jong stands and scores 1 + 1
    g = Game()
    g.do(start, *actions)
    assert g.state.history[0]["points"] == [2, 0]


def test_option_exhausted_stock_draws_the_round():
    g = opening({"exhausted_stock_draws": True})
    exhaust_to(g, 1)
    seat = g.state.turn
    g.do({"type": "draw", "seat": seat})
    assert g.state.phase == "drawn"
    g.do({"type": "discard", "seat": seat, "card": g.js["drawn"]})
    (line,) = g.state.history
    assert line["drawn"] is True and line["winner"] is None and line["points"] == [0, 0] and line["kind"] == "drawn"
    assert g.state.phase == "between_rounds" and g.state.next_starter == 1


def test_option_exhausted_stock_ends_the_round_after_a_short_refill():
    g = Game({"exhausted_stock_draws": True})
    g.start(0, ["C4b", "C5b", "Jk", "Ew", "Eb"], ["C4k", "C6r", "Sw", "Sr", "Dw"], stock_bottom=["C6k", "C9r"])
    exhaust_to(g, 2)
    g.do({"type": "draw", "seat": 0}, {"type": "pung", "seat": 0, "cards": ["C4b", "C5b", "C6k"], "keep": "C6k"})
    assert g.state.history[-1]["drawn"] is True and g.state.round is None


# --- undo --------------------------------------------------------------------------------------


def test_undo_retracts_the_latest_event_across_rounds():
    g = Game()
    start, actions = plan_round(0, 0, PLAIN, PLAIN_KEEPS)
    states = [snapshot(g.state)]
    for e in [start, *actions]:
        g.do(e)
        states.append(snapshot(g.state))
    start2, _ = plan_round(1, 1, PLAIN, PLAIN_KEEPS)
    g.do(start2)
    for k in range(len(states) - 1, -1, -1):
        g.do({"type": "undo"})
        js, sc, count, stock = snapshot(g.state)
        exp_js, exp_sc, _, exp_stock = states[k]
        assert json.loads(js) | {"events": 0} == json.loads(exp_js) | {"events": 0}
        assert (sc, stock) == (exp_sc, exp_stock)
    assert g.state.events_applied == len(g.events)
    g.refuse({"type": "undo"}, "wrong_phase")


# --- the command line --------------------------------------------------------------------------


def run(*args, stdin=None):
    result = subprocess.run(
        [sys.executable, "-m", "games.engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True
    )
    return result.returncode, json.loads(result.stdout)


def test_cli_score_and_state_on_a_tien_zi_que_record(tmp_path):
    rec = random_tzq_record(3)
    path = tmp_path / "tzq.json"
    path.write_text(json.dumps(rec))
    code, out = run("score", str(path))
    assert code == 0
    assert out == json.loads(json.dumps(score_json(fold(rec))))
    assert out["ok"] is True and out["variant"] == "tien-zi-que" and out["complete"] is True
    assert len(out["hands"]) == 4
    assert out["totals"] == [sum(h["points"][i] for h in out["hands"]) for i in range(2)]
    code, out = run("state", "-", "--at", "25", stdin=json.dumps(rec))
    assert code == 0 and out == json.loads(json.dumps(state_json(fold(rec, 25))))
    for key in (
        "phase",
        "turn",
        "hands",
        "stock_size",
        "discard",
        "score_piles",
        "combinations",
        "totals",
        "options",
        "complete",
        "winner",
        "score_sheet",
    ):
        assert key in out


def test_cli_reports_a_refused_tien_zi_que_event_with_its_index():
    rec = record(
        [
            {"type": "round_start", "seat": 0, "hands": [DECK[:5], DECK[5:10]], "stock": DECK[10:]},
            {"type": "draw", "seat": 1},
        ]
    )
    code, out = run("score", "-", stdin=json.dumps(rec))
    assert code == 1 and out["ok"] is False and out["index"] == 1
    assert out["error"]["code"] == "not_your_turn"
    rec["players"] = ["A", "B", "C"]
    code, out = run("score", "-", stdin=json.dumps(rec))
    assert code == 2 and out["error"]["code"] == "malformed"


# --- property tests over bot-played games ------------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = st.sampled_from(
    [
        {},
        {"min_points": 2},
        {"exhausted_stock_draws": True},
        {"starts": "free", "rounds": 2},
        {"min_points": 2, "exhausted_stock_draws": True},
    ]
)
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(seed=SEEDS, options=OPTIONS)
def test_every_card_is_in_exactly_one_place_at_every_event(seed, options):
    rec = random_tzq_record(seed, options)
    state = TienZiQueState(rec["options"], rec["players"])
    deck = Counter(rec["options"]["deck"])
    for event in rec["events"]:
        state.apply(event)
        r = state.round
        if r is not None:
            assert r.cards() == deck, event
            assert len(r.hands[1 - r.active]) == 5
            assert len(r.hands[r.active]) in (
                {6} if state.phase == "drawn" else {5} if state.phase == "action" else {3, 4}
            )
            assert all(len(p) < 5 for p in r.piles)
    assert state.over and len(state.history) == state.options["rounds"]
    assert state.totals == [sum(line["points"][i] for line in state.history) for i in range(2)]


@PROPS
@given(seed=SEEDS, options=OPTIONS)
def test_the_bot_is_deterministic_and_the_fold_reproducible(seed, options):
    rec = random_tzq_record(seed, options)
    assert random_tzq_record(seed, options) == rec
    a, b = fold(rec), fold(json.loads(json.dumps(rec)))
    assert state_json(a) == state_json(b) and score_json(a) == score_json(b)
    assert a.over and (a.winner is None) == (a.totals[0] == a.totals[1])
    for line in a.history:
        if line["winner"] is not None:
            assert line["points"][line["winner"]] == score_pile(line["score_pile"], line["by"] == "pung")[0]
            assert line["points"][line["winner"]] >= a.options["min_points"]


@PROPS
@given(seed=SEEDS, data=st.data())
def test_state_at_n_equals_the_fold_of_the_first_n_events(seed, data):
    rec = random_tzq_record(seed)
    replay = Replay(rec)
    state = TienZiQueState(rec["options"], rec["players"])
    picks = set(data.draw(st.lists(st.integers(0, len(rec["events"])), min_size=1, max_size=5)))
    for n in range(len(rec["events"]) + 1):
        if n in picks:
            expected = state_json(state)
            assert state_json(fold(rec, n)) == expected
            assert state_json(replay.state_at(n)) == expected and replay.state_at(n).events_applied == n
        if n < len(rec["events"]):
            state.apply(rec["events"][n])


def candidates(state):
    """Every decision event one might write for the player to act (legal or not)."""
    r = state.round
    seat = r.active
    hand = r.hands[seat]
    out = []
    if state.phase == "action":
        out.append({"type": "draw", "seat": seat})
        for take in set(r.discard[-2:]):
            for pair in combinations(hand, 2):
                cards = sort_cards([take, *pair])
                for keep in set(cards):
                    out.append({"type": "chow", "seat": seat, "take": take, "cards": cards, "keep": keep})
    elif state.phase == "drawn":
        for card in set(hand):
            out.append({"type": "discard", "seat": seat, "card": card})
        for triple in combinations(hand, 3):
            cards = sort_cards(triple)
            for keep in set(cards):
                out.append({"type": "pung", "seat": seat, "cards": cards, "keep": keep})
    return out


def _canon(e):
    return json.dumps(e, sort_keys=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, options=OPTIONS, data=st.data())
def test_legal_actions_are_exactly_the_accepted_decisions(seed, options, data):
    rec = random_tzq_record(seed, options)
    rng = random.Random(seed)
    picks = set(rng.sample(range(len(rec["events"])), min(15, len(rec["events"]))))
    state = TienZiQueState(rec["options"], rec["players"])
    for i, event in enumerate(rec["events"]):
        if i in picks and not state.over:
            before = snapshot(state)
            legal = {_canon(a) for a in state.legal_actions()}
            assert legal or state.over
            for action in state.legal_actions():  # every offered action is accepted
                trial = state.copy()
                trial.apply(copy.deepcopy(action))
            if state.round is not None:
                for cand in candidates(state):
                    trial = state.copy()
                    try:
                        trial.apply(cand)
                        accepted = True
                    except EngineError as err:
                        accepted = False
                        assert err.code in ("wrong_phase", "invalid_combination", "card_not_in_hand"), err
                    assert accepted == (_canon(cand) in legal), cand
            assert snapshot(state) == before
        state.apply(event)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, data=st.data())
def test_undo_after_any_event_restores_the_state_before_it(seed, data):
    rec = random_tzq_record(seed, {"rounds": 2})
    events = rec["events"]
    n = data.draw(st.integers(1, len(events)))
    state = fold(rec, n)
    state.apply({"type": "undo"})
    before = fold(rec, n - 1)
    assert state_json(state) | {"events": 0} == state_json(before) | {"events": 0}
    assert state.events_applied == n + 1
    # and the game goes on from there as if the event had never been
    for e in events[n - 1 :]:
        state.apply(e)
    assert score_json(state) == score_json(fold(rec))


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS)
def test_a_mutated_bot_event_is_refused_without_trace(seed):
    rec = random_tzq_record(seed, {"rounds": 2})
    rng = random.Random(seed)
    state = TienZiQueState(rec["options"], rec["players"])
    for event in rec["events"]:
        if rng.random() < 0.1 and event["type"] in ("discard", "pung", "chow", "draw"):
            bad = dict(event, seat=1 - event["seat"])
            before = snapshot(state)
            with pytest.raises(EngineError) as info:
                state.apply(bad)
            assert info.value.code == "not_your_turn"
            assert snapshot(state) == before
        state.apply(event)
