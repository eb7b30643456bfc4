"""Reference systems for the bench: openskill (Weng-Lin PlackettLuce) and the constant 50%.

openskill is a development dependency (pyproject [dev]); it is imported lazily so that the
service itself never needs it.
"""
from __future__ import annotations

import math

from .base import Change, Standing
from .types import GameResult, PlayerId


def logistic(x: tuple[float, ...], b: float) -> float:
    z = b * x[0]
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class OpenSkill:
    """openskill PlackettLuce with its own `predict_win` (raw) or, through `pair_features`
    (sum of mu difference) and evaluate.fit_scale, a fitted logistic win probability."""

    name = "openskill-pl"

    def __init__(self, **model_kw):
        from openskill.models import PlackettLuce

        self.model = PlackettLuce(**model_kw)
        self.ratings: dict[PlayerId, object] = {}
        self.games: dict[PlayerId, int] = {}

    def _r(self, p: PlayerId):
        r = self.ratings.get(p)
        if r is None:
            r = self.model.rating(name=str(p))
            self.ratings[p] = r
        return r

    def pair_features(self, game: GameResult) -> list[tuple[float]]:
        sums = [sum(self._r(p).mu for p in t) for t in game.teams]
        n = len(sums)
        return [(sums[i] - sums[j],) for i in range(n) for j in range(i + 1, n)]

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        n = len(game.teams)
        out = []
        for i in range(n):
            for j in range(i + 1, n):
                ti = [self._r(p) for p in game.teams[i]]
                tj = [self._r(p) for p in game.teams[j]]
                out.append((i, j, self.model.predict_win([ti, tj])[0]))
        return out

    def update(self, game: GameResult) -> list[Change]:
        teams = [[self._r(p) for p in t] for t in game.teams]
        before = {p: (self._r(p).mu, self._r(p).sigma) for t in game.teams for p in t}
        new = self.model.rate(teams, ranks=list(game.ranks))
        changes = []
        for t, nt in zip(game.teams, new):
            for p, r in zip(t, nt):
                self.ratings[p] = r
                g = self.games.get(p, 0) + 1
                self.games[p] = g
                changes.append(Change(game.game_id, p, before[p][0], r.mu, before[p][1], r.sigma,
                                      float("nan"), float("nan"), g))
        return changes

    def standing(self, player: PlayerId) -> Standing:
        r = self._r(player)
        return Standing(player, r.mu, r.sigma, self.games.get(player, 0), False)


class Constant:
    name = "constant-50"

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        n = len(game.teams)
        return [(i, j, 0.5) for i in range(n) for j in range(i + 1, n)]

    def update(self, game: GameResult) -> list[Change]:
        return []

    def standing(self, player: PlayerId) -> Standing:
        return Standing(player, 0.0, 0.0, 0, True)
