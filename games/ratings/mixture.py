"""The shipped predictive rating (config.SYSTEM "pool-bayes-kalman/3", docs/ratings.md §3 and
§3d): the margin Kalman filter of model.py with its day drift and its full-game forecast scale
learned by each pool from its own earlier games, as a Bayesian mixture over a fixed grid
(candidate 2 of §3c, shipped 2026-11-27).

* One copy of the filter per drift in MIX_DRIFTS; every (drift, scale) pair is a hypothesis with
  a fixed prior (uniform over drifts; log-normal, sd MIX_SCALE_LOG_SD, around the former shipped
  scale 6.50 over MIX_SCALES, normalised on the grid). After each game every hypothesis' log
  weight gains the log likelihood of the pair outcomes under its own forecast (clipped to
  [0.01, 0.99] as in the bench). Nothing is tuned per history: the grids and the prior are the rule.
* Forecast (win chances, `Change.expected`, `services.forecast`): the posterior-weighted mean of
  the 36 hypotheses' forecasts, read before the game (the Bayesian predictive).
* Displayed rating: at each game, the copy whose drift has the largest marginal weight (after
  the game's weights are added, before the copies are updated; ties: lower drift) gives the four
  players' new (rating, RD). A player's shown rating is the one written at their LAST game
  (`shown`): a copy's state of a player only changes at that player's games, so the shown
  rating is that copy's current state of the player, and the incremental update and the full
  recompute write the same rows by construction.
* State: per player, each copy's (mu, var, games, last time); per pool, the 4 x 9 log weights;
  per player, the index of the copy shown. Pure Python, deterministic.
"""
from __future__ import annotations

import math
from dataclasses import replace

from .base import Change, Standing
from .model import MarginKalman, ModelParams, probability
from .types import GameResult, PlayerId

MIX_DRIFTS = (0.0, 0.001, 0.002, 0.004)
MIX_SCALES = (4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 9.0)
MIX_SCALE_CENTRE = 6.50  # the former shipped full-game scale: the prior's centre
MIX_SCALE_LOG_SD = 0.5  # the bench's prior width for every fitted slope (evaluate.fit_scale)


def prior_log_weights(n_drifts: int = len(MIX_DRIFTS), scales: tuple[float, ...] = MIX_SCALES) -> list[list[float]]:
    return [[-0.5 * (math.log(s / MIX_SCALE_CENTRE) / MIX_SCALE_LOG_SD) ** 2 for s in scales]
            for _ in range(n_drifts)]


class PoolBayesKalman:
    name = "pool-bayes-kalman"

    def __init__(self, params: ModelParams, drifts: tuple[float, ...] = MIX_DRIFTS,
                 scales: tuple[float, ...] = MIX_SCALES):
        self.params = params
        self.copies = [MarginKalman(replace(params, tau_day=t)) for t in drifts]
        self.drifts = drifts
        self.scales = scales
        self.log_w = prior_log_weights(len(drifts), scales)
        self.shown: dict[PlayerId, int] = {}  # player -> copy chosen at their last game

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
        # every hypothesis' forecast of every pair, computed once: the win chance written with
        # the game (their posterior mean, as pair_probabilities: the same sums in the same order)
        # and the weights' update (each clipped) read the same numbers
        w = self._weights()
        probs = [[[probability(x, a) for a in self.scales] for x in copy.pair_features(game)]
                 for copy in self.copies]
        mean = [0.0] * len(ij)
        for k, per_pair in enumerate(probs):
            for q, ps in enumerate(per_pair):
                mean[q] += sum(w[k][m] * p for m, p in enumerate(ps))
        expected = [0.0] * n
        for (i, j), p in zip(ij, mean):
            expected[i] += p
            expected[j] += 1.0 - p
        scores = [game.pair_score(i, j) for i, j in ij]
        log = math.log
        for k, per_pair in enumerate(probs):
            row = self.log_w[k]
            for y, ps in zip(scores, per_pair):
                for m, p in enumerate(ps):
                    p = min(0.99, max(0.01, p))
                    # a win or a loss reads one logarithm: y*log(p) + (1-y)*log(1-p) is then
                    # log(p) + -0.0 (or -0.0 + log(1-p)), the same float, at half the cost
                    if y == 1.0:
                        row[m] += log(p)
                    elif y == 0.0:
                        row[m] += log(1.0 - p)
                    else:
                        row[m] += y * log(p) + (1.0 - y) * log(1.0 - p)
        k = self.chosen()
        out: list[Change] = []
        for c, copy in enumerate(self.copies):
            changes = copy.update(game)
            if c == k:
                out = changes
        side = {pl: i for i, team in enumerate(game.teams) for pl in team}
        extra = float(max(n - 1, 1))
        for pl in side:
            self.shown[pl] = k
        return [c._replace(expected=expected[side[c.player]] / extra) for c in out]

    def standing(self, player: PlayerId) -> Standing:
        return self.copies[self.shown.get(player, 0)].standing(player)

    # -- storage (services.py) -------------------------------------------------------------------
    def player_copies(self, player: PlayerId) -> list[list[float]]:
        """[[mu, var, last time] per copy] of a rated player (PlayerRating.copies)."""
        return [[c.state[player][0], c.state[player][1], c.state[player][3]] for c in self.copies]

    def load_player(self, player: PlayerId, copies: list, games: int, shown: int = 0) -> None:
        for c, (mu, var, last) in zip(self.copies, copies):
            c.state[player] = [mu, var, games, last]
        self.shown[player] = shown
