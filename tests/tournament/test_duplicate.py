"""Duplicate Tichu: movements for 4-12 pairs, boards, matchpoints and the adjustments; the
matchpoints checked against aragos/tichu-tournament's published scoring of its example
tournament (api/test/example_tournament_results.txt, MIT licence: the numbers below are
transcribed from it, none of its code is used)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import TournamentError
from games.tournament.duplicate import (
    DUPLICATE_ENGINE_OPTIONS,
    board_deal,
    board_events,
    board_packets,
    matchpoints,
    movement,
    pair_totals,
)

HANDS = [  # (board, N/S pair, E/W pair, N/S score, E/W score, N/S mp, E/W mp)
    (1, 1, 7, 250, 50, 1.0, 1.0),
    (1, 4, 2, 200, -100, 2.0, 0.0),
    (1, 5, 6, -140, 140, 0.0, 2.0),
    (2, 1, 7, 30, 170, 1.0, 1.0),
    (2, 4, 2, 20, 280, 0.0, 2.0),
    (2, 5, 6, 40, 60, 2.0, 0.0),
    (3, 1, 7, 185, 15, 2.0, 0.0),
    (3, 4, 2, 0, 200, 1.0, 1.0),
    (3, 5, 6, -200, 300, 0.0, 2.0),
    (4, 1, 4, -200, 200, 0.0, 2.0),
    (4, 2, 7, -130, 30, 1.0, 1.0),
    (4, 5, 3, 130, 70, 2.0, 0.0),
    (5, 1, 4, 160, 40, 0.0, 2.0),
    (5, 2, 7, 200, 0, 2.0, 0.0),
    (5, 5, 3, 180, 20, 1.0, 1.0),
    (6, 1, 4, 100, 100, 1.0, 1.0),
    (6, 2, 7, 155, -55, 2.0, 0.0),
    (6, 5, 3, -15, 15, 0.0, 2.0),
    (7, 2, 5, 10, 290, 1.0, 1.0),
    (7, 3, 7, -200, 400, 0.0, 2.0),
    (7, 4, 6, 65, 235, 2.0, 0.0),
    (8, 2, 5, 300, 0, 1.0, 1.0),
    (8, 3, 7, 300, 0, 1.0, 1.0),
    (8, 4, 6, 300, 0, 1.0, 1.0),
    (9, 2, 5, -5, 205, 1.0, 1.0),
    (9, 3, 7, 165, 35, 2.0, 0.0),
    (9, 4, 6, -120, 120, 0.0, 2.0),
    (10, 1, 2, 300, 0, 2.0, 0.0),
    (10, 3, 6, 80, -80, 1.0, 1.0),
    (10, 7, 4, 215, 85, 0.0, 2.0),
    (11, 1, 2, -125, 25, 0.0, 2.0),
    (11, 3, 6, 170, -170, 1.0, 1.0),
    (11, 7, 4, 255, -155, 2.0, 0.0),
    (12, 1, 2, -215, 15, 0.0, 2.0),
    (12, 3, 6, 170, 30, 1.0, 1.0),
    (12, 7, 4, 280, 20, 2.0, 0.0),
    (13, 1, 6, 300, 0, 2.0, 0.0),
    (13, 2, 3, 125, 75, 0.0, 2.0),
    (13, 7, 5, 145, 55, 1.0, 1.0),
    (14, 1, 6, 50, 150, 2.0, 0.0),
    (14, 2, 3, -100, 200, 0.5, 1.5),
    (14, 7, 5, -100, 200, 0.5, 1.5),
    (15, 1, 6, 0, 400, 0.0, 2.0),
    (15, 2, 3, 0, 300, 1.0, 1.0),
    (15, 7, 5, 105, -105, 2.0, 0.0),
    (16, 1, 5, 0, 200, 1.0, 1.0),
    (16, 3, 4, 45, 155, 2.0, 0.0),
    (16, 6, 7, 0, 300, 0.0, 2.0),
    (17, 1, 5, 300, 0, 1.0, 1.0),
    (17, 3, 4, 400, 0, 2.0, 0.0),
    (17, 6, 7, 275, 25, 0.0, 2.0),
    (18, 1, 5, 200, 0, 1.0, 1.0),
    (18, 3, 4, 90, 10, 0.0, 2.0),
    (18, 6, 7, 300, 0, 2.0, 0.0),
    (19, 1, 3, 65, -165, 0.0, 2.0),
    (19, 4, 5, 100, -200, 2.0, 0.0),
    (19, 6, 2, 95, -195, 1.0, 1.0),
    (20, 1, 3, 65, 235, 2.0, 0.0),
    (20, 4, 5, 0, 400, 0.5, 1.5),
    (20, 6, 2, 0, 400, 0.5, 1.5),
    (21, 1, 3, 30, 70, 1.0, 1.0),
    (21, 4, 5, -10, 110, 0.0, 2.0),
    (21, 6, 2, 240, 60, 2.0, 0.0),
]
PAIR_MPS = {1: 17.0, 2: 19.0, 3: 20.5, 4: 17.5, 5: 17.0, 6: 17.5, 7: 17.5}


def test_matchpoints_equal_aragos_on_its_example_tournament():
    hands = [
        {"board": b, "ns_pair": ns, "ew_pair": ew, "ns_score": s_ns, "ew_score": s_ew}
        for b, ns, ew, s_ns, s_ew, _, _ in HANDS
    ]
    by_board: dict[int, list] = {}
    for row in HANDS:
        by_board.setdefault(row[0], []).append(row)
    for rows in by_board.values():
        mps = matchpoints([r[3] - r[4] for r in rows])
        assert [(float(ns), float(ew)) for ns, ew in mps] == [(r[5], r[6]) for r in rows]
    assert {pair: float(mp) for pair, mp in pair_totals(hands).items()} == PAIR_MPS


@pytest.mark.parametrize("pairs", range(4, 13))
def test_movements_are_balanced(pairs):
    plan = movement(pairs, boards_per_round=2)
    rounds = plan["rounds"]
    assert len(rounds) == pairs - 1 + pairs % 2
    met = Counter()
    boards_played = Counter()
    north_south = Counter()
    for number, meetings in enumerate(rounds, 1):
        seated = [p for m in meetings for p in (m.ns, m.ew)]
        assert len(seated) == len(set(seated)), "a pair plays once a round"
        sitting_out = set(range(1, pairs + 1)) - set(seated)
        assert sitting_out == ({plan["sit_outs"][number]} if pairs % 2 else set())
        assert len({m.boards for m in meetings}) == 1, "every table of a round plays the round's boards"
        for m in meetings:
            met[frozenset((m.ns, m.ew))] += 1
            north_south[m.ns] += 1
            for board in m.boards:
                boards_played[(m.ns, board)] += 1
                boards_played[(m.ew, board)] += 1
    assert set(met) == {frozenset(c) for c in itertools.combinations(range(1, pairs + 1), 2)}
    assert set(met.values()) == {1}, "every pair meets every other once"
    assert set(boards_played.values()) == {1}, "each pair plays each board at most once"
    if pairs % 2:
        assert sorted(plan["sit_outs"].values()) == list(range(1, pairs + 1)), "sit-outs rotate"
    played = len(rounds) - (1 if pairs % 2 else 0)
    assert all(abs(2 * north_south[p] - played) <= 2 for p in range(1, pairs + 1)), north_south


def test_movement_bounds():
    for bad in (3, 13, "8", True, 0):
        with pytest.raises(TournamentError) as info:
            movement(bad)
        assert info.value.code == "movement_invalid"


def test_a_board_is_the_same_deal_everywhere_and_a_whole_deck():
    first, again, other = board_deal(5, "club-night"), board_deal(5, "club-night"), board_deal(6, "club-night")
    assert first == again and first != other
    assert all(len(hand) == 14 for hand in first)
    cards = [c for hand in first for c in hand]
    assert len(set(cards)) == 56 and {"Dragon", "Phoenix", "Dog", "Mahjong", "Aj", "2r"} <= set(cards)
    events = board_events(5, "club-night")
    assert events[0] == {"type": "shuffle", "seat": 0}
    assert sorted(e["seat"] for e in events[1:]) == [0, 1, 2, 3]
    assert DUPLICATE_ENGINE_OPTIONS == {"grand_tichu": False}


def test_the_board_starts_an_engine_hand():
    from games import engine

    state = engine.new_game("nanking", DUPLICATE_ENGINE_OPTIONS, players=["a", "b", "c", "d"])
    for event in board_events(3, 7):
        state.apply(event)
    assert sorted(len(h) for h in board_deal(3, 7)) == [14] * 4
    assert any(a["type"] == "push" for a in engine.legal_actions(state)), "dealt: the exchange comes next"


def test_adjustments():
    mps = matchpoints([100, -50, "AVG+", ("AVG-", "AVG+")])
    top = Fraction(3)
    assert mps[2] == (top * Fraction(3, 5), top * Fraction(3, 5))
    assert mps[3] == (top * Fraction(2, 5), top * Fraction(3, 5))
    assert mps[0][0] == top and mps[1][0] == 0, "the scored results compared with each other, scaled to the top"
    assert matchpoints(["AVG", 20])[1] == (Fraction(1, 2), Fraction(1, 2)), "a lone result gets the average"
    with pytest.raises(TournamentError):
        matchpoints([10, "AVG++"])


@given(st.lists(st.integers(-400, 400), min_size=1, max_size=12))
def test_matchpoints_add_up_and_order(results):
    mps = matchpoints(results)
    top = len(results) - 1
    assert sum(ns for ns, _ in mps) == Fraction(top * len(results), 2), "the board's matchpoints are shared out"
    assert all(ns + ew == top for ns, ew in mps)
    for (a, (ma, _)), (b, (mb, _)) in itertools.combinations(zip(results, mps), 2):
        assert (a > b) == (ma > mb) and (a == b) == (ma == mb)


@settings(max_examples=100, deadline=None)
@given(number=st.integers(1, 500), seed=st.one_of(st.integers(0, 10**9), st.text(max_size=20)))
def test_a_boards_packets_are_its_hands_split_eight_and_six(number, seed):
    """With Grand Tichu allowed a board is dealt in two packets: each seat's first eight cards
    and its last six are its board_deal hand, whatever the seed (one board, with or without the
    call), and the first packets differ from one board to the next."""
    packets = board_packets(number, seed)
    assert [sorted(first + last) for first, last in packets] == board_deal(number, seed)
    assert all(len(first) == 8 and len(last) == 6 for first, last in packets)
    assert all(first == sorted(first) and last == sorted(last) for first, last in packets)
    assert packets != board_packets(number + 1, seed)
