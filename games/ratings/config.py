"""The production rating system and its parameter set (chosen with bench/ratings.py; see
docs/ratings.md). Change SYSTEM whenever a parameter changes: pools rated under another
SYSTEM are recomputed on their next update.

Shipped: "pool-bayes-kalman/6" (mixture.PoolBayesKalman, docs/ratings.md §3 and §3e): seven copies of
the margin Kalman filter below, day drifts 0/0.001/0.002/0.004/0.008/0.016/0.032 (/5 had the first
four: a pool rated under /5 is recomputed), and a posterior over the drift
and the full-game scale learned per pool. BASE is the filter's parameter set (its own tau_day and
prob_scale are those of the former shipped model "margin-kalman/2", still the bench's reference
row (bench/ratings_lab/candidates.py, `PREVIOUS_SYSTEM`), and the centre of the mixture's scale
prior)."""

from __future__ import annotations

from dataclasses import replace

from games import engine

from .adapters import HAND_SD
from .mixture import PoolBayesKalman
from .model import ModelParams

SYSTEM = "pool-bayes-kalman/6"

# Chosen by `bench/ratings.py --tune-shipped` (docs/ratings.md sections 3 and 6): grid points
# replayed on the four bench histories (stationary, drifting, tracker, bots); for each point one
# full-game scale fitted on the pooled tuning windows (games 25%..50% of each history; the test
# windows are never read); the lowest pooled tuning log loss wins. Two 12-point grids, in this
# order: tau_day {0, .001, .002, .004} x prior_var {.0025, .01, .04} chose tau_day 0.002 and
# prior_var 0.01; then tau_day {.001, .002, .004} x hand_clip {1, 2} x obs_var {1, 2} (MODEL_GRID
# in the bench) chose hand_clip 1, obs_var 1, and a = 6.50 for a full game of 16 hands. Day drift
# 0.002: a skill's sd grows by 0.002 hand_sd per sqrt(day) between games, so ratings never
# freeze. The forecast's scale is a function of the game's length (model.length_ratio): a game
# stopped before the target gets a * sqrt(hands / 16).
BASE = ModelParams(
    hand_clip=1.0,
    prior_var=0.01,
    obs_var=1.0,
    tau_game=0.0,
    tau_day=0.002,
    prob_scale=6.50,
    full_hands=16.0,
)

# the score that ends a full game (the engine's GameInfo.target), for the variants whose model was
# fitted with it (model.length_ratio: a game stopped before it is forecast with the scale of its
# own length); a variant without one counts every game as full
TARGETS = {name: float(engine.game_info(name).target or 0) for name in ("nanking",)}


def params_for(variant: str) -> ModelParams:
    info = engine.GAMES.get(variant)
    return replace(
        BASE,
        hand_sd=HAND_SD.get(variant, BASE.hand_sd),
        team_size=info.team_size if info else 1,
        target=TARGETS.get(variant),
    )


def model_for(variant: str) -> PoolBayesKalman:
    """The shipped model (SYSTEM) of a variant, empty."""
    return PoolBayesKalman(params_for(variant))


def newcomer_rd(variant: str) -> float:
    p = params_for(variant)
    return p.display_scale * p.prior_var**0.5
