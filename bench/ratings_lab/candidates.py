"""Candidate successors of the former shipped model (margin-kalman/2), evaluated by the bench
(docs/ratings.md §3b, §3c, §3d and §7): `DriftSelectingKalman` (the drift chosen per pool, not
shipped), `PlainPoolBayesKalman` (drift and forecast scale learned per pool: the plain reference
implementation of the shipped model, games.ratings.mixture, which the tests hold to it) and
`SelfCalibratingKalman` (not shipped).

The shipped model has one day drift for every club, which costs a club whose players do not
drift (the bench's stationary history) and is too little for one whose players drift fast. The
candidate runs K copies of the shipped filter that differ only in their day drift and lets each
pool choose among them from its own earlier games: before a game, the forecast is that of the
copy with the lowest cumulative log loss on the pool's games so far (each copy's win forecast at
the selection scale, clipped to [0.01, 0.99] as in the bench; ties go to the lower drift); after
the game every copy is updated and scored. Prequential model selection: only earlier games are
read, the same rule for every pool, nothing re-tuned per history by the bench.

Designed on the tuning windows only (docs/ratings.md §3b, item 6): drifts {0, 0.001, 0.002,
0.004}, selection scale 6.50 (the shipped one), forecast scale 6.36 (fitted on the pooled tuning
windows with the prior of --tune-shipped). Shipping it would need the K copies' state per
player and the K scores per pool stored (a migration) and would make the rating loop about K
times slower.
"""

from __future__ import annotations

import math
from dataclasses import replace

from games.ratings import config
from games.ratings.base import Change, Standing

# candidate 2's grids and prior are the shipped model's (mixture.py is their one home)
from games.ratings.mixture import MIX_DRIFTS, MIX_SCALES, prior_log_weights
from games.ratings.model import MarginKalman, ModelParams, probability
from games.ratings.types import GameResult, PlayerId

#: The former shipped model, the bench's reference row: one filter, drift 0.002, scale 6.50.
PREVIOUS_SYSTEM = "margin-kalman/2"


def previous_model_for(variant: str) -> MarginKalman:
    """The former shipped model (PREVIOUS_SYSTEM) of a variant, empty."""
    return MarginKalman(config.params_for(variant))


DRIFTS = (0.0, 0.001, 0.002, 0.004)
SELECTION_SCALE = 6.50
FORECAST_SCALE = 6.36


class DriftSelectingKalman:
    name = "margin-kalman-drift-selecting"

    def __init__(
        self,
        params: ModelParams,
        drifts: tuple[float, ...] = DRIFTS,
        selection_scale: float = SELECTION_SCALE,
        forecast_scale: float = FORECAST_SCALE,
    ):
        self.copies = [MarginKalman(replace(params, tau_day=t)) for t in drifts]
        self.drifts = drifts
        self.selection_scale = selection_scale
        self.forecast_scale = forecast_scale
        self.losses = [0.0] * len(drifts)

    def chosen(self) -> int:
        """Index of the copy with the lowest cumulative log loss so far (ties: lower drift)."""
        return min(range(len(self.copies)), key=lambda i: (self.losses[i], i))

    def pair_features(self, game: GameResult) -> list[tuple[float, ...]]:
        return self.copies[self.chosen()].pair_features(game)

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        n = len(game.teams)
        ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
        return [(i, j, probability(x, self.forecast_scale)) for (i, j), x in zip(ij, self.pair_features(game))]

    def update(self, game: GameResult) -> list[Change]:
        n = len(game.teams)
        ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
        for k, copy in enumerate(self.copies):
            for (i, j), x in zip(ij, copy.pair_features(game)):
                p = min(0.99, max(0.01, probability(x, self.selection_scale)))
                y = game.pair_score(i, j)
                self.losses[k] -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
        k = self.chosen()
        out: list[Change] = []
        for c, copy in enumerate(self.copies):
            changes = copy.update(game)
            if c == k:
                out = changes
        return out

    def standing(self, player: PlayerId) -> Standing:
        return self.copies[self.chosen()].standing(player)


# -- candidate 2 (docs/ratings.md §3c): drift AND forecast scale learned per pool ---------------


