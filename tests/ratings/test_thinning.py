"""The charts' thinning (games/ratings/thinning.py): at most the budget, in order, and never the
points a reader looks for (the latest, the highest, the lowest, a gap) lost."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.ratings.thinning import MIN_BUDGET, thin

values = st.lists(st.one_of(st.none(), st.floats(-1e4, 1e4)), max_size=600)
budgets = st.integers(MIN_BUDGET, 300)


@given(values, budgets)
def test_at_most_the_budget_in_order_and_every_extreme_kept(series, budget):
    kept = thin(series, budget)
    assert len(kept) <= budget
    assert kept == sorted(set(kept)) and all(0 <= i < len(series) for i in kept)
    if not series:
        return
    assert kept[-1] == len(series) - 1, "the latest value"
    present = [v for v in series if v is not None]
    if present:
        drawn = [series[i] for i in kept if series[i] is not None]
        assert max(present) in drawn and min(present) in drawn, "the highest and the lowest"
    if None in series:
        assert any(series[i] is None for i in kept), "a gap stays a gap"


@given(values, budgets)
def test_a_series_that_fits_is_drawn_whole_and_the_same_series_the_same_way(series, budget):
    kept = thin(series, budget)
    if len(series) <= budget:
        assert kept == list(range(len(series)))
    assert thin(list(series), budget) == kept


def test_a_budget_under_one_stretch_is_refused():
    with pytest.raises(ValueError):
        thin([1.0] * 10, MIN_BUDGET - 1)
