"""Rival systems for the bench (docs/ratings.md section 5): team Elo with a fitted slope,
Glicko-2 (composite opponent), TrueSkill, openskill (Weng-Lin PlackettLuce), a fixed-gain Elo
on point margins, and the constant 50%.

Every rival offers `pair_features(game) -> [(z, L)]`: z is the system's own forecast on the
logit scale (its probability is logistic(z)), L the game's length as a share of a full game
(model.length_ratio, the same for every system). The bench turns them into a forecast with
`calibrated(x, s) = logistic(s * z * sqrt(L))` and fits s on the tuning window, exactly as the
chosen model's scale is fitted: every system gets the same information and the same budget.

openskill and trueskill are development dependencies (pyproject [dev]); they are imported
lazily so that the service itself never needs them.
"""

from __future__ import annotations

import math

from games import engine
from games.ratings.base import Change, Standing
from games.ratings.elo import EloParams, TeamElo
from games.ratings.model import length_ratio
from games.ratings.types import GameResult, PlayerId

from . import glicko2

LOGISTIC_PROBIT = 1.702  # logistic(1.702 x) ~ Phi(x)
NANKING_TARGET = float(engine.game_info("nanking").target or 0)  # the score that ends a game
FULL_HANDS = 16.0


def calibrated(x: tuple[float, ...], s: float) -> float:
    """logistic(s * z * sqrt(L)) from features (z, L) (or (z,): L = 1)."""
    z = s * x[0] * (math.sqrt(x[1]) if len(x) > 1 else 1.0)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _pairs_of(values: list[float], lr: float) -> list[tuple[float, float]]:
    n = len(values)
    return [(values[i] - values[j], lr) for i in range(n) for j in range(i + 1, n)]


def _pair_probs(system, game: GameResult) -> list[tuple[int, int, float]]:
    n = len(game.teams)
    ij = [(i, j) for i in range(n) for j in range(i + 1, n)]
    return [(i, j, calibrated(x, 1.0)) for (i, j), x in zip(ij, system.pair_features(game))]


def logistic(x: tuple[float, ...], b: float) -> float:
    z = b * x[0]
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


class OpenSkill:
    """openskill PlackettLuce with its own `predict_win` (raw) or, through `pair_features`
    (z = 1.702 * sum-of-mu difference / sqrt(n beta^2 + sum sigma^2), TrueSkill's documented win
    probability on the logit scale) and a fitted slope."""

    name = "openskill-pl"

    def __init__(self, target: float | None = NANKING_TARGET, full_hands: float = FULL_HANDS, **model_kw):
        from openskill.models import PlackettLuce

        self.model = PlackettLuce(**model_kw)
        self.beta = self.model.beta
        self.target, self.full_hands = target, full_hands
        self.ratings: dict[PlayerId, object] = {}
        self.games: dict[PlayerId, int] = {}

    def _r(self, p: PlayerId):
        r = self.ratings.get(p)
        if r is None:
            r = self.model.rating(name=str(p))
            self.ratings[p] = r
        return r

    def pair_features(self, game: GameResult) -> list[tuple[float, float]]:
        teams = [[self._r(p) for p in t] for t in game.teams]
        lr = length_ratio(game, self.target, self.full_hands)
        out = []
        for i in range(len(teams)):
            for j in range(i + 1, len(teams)):
                rs = teams[i] + teams[j]
                d = sum(r.mu for r in teams[i]) - sum(r.mu for r in teams[j])
                den = math.sqrt(len(rs) * self.beta**2 + sum(r.sigma**2 for r in rs))
                out.append((LOGISTIC_PROBIT * d / den, lr))
        return out

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
                changes.append(
                    Change(game.game_id, p, before[p][0], r.mu, before[p][1], r.sigma, float("nan"), float("nan"), g)
                )
        return changes

    def standing(self, player: PlayerId) -> Standing:
        r = self._r(player)
        return Standing(player, r.mu, r.sigma, self.games.get(player, 0), False)


class CalibratedElo(TeamElo):
    """Team Elo (games.ratings.elo.TeamElo) whose forecast can be re-scaled: z = ln10/400 *
    (mean rating difference), so slope 1 is Elo's own forecast."""

    name = "team-elo"

    def __init__(self, k: float = 32.0, target: float | None = NANKING_TARGET, full_hands: float = FULL_HANDS):
        super().__init__(EloParams(k=k))
        self.target, self.full_hands = target, full_hands

    def pair_features(self, game: GameResult) -> list[tuple[float, float]]:
        c = math.log(10.0) / self.params.scale
        return _pairs_of([c * self._side(t) for t in game.teams], length_ratio(game, self.target, self.full_hands))


