"""Performance rating (games.tournament.performance): the rating at which an entry's results are
what the Elo expectation predicts against the opponents it met."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.tournament import new_tournament, performance
from games.tournament.performance import (
    BOUND,
    MIN_TABLES,
    SPREAD,
    bounded_performance,
    expected,
    performance_rating,
)


def played(results: list[tuple[str, str, list[int]]], entrants="pairs", players=None):
    t = new_tournament({"entrants": entrants, "system": "manual", "scoring": "round_vp", "rounds": len(results)})
    names = sorted({e for a, b, _ in results for e in (a, b)})
    for e in names:
        t.apply({"type": "entry_registered", "entry": e, "players": (players or {}).get(e, [f"{e}1", f"{e}2"])})
    for number, (a, b, score) in enumerate(results, 1):
        rest = [e for e in names if e not in (a, b)]
        t.apply({"type": "round_paired", "round": number, "tables": [{"table": 1, "sides": [[a], [b]]}], "byes": rest})
        t.apply({"type": "result_recorded", "round": number, "table": 1, "score": score})
        t.apply({"type": "round_closed", "round": number})
    return t


def test_even_results_against_equal_opposition_perform_at_their_rating():
    t = played([("a", "b", [60, 40]), ("a", "c", [40, 60]), ("a", "d", [50, 50])])
    perf = performance(t, {p: 1600 for p in ("b1", "b2", "c1", "c2", "d1", "d2")})
    assert perf["a"]["performance"] == pytest.approx(1600, abs=0.1)
    assert perf["a"]["score"] == 1.5 and perf["a"]["tables"] == 3 and perf["a"]["opponents"] == 1600


def test_the_rating_makes_the_score_expected():
    t = played([("a", "b", [60, 40]), ("a", "c", [60, 40]), ("a", "d", [40, 60])])
    ratings = {"b1": 1500, "b2": 1700, "c1": 1400, "c2": 1400, "d1": 1800, "d2": 1750}
    r = performance(t, ratings)["a"]["performance"]
    assert sum(expected(r, o) for o in (1600, 1400, 1775)) == pytest.approx(2, abs=1e-3)


def test_a_perfect_score_is_800_above_the_opponents_and_byes_do_not_count():
    t = played([("a", "b", [60, 40]), ("a", "c", [70, 30]), ("a", "b", [55, 45]), ("b", "c", [10, 90])])
    perf = performance(t, {})  # nobody rated yet: everyone 1500
    assert perf["a"]["performance"] == 1500 + SPREAD and perf["a"]["bound"] == "max"
    assert perf["b"]["performance"] == 1500 - SPREAD and perf["b"]["tables"] == 3 and perf["b"]["bound"] == "min"
    assert perf["c"]["performance"] is None and perf["c"]["tables"] == 2, "2 tables and a bye: not yet shown"


def test_no_performance_before_min_tables():
    """After one round a won table is +800 whatever happened (the page read 3100 and -100)."""
    t = played([("a", "b", [60, 40]), ("a", "b", [60, 40])])
    perf = performance(t, {})
    assert MIN_TABLES == 3
    assert perf["a"] == {"performance": None, "bound": "", "tables": 2, "score": 2, "opponents": 1500}


def test_an_entry_without_a_table_has_no_performance():
    t = played([("a", "b", [60, 40])])
    t.apply({"type": "entry_registered", "entry": "z", "players": ["z1", "z2"]})
    assert performance(t, {})["z"] == {"performance": None, "bound": "", "tables": 0, "score": 0, "opponents": None}


def test_an_individual_counts_half_of_the_side_with_the_partner():
    games = [(1500.0, 1700.0, 0.5)]  # a draw beside a 1700 partner against 1500: R + 1700 = 3000
    assert performance_rating(games) == pytest.approx(1300, abs=0.01)


GAMES = st.lists(st.tuples(st.floats(1000, 2200), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=9)


@given(GAMES)
def test_property_the_root_or_the_bound(games):
    rows = [(o, None, s) for o, s in games]
    r = performance_rating(rows)
    score, mean = sum(s for _, s in games), sum(o for o, _ in games) / len(games)
    assert mean - SPREAD <= r <= mean + SPREAD
    if r not in (mean - SPREAD, mean + SPREAD):
        assert sum(expected(r, o) for o, _ in games) == pytest.approx(score, abs=1e-6)


@given(GAMES, st.integers(0, 8))
def test_property_a_better_result_never_lowers_the_performance(games, i):
    i %= len(games)
    o, s = games[i]
    if s == 1.0:
        return
    better = list(games)
    better[i] = (o, s + 0.5)
    assert (
        performance_rating([(o, None, s) for o, s in better])
        >= performance_rating([(o, None, s) for o, s in games]) - 1e-6
    )


def test_an_individual_is_bounded_as_a_pair_is():
    """The root for individuals may reach the opponents' mean +- 1600 (R is half the side): the
    standings read 3100 and -100 after one round of a newcomers' evening. Shown, it is +- 800."""
    individuals = {e: [f"{e}1"] for e in "abcd"}
    t = new_tournament({"entrants": "individuals", "system": "manual", "scoring": "round_vp", "rounds": 3})
    for e, players in individuals.items():
        t.apply({"type": "entry_registered", "entry": e, "players": players})
    for number in (1, 2, 3):
        t.apply(
            {
                "type": "round_paired",
                "round": number,
                "tables": [{"table": 1, "sides": [["a", "b"], ["c", "d"]]}],
                "byes": [],
            }
        )
        t.apply({"type": "result_recorded", "round": number, "table": 1, "score": [100, 0]})
        t.apply({"type": "round_closed", "round": number})
    assert performance_rating([(1500.0, 1500.0, 1.0)] * 3) == 1500 + 2 * SPREAD  # the unbounded root
    perf = performance(t, {})
    assert perf["a"]["performance"] == 1500 + BOUND and perf["a"]["bound"] == "max"
    assert perf["c"]["performance"] == 1500 - BOUND and perf["c"]["bound"] == "min"


PARTNERED = st.lists(
    st.tuples(st.floats(1000, 2200), st.one_of(st.none(), st.floats(1000, 2200)), st.sampled_from([0.0, 0.5, 1.0])),
    min_size=0,
    max_size=9,
)


@given(PARTNERED)
def test_property_shown_only_from_min_tables_and_within_the_bound(games):
    shown, bound = bounded_performance(games)
    if len(games) < MIN_TABLES:
        assert shown is None and bound == ""
        return
    mean = sum(o for o, _p, _s in games) / len(games)
    assert mean - BOUND <= shown <= mean + BOUND
    assert (bound == "max") == (shown == mean + BOUND) and (bound == "min") == (shown == mean - BOUND)
    if not bound:
        assert shown == performance_rating(games), "inside the bound it is the root itself"


@given(PARTNERED.filter(lambda g: len(g) >= MIN_TABLES))
def test_property_all_won_is_the_top_all_lost_the_bottom(games):
    mean = sum(o for o, _p, _s in games) / len(games)
    won = [(o, p, 1.0) for o, p, _s in games]
    lost = [(o, p, 0.0) for o, p, _s in games]
    assert bounded_performance(won) == (mean + BOUND, "max")
    assert bounded_performance(lost) == (mean - BOUND, "min")
