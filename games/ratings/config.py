"""The production rating system and its parameter set (chosen with bench/ratings.py; see
docs/ratings.md). Change SYSTEM whenever a parameter changes: pools rated under another
SYSTEM are recomputed on their next update."""
from __future__ import annotations

from dataclasses import replace

from games import engine

from .adapters import HAND_SD
from .model import MarginKalman, ModelParams

SYSTEM = "margin-kalman/2"

# Chosen by `bench/ratings.py --tune-shipped` (docs/ratings.md section 6): the grid tau_day x
# prior_var (12 points, the same budget every rival gets) replayed on the four bench histories
# (stationary, drifting, tracker, bots); for each point one full-game scale fitted on the pooled
# tuning windows (games 25%..50% of each history; the test windows are never read); the point
# with the lowest pooled tuning log loss wins: day drift 0.002 (a skill's sd grows by 0.002
# hand_sd per sqrt(day) of absence: about 9 points per hand after a month away, so ratings never
# freeze), prior_var 0.01, a = 5.21 for a full game of 16 hands. The forecast's scale is a
# function of the game's length (model.length_ratio): a game stopped before the target gets
# a * sqrt(hands / 16). Every history's own test-window figures are in docs/ratings.md.
BASE = ModelParams(
    hand_clip=2.0,
    prior_var=0.01,
    obs_var=1.0,
    tau_game=0.0,
    tau_day=0.002,
    prob_scale=5.21,
    full_hands=16.0,
)

# the score that ends a full game, per variant (model.length_ratio: a game stopped before it is
# forecast with the scale of its own length); a variant without one counts every game as full
TARGETS = {"nanking": 1000.0}


def params_for(variant: str) -> ModelParams:
    info = engine.GAMES.get(variant)
    return replace(BASE, hand_sd=HAND_SD.get(variant, BASE.hand_sd),
                   team_size=info.team_size if info else 1, target=TARGETS.get(variant))


def model_for(variant: str) -> MarginKalman:
    return MarginKalman(params_for(variant))


def newcomer_rd(variant: str) -> float:
    p = params_for(variant)
    return p.display_scale * p.prior_var ** 0.5