class TeamGlicko2:
    """Glicko-2 (bench.ratings_lab.glicko2) for sides: every game is one rating period (lichess), and
    each player is rated against a composite opponent per opposing side (its players' mean
    rating, root-mean-square RD and mean volatility). Forecast: z = g(phi) (mu_0 - mu_1) on the
    sides' mean mu, phi = sqrt(phi_0^2 + phi_1^2) with phi_k the side's RMS deviation."""

    name = "glicko2"

    def __init__(
        self,
        tau: float = 0.5,
        rd: float = 350.0,
        vol: float = 0.06,
        target: float | None = NANKING_TARGET,
        full_hands: float = FULL_HANDS,
    ):
        self.tau, self.start = tau, glicko2.Glicko2Rating(1500.0, rd, vol)
        self.target, self.full_hands = target, full_hands
        self.ratings: dict[PlayerId, glicko2.Glicko2Rating] = {}
        self.games: dict[PlayerId, int] = {}

    def _composite(self, team) -> glicko2.Glicko2Rating:
        rs = [self.ratings.get(p, self.start) for p in team]
        n = len(rs)
        return glicko2.Glicko2Rating(
            sum(r.rating for r in rs) / n, math.sqrt(sum(r.rd * r.rd for r in rs) / n), sum(r.vol for r in rs) / n
        )

    def pair_features(self, game: GameResult) -> list[tuple[float, float]]:
        comps = [self._composite(t) for t in game.teams]
        lr = length_ratio(game, self.target, self.full_hands)
        n = len(comps)
        out = []
        for i in range(n):
            for j in range(i + 1, n):
                phi = math.hypot(comps[i].phi, comps[j].phi)
                out.append((glicko2.g(phi) * (comps[i].mu - comps[j].mu), lr))
        return out

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        return _pair_probs(self, game)

    def update(self, game: GameResult) -> list[Change]:
        comps = [self._composite(t) for t in game.teams]
        n = len(game.teams)
        changes = []
        new = {}
        for i, team in enumerate(game.teams):
            results = [(comps[j], game.pair_score(i, j)) for j in range(n) if j != i]
            for p in team:
                before = self.ratings.get(p, self.start)
                new[p] = (before, glicko2.rate(before, results, self.tau))
        for p, (before, after) in new.items():
            self.ratings[p] = after
            g = self.games.get(p, 0) + 1
            self.games[p] = g
            changes.append(
                Change(game.game_id, p, before.rating, after.rating, before.rd, after.rd, float("nan"), float("nan"), g)
            )
        return changes

    def standing(self, player: PlayerId) -> Standing:
        r = self.ratings.get(player, self.start)
        return Standing(player, r.rating, r.rd, self.games.get(player, 0), False)


class TrueSkillTeams:
    """TrueSkill (the `trueskill` package, sublee, 0.4.5) with the win probability from its
    documentation: Phi(sum-mu difference / sqrt(n beta^2 + sum sigma^2)), here as z = 1.702 * that
    argument on the logit scale. Draws (equal ranks) use a 1% draw probability."""

    name = "trueskill"

    def __init__(
        self,
        beta: float = 25.0 / 6.0,
        tau: float = 25.0 / 300.0,
        target: float | None = NANKING_TARGET,
        full_hands: float = FULL_HANDS,
    ):
        import trueskill

        self.env = trueskill.TrueSkill(mu=25.0, sigma=25.0 / 3.0, beta=beta, tau=tau, draw_probability=0.01)
        self.target, self.full_hands = target, full_hands
        self.ratings: dict[PlayerId, object] = {}
        self.games: dict[PlayerId, int] = {}

    def _r(self, p: PlayerId):
        r = self.ratings.get(p)
        if r is None:
            r = self.ratings[p] = self.env.create_rating()
        return r

    def pair_features(self, game: GameResult) -> list[tuple[float, float]]:
        teams = [[self._r(p) for p in t] for t in game.teams]
        lr = length_ratio(game, self.target, self.full_hands)
        b2 = self.env.beta**2
        out = []
        for i in range(len(teams)):
            for j in range(i + 1, len(teams)):
                rs = teams[i] + teams[j]
                d = sum(r.mu for r in teams[i]) - sum(r.mu for r in teams[j])
                out.append((LOGISTIC_PROBIT * d / math.sqrt(len(rs) * b2 + sum(r.sigma**2 for r in rs)), lr))
        return out

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        return _pair_probs(self, game)

    def update(self, game: GameResult) -> list[Change]:
        groups = [tuple(self._r(p) for p in t) for t in game.teams]
        before = {p: self._r(p) for t in game.teams for p in t}
        new = self.env.rate(groups, ranks=list(game.ranks))
        changes = []
        for t, nt in zip(game.teams, new):
            for p, r in zip(t, nt):
                self.ratings[p] = r
                g = self.games.get(p, 0) + 1
                self.games[p] = g
                changes.append(
                    Change(game.game_id, p, before[p].mu, r.mu, before[p].sigma, r.sigma, float("nan"), float("nan"), g)
                )
        return changes

    def standing(self, player: PlayerId) -> Standing:
        r = self._r(player)
        return Standing(player, r.mu, r.sigma, self.games.get(player, 0), False)


