"""The production rating system and its parameter set (chosen with bench/ratings.py; see
docs/ratings.md). Change SYSTEM whenever a parameter changes: pools rated under another
SYSTEM are recomputed on their next update."""
from __future__ import annotations

from dataclasses import replace

from .adapters import HAND_SD
from .model import MarginKalman, ModelParams

SYSTEM = "margin-kalman/1"

BASE = ModelParams(
    hand_clip=1.0,
    prior_var=0.0025,
    obs_var=1.0,
    tau_game=0.0,
    tau_day=0.0,
    prob_scale=4.0,
)

TEAM_SIZE = {"nanking": 2, "tientsin": 3, "threechu": 1, "grand-seigneur": 1, "tien-zi-que": 1}


def params_for(variant: str) -> ModelParams:
    return replace(BASE, hand_sd=HAND_SD.get(variant, BASE.hand_sd),
                   team_size=TEAM_SIZE.get(variant, 1))


def model_for(variant: str) -> MarginKalman:
    return MarginKalman(params_for(variant))


def newcomer_rd(variant: str) -> float:
    p = params_for(variant)
    return p.display_scale * p.prior_var ** 0.5
