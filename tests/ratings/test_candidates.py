"""The bench's candidate successor (bench/ratings_lab/candidates.py, docs/ratings.md §3b item 6):
a pool chooses its day drift from its own earlier games."""

from dataclasses import replace

import pytest

from bench.ratings_lab import evaluate as ev
from bench.ratings_lab.candidates import DriftSelectingKalman, previous_model_for
from bench.ratings_lab.synthetic import club_history, synthetic_history
from games.ratings import config
from games.ratings.model import MarginKalman, probability


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


def test_candidate_2_forecasts_the_posterior_mean_of_its_hypotheses_from_earlier_games_only():
    from bench.ratings_lab.candidates import PlainPoolBayesKalman

    _, games = synthetic_history(120, 12, seed=4)
    m = PlainPoolBayesKalman(config.params_for("nanking"))
    for g in games:
        w = m._weights()
        assert sum(map(sum, w)) == pytest.approx(1.0)
        want = sum(
            w[k][s] * probability(copy.pair_features(g)[0], a)
            for k, copy in enumerate(m.copies)
            for s, a in enumerate(m.scales)
        )
        got = m.pair_probabilities(g)[0][2]
        assert got == pytest.approx(want)
        # this game's own result (ranks, scores, hands) cannot change its forecast
        flipped = replace(g, ranks=tuple(reversed(g.ranks)), scores=None, hand_details=())
        assert got == m.pair_probabilities(flipped)[0][2]
        m.update(g)


def test_candidate_2_learns_a_smaller_scale_where_results_are_noisier():
    """The scale is learned from the pool's outcomes: in a pool whose results have nothing to
    do with the players (the same games, each side's players swapped with the other's at
    random) the forecasts' weight moves to smaller scales than in the real pool."""
    import random

    from bench.ratings_lab.candidates import PlainPoolBayesKalman

    _, games = synthetic_history(400, 12, seed=6)
    rng = random.Random(1)
    noisy = [replace(g, teams=[g.teams[1], g.teams[0]]) if rng.random() < 0.5 else g for g in games]
    a = PlainPoolBayesKalman(config.params_for("nanking"))
    b = PlainPoolBayesKalman(config.params_for("nanking"))
    ev.prequential(a, games)
    ev.prequential(b, noisy)

    def mean_scale(m):
        w = m._weights()
        return sum(w[k][s] * sc for k in range(len(w)) for s, sc in enumerate(m.scales))

    assert mean_scale(b) < mean_scale(a)


def test_candidate_3_rates_like_the_shipped_model_and_recalibrates_from_earlier_games_only():
    from bench.ratings_lab.candidates import SelfCalibratingKalman

    _, games = synthetic_history(200, 12, seed=4)
    m = SelfCalibratingKalman(config.params_for("nanking"))
    shipped = previous_model_for("nanking")  # the filter candidate 3 wraps (margin-kalman/2)
    for g in games:
        got = m.pair_probabilities(g)[0][2]
        flipped = replace(g, winner=1 - g.winner, scores=None, hand_details=())
        assert got == m.pair_probabilities(flipped)[0][2]
        assert m.update(g) == shipped.update(g)
    assert m.model.state == shipped.state


def test_candidate_3_learns_a_smaller_slope_where_results_are_noisier():
    import random

    from bench.ratings_lab.candidates import SelfCalibratingKalman

    _, games = synthetic_history(600, 12, seed=6)
    rng = random.Random(1)
    noisy = [replace(g, teams=[g.teams[1], g.teams[0]]) if rng.random() < 0.5 else g for g in games]
    a = SelfCalibratingKalman(config.params_for("nanking"))
    b = SelfCalibratingKalman(config.params_for("nanking"))
    ev.prequential(a, games)
    ev.prequential(b, noisy)
    assert b.s < 0.9 < a.s
