"""pool-bayes-kalman/6 (issue 35 item 5): the rewritten rating loop gives the numbers of /5's code
to the bit, and the wider drift grid holds no club at its edge.

* The loop: `reference_mixture_v5.py` is mixture.py as it was before the rewrite (pool-bayes-kalman/5's
  code, kept here only); the shipped class run on /5's four drifts must write the same changes,
  weights and copies shown on the recorded bot history (bench/data/bot_history.json.gz), on every
  shape of game, and on a wide generated history; on /6's seven drifts the two codes agree too.
  The Elo table's written-out 2v2 update is held to the general loop the same way.
* The drifts: a simulated club (the model's own assumptions: skills walk N(0, drift^2) per day,
  each hand's margin N(d, 1) hand_sd) whose true drift is 4x /5's fastest (0.016): under /5's grid
  nearly all the posterior sits on the top drift (the estimate held at the edge), under /6's the
  top hypothesis holds less than half and the leading drift is inside the grid.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.ratings_lab.history_io import read_history
from bench.ratings_lab.synthetic import synthetic_history
from games.ratings import config
from games.ratings.elo import ClubElo, TeamElo
from games.ratings.mixture import MIX_DRIFTS, PREVIOUS_DRIFTS, PoolBayesKalman
from games.ratings.model import result_kept
from games.ratings.types import GameResult, order_games
from tests.ratings.reference_mixture_v5 import PoolBayesKalman as V5
from tests.ratings.test_mixture import _mixed_games

BOTS = Path(__file__).resolve().parents[2] / "bench" / "data" / "bot_history.json.gz"


def _bot_games():
    _, _, games = read_history(BOTS)
    return order_games([g for g in games if g.rated])


def _wide_games():
    _, games = synthetic_history(3000, 300, seed=4)
    return order_games(games)


HISTORIES = {"bots": _bot_games, "every shape": _mixed_games, "wide": _wide_games}


@pytest.mark.parametrize("drifts", [PREVIOUS_DRIFTS, MIX_DRIFTS], ids=["v5 grid", "v6 grid"])
@pytest.mark.parametrize("history", list(HISTORIES))
def test_the_rewritten_loop_writes_the_numbers_of_the_v5_code(history, drifts):
    games = HISTORIES[history]()
    assert len(games) > 200
    p = config.params_for("nanking")
    new, old = PoolBayesKalman(p, drifts=drifts), V5(p, drifts=drifts)
    got, want = list(new.update_many(games)), list(old.update_many(games))
    assert got == want  # every Change, field by field, to the bit
    assert new.log_w == old.log_w
    assert new.shown == old.shown
    assert {k: tuple(v) for k, v in new.state.items()} == {k: tuple(v) for k, v in old.state.items()}
    # and one game at a time (the incremental path)
    one, ref = PoolBayesKalman(p, drifts=drifts), V5(p, drifts=drifts)
    for g in games[:150]:
        assert one.update(g) == ref.update(g)


def test_the_shipped_grid_is_v5s_extended_to_eight_times_its_fastest():
    assert MIX_DRIFTS[: len(PREVIOUS_DRIFTS)] == PREVIOUS_DRIFTS
    assert max(MIX_DRIFTS) >= 4 * max(PREVIOUS_DRIFTS)
    assert config.SYSTEM == "pool-bayes-kalman/6"
    assert config.model_for("nanking").drifts == MIX_DRIFTS


@pytest.mark.parametrize("history", ["bots", "wide"])
def test_the_elo_tables_written_out_update_is_the_general_loop(history):
    games = HISTORIES[history]()
    fast, general = ClubElo(), ClubElo()
    for g in games:
        assert fast.update(g) == TeamElo.update(general, g)
    assert fast.ratings == general.ratings and fast.games == general.games


def _old_result_kept(y: float, score: float, favour: tuple[float, ...] = ()) -> float:
    """model.result_kept as /5 wrote it."""
    if score == 0.5:
        return y
    sign = 1.0 if score > 0.5 else -1.0
    won_by = sign * y
    floor = 0.0
    if favour and min(sign * d for d in favour) < 0.0:
        floor = max(0.0, max(sign * d for d in favour))
    return sign * (won_by if won_by > floor else floor)


finite = st.floats(-3.0, 3.0, allow_nan=False)


@given(y=finite, score=st.sampled_from([0.0, 0.5, 1.0]), favour=st.lists(finite, max_size=8).map(tuple))
def test_result_kept_is_v5s_rule(y, score, favour):
    assert result_kept(y, score, favour) == _old_result_kept(y, score, favour)


def drifting_club(drift: float, seed: int, n_games: int = 3000, n_players: int = 16) -> list[GameResult]:
    """A club of the model's own making: skills N(0, 0.1^2) hand_sd walking N(0, drift^2) per
    day, an evening every 3 days of four games of 10 hands with four players drawn at random,
    each hand's margin N(d, 1) hand_sd."""
    rng = random.Random(seed)
    skill = [rng.gauss(0.0, 0.1) for _ in range(n_players)]
    t, out = 1.6e9, []
    while len(out) < n_games:
        t += 3 * 86400.0
        skill = [s + rng.gauss(0.0, drift * math.sqrt(3.0)) for s in skill]
        for _ in range(4):
            t += 1800.0
            a, b, c, d = rng.sample(range(n_players), 4)
            diff = skill[a] + skill[b] - skill[c] - skill[d]
            margin = 200.0 * sum(rng.gauss(diff, 1.0) for _ in range(10))
            out.append(GameResult(len(out), t, ((a, b), (c, d)), (500.0 + margin / 2, 500.0 - margin / 2), None, 10))
    return out


def _drift_posterior(drifts, games) -> np.ndarray:
    m = PoolBayesKalman(replace(config.params_for("nanking"), target=None), drifts=drifts)
    for _ in m.update_many(games):
        pass
    lw = np.array(m.log_w)
    w = np.exp(lw - lw.max())
    return w.sum(axis=1) / w.sum()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_club_drifting_four_times_faster_than_v5s_top_is_not_held_at_the_edge(seed):
    truth = 4 * max(PREVIOUS_DRIFTS)
    games = drifting_club(truth, seed)
    before = _drift_posterior(PREVIOUS_DRIFTS, games)
    assert before[-1] > 0.9  # /5: the estimate sits at its top drift, as the issue says
    after = _drift_posterior(MIX_DRIFTS, games)
    assert after[-1] < 0.5  # /6: the top hypothesis holds less than half
    assert 0 < int(np.argmax(after)) < len(MIX_DRIFTS) - 1  # the leading drift is inside the grid
    assert MIX_DRIFTS[int(np.argmax(after))] == truth


def test_a_slow_club_still_finds_its_slow_drift():
    """The new drifts take nothing from a club that drifts as /5's grid could say: the leading
    drift is the same under both grids, and the new hypotheses hold almost nothing."""
    games = drifting_club(0.002, 2)
    before, after = _drift_posterior(PREVIOUS_DRIFTS, games), _drift_posterior(MIX_DRIFTS, games)
    assert int(np.argmax(after)) == int(np.argmax(before))
    assert after[len(PREVIOUS_DRIFTS) :].sum() < 0.01