class MarginElo:
    """A fixed-gain Elo on point margins: each player has r (side strength = sum of r, in units of
    hand_sd per hand, like the chosen model's mu); the observed y = mean per-hand margin / hand_sd
    (each hand clipped to +-clip when hand lines exist, as the chosen model reads a sheet) and
    every player of a side moves by k * (L) * (y - expected margin), L = hands / full_hands (a
    full game moves k, a short one less). No deviation: the gain never shrinks. Forecast:
    z = 1.702 * sqrt(full_hands) * expected margin (the chance of being ahead after a full game
    with a per-hand spread of one hand_sd), slope fitted."""

    name = "margin-elo"

    def __init__(
        self,
        k: float = 0.016,
        clip: float = 2.0,
        hand_sd: float = 200.0,
        target: float | None = NANKING_TARGET,
        full_hands: float = FULL_HANDS,
    ):
        self.k, self.clip, self.hand_sd = k, clip, hand_sd
        self.target, self.full_hands = target, full_hands
        self.ratings: dict[PlayerId, float] = {}
        self.games: dict[PlayerId, int] = {}

    def _side(self, team) -> float:
        return sum(self.ratings.get(p, 0.0) for p in team)

    def pair_features(self, game: GameResult) -> list[tuple[float, float]]:
        c = LOGISTIC_PROBIT * math.sqrt(self.full_hands)
        return _pairs_of([c * self._side(t) for t in game.teams], length_ratio(game, self.target, self.full_hands))

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        return _pair_probs(self, game)

    def _y(self, game: GameResult, i: int, j: int) -> float:
        c = self.clip
        if game.hand_details and len(game.teams) == 2:
            tot = 0.0
            for h in game.hand_details:
                m = (h.points[0] - h.points[1]) / self.hand_sd
                tot += c if m > c else -c if m < -c else m
            return tot / len(game.hand_details)
        margin = game.pair_margin(i, j)
        if margin is None:
            return 2.0 * game.pair_score(i, j) - 1.0
        y = margin / (max(game.hands, 1) * self.hand_sd)
        return c if y > c else -c if y < -c else y

    def update(self, game: GameResult) -> list[Change]:
        n = len(game.teams)
        sides = [self._side(t) for t in game.teams]
        gain = self.k * max(game.hands, 1) / self.full_hands / (n - 1)
        delta = [0.0] * n
        for i in range(n):
            for j in range(i + 1, n):
                e = gain * (self._y(game, i, j) - (sides[i] - sides[j]))
                delta[i] += e
                delta[j] -= e
        changes = []
        for i, t in enumerate(game.teams):
            for p in t:
                before = self.ratings.get(p, 0.0)
                self.ratings[p] = before + delta[i]
                g = self.games.get(p, 0) + 1
                self.games[p] = g
                changes.append(
                    Change(game.game_id, p, before, before + delta[i], 0.0, 0.0, float("nan"), float("nan"), g)
                )
        return changes

    def standing(self, player: PlayerId) -> Standing:
        return Standing(player, self.ratings.get(player, 0.0), 0.0, self.games.get(player, 0), False)


class Constant:
    name = "constant-50"

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        n = len(game.teams)
        return [(i, j, 0.5) for i in range(n) for j in range(i + 1, n)]

    def update(self, game: GameResult) -> list[Change]:
        return []

    def standing(self, player: PlayerId) -> Standing:
        return Standing(player, 0.0, 0.0, 0, True)
