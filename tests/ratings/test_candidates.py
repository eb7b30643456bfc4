"""The bench's candidate successor (games/ratings/candidates.py, docs/ratings.md §3b item 6):
a pool chooses its day drift from its own earlier games."""
from dataclasses import replace

import pytest

from games.ratings import config
from games.ratings import evaluate as ev
from games.ratings.candidates import DriftSelectingKalman
from games.ratings.model import MarginKalman, probability
from games.ratings.synthetic import club_history, synthetic_history


def test_its_forecast_is_the_chosen_copy_at_the_forecast_scale_and_uses_earlier_games_only():
    _, games = synthetic_history(150, 12, seed=3)
    m = DriftSelectingKalman(config.params_for("nanking"))
    for g in games:
        k = m.chosen()
        x = m.copies[k].pair_features(g)[0]
        assert m.pair_probabilities(g)[0][2] == pytest.approx(probability(x, m.forecast_scale))
        # flipping this game's result cannot change its own forecast (read before the update)
        before = m.pair_probabilities(g)
        assert before == m.pair_probabilities(replace(g, winner=1 - g.winner))
        m.update(g)
    assert len(m.losses) == len(m.drifts) and all(loss > 0 for loss in m.losses)


def test_every_copy_rates_like_the_shipped_filter_with_its_own_drift():
    _, games = synthetic_history(80, 10, seed=5)
    m = DriftSelectingKalman(config.params_for("nanking"))
    alone = [MarginKalman(replace(config.params_for("nanking"), tau_day=t)) for t in m.drifts]
    for g in games:
        m.update(g)
        for a in alone:
            a.update(g)
    for copy, a in zip(m.copies, alone):
        assert copy.state == a.state


def test_a_pool_without_drift_and_a_pool_with_fast_drift_choose_differently():
    _, still = synthetic_history(600, 16, seed=2)
    _, moving = club_history(600, 16, seed=2, day_drift_sd=0.03)
    a = DriftSelectingKalman(config.params_for("nanking"))
    b = DriftSelectingKalman(config.params_for("nanking"))
    ev.prequential(a, still)
    ev.prequential(b, moving)
    assert a.drifts[a.chosen()] < b.drifts[b.chosen()]