class PlainPoolBayesKalman:
    """The shipped filter with its day drift and its full-game forecast scale learned by each
    pool from its own earlier games, as a Bayesian mixture over a fixed grid.

    One copy of the filter per drift in MIX_DRIFTS; every (drift, scale) pair is a hypothesis
    with a fixed prior (uniform over drifts; log-normal, sd MIX_SCALE_LOG_SD, around the shipped
    scale over MIX_SCALES, normalised on the grid). After each game every hypothesis' log weight
    gains the log likelihood of the pair outcomes under its own forecast (clipped to [0.01, 0.99]
    as in the bench). The forecast is the posterior-weighted mean of the hypotheses' forecasts
    (the Bayesian predictive: early on it hedges between scales, so it is less over-confident
    than any one of them); the ratings shown are those of the copy whose drift has the largest
    marginal weight. Nothing is tuned per history: the grids and the prior are the rule.

    Shipped since 2026-11-27 as mixture.PoolBayesKalman (pool-bayes-kalman/6 since 2026-12-07:
    seven drifts), which computes
    the same numbers faster and keeps each player's rating as written at their last game; this
    plain version is what the tests hold it to (forecasts and changes within rounding).
    """

    name = "margin-kalman-pool-bayes"

    def __init__(
        self, params: ModelParams, drifts: tuple[float, ...] = MIX_DRIFTS, scales: tuple[float, ...] = MIX_SCALES
    ):
        self.copies = [MarginKalman(replace(params, tau_day=t)) for t in drifts]
        self.scales = scales
        self.log_w = prior_log_weights(len(drifts), scales)

    def _weights(self) -> list[list[float]]:
        top = max(max(row) for row in self.log_w)
        w = [[math.exp(x - top) for x in row] for row in self.log_w]
        total = sum(sum(row) for row in w)
        return [[x / total for x in row] for row in w]

    def chosen(self) -> int:
        """The copy (drift) with the largest marginal posterior weight (ties: lower drift)."""
        w = self._weights()
        return min(range(len(self.copies)), key=lambda k: (-sum(w[k]), k))

    def pair_features(self, game: GameResult) -> list[tuple[float, ...]]:
        return self.copies[self.chosen()].pair_features(game)

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        n = len(game.teams)
        ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
        w = self._weights()
        out = [0.0] * len(ij)
        for k, copy in enumerate(self.copies):
            for q, x in enumerate(copy.pair_features(game)):
                out[q] += sum(w[k][m] * probability(x, a) for m, a in enumerate(self.scales))
        return [(i, j, p) for (i, j), p in zip(ij, out)]

    def update(self, game: GameResult) -> list[Change]:
        n = len(game.teams)
        ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
        for k, copy in enumerate(self.copies):
            for (i, j), x in zip(ij, copy.pair_features(game)):
                y = game.pair_score(i, j)
                for m, a in enumerate(self.scales):
                    p = min(0.99, max(0.01, probability(x, a)))
                    self.log_w[k][m] += y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
        k = self.chosen()
        out: list[Change] = []
        # every copy's expected margin of side 0: the shipped rule that a win agrees with its
        # result (model.result_kept) reads them all
        favour = tuple(copy.pair_features(game)[0][0] for copy in self.copies) if n == 2 else ()
        for c, copy in enumerate(self.copies):
            changes = copy.update(game, favour)
            if c == k:
                out = changes
        return out

    def standing(self, player: PlayerId) -> Standing:
        return self.copies[self.chosen()].standing(player)


# -- candidate 3 (docs/ratings.md §3d): the shipped filter with its forecast self-calibrated ------

CALIBRATION_PRIOR = 100.0  # the prior's weight on slope 1 (precision of N(1, 1/100): sd 0.1)


class SelfCalibratingKalman:
    """The shipped filter, unchanged, with its forecast recalibrated by the pool's own games:
    P = Phi(s * z), z = the shipped forecast's probit argument a'd / sqrt(1 + a'^2 sum v), and s
    a one-parameter probit regression of the pool's earlier outcomes on z, shrunk to 1 (a
    Gaussian prior of precision `prior` at s = 1), fitted online by one Newton step per game with
    the expected information (assumed-density filtering): after a game with forecast q = Phi(s z)
    and outcome y, g = z phi(s z) (y - q) / (q (1 - q)), I += z^2 phi(s z)^2 / (q (1 - q)),
    s += g / I. The ratings are the shipped ones; only the forecast moves. State per pool: (s, I).
    Reads only earlier games; the same rule for every pool."""

    name = "margin-kalman-self-calibrating"

    def __init__(self, params: ModelParams, prior: float = CALIBRATION_PRIOR):
        self.model = MarginKalman(params)
        self.s = 1.0
        self.info = prior

    def _z(self, x: tuple[float, ...]) -> float:
        a = self.model.params.prob_scale
        if len(x) > 2:
            a = a * math.sqrt(x[2])
        return a * x[0] / math.sqrt(1.0 + a * a * x[1])

    def pair_features(self, game: GameResult) -> list[tuple[float, ...]]:
        return self.model.pair_features(game)

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        n = len(game.teams)
        ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
        return [(i, j, _phi_cdf(self.s * self._z(x))) for (i, j), x in zip(ij, self.pair_features(game))]

    def update(self, game: GameResult) -> list[Change]:
        n = len(game.teams)
        ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
        for (i, j), x in zip(ij, self.pair_features(game)):
            z = self._z(x)
            u = self.s * z
            q = min(max(_phi_cdf(u), 1e-6), 1.0 - 1e-6)
            dens = math.exp(-0.5 * u * u) / math.sqrt(2.0 * math.pi)
            y = game.pair_score(i, j)
            self.info += z * z * dens * dens / (q * (1.0 - q))
            self.s += z * dens * (y - q) / (q * (1.0 - q)) / self.info
        return self.model.update(game)

    def standing(self, player: PlayerId) -> Standing:
        return self.model.standing(player)


def _phi_cdf(u: float) -> float:
    return 0.5 * (1.0 + math.erf(u / math.sqrt(2.0)))
