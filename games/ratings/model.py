"""The filter of the shipped rating (every copy in mixture.py; alone, the former shipped model
margin-kalman/2): "margin Kalman", a Glicko-like Gaussian rating on points per hand.

Why (see docs/ratings.md for the measurements): in Tichu the score sheet says much more than
who won. A game is a sequence of hands, each with a point margin; the final margin over n hands
is a noisy measurement of the difference of the two partnerships' strengths, and its noise falls
as 1/n. A win by 5 points after 3 hands says almost nothing; a 900-point margin over 8 hands says
a lot. So the model is a linear-Gaussian state-space model (a Kalman filter, i.e. TrueSkill with a
Gaussian margin likelihood, which has an exact closed-form update):

* Every player i has a skill belief N(mu_i, v_i), in units of the variant's per-hand point spread
  (`hand_sd`, 200 points in Nanking): mu_i is the player's contribution to their side's expected
  point margin per hand. A side's strength is the *sum* of its players' mu.
* Before a game every player's variance grows by tau_game^2 (+ tau_day^2 per idle day): skills
  drift, and a player back after a long break becomes uncertain again.
* Observation of a two-side game: y = mean per-hand margin / hand_sd (hand by hand, each hand
  clipped to +-hand_clip, when per-hand lines are known; else the final margin / hands), with
  noise variance obs_var / hands. The update is the exact Kalman step with
  H = (+1 for side 0, -1 for side 1): S = sum v + obs_var/n, mu_i += +-v_i (y - d)/S,
  v_i -= v_i^2 / S. More hands -> smaller noise -> larger, surer updates; the variance v_i
  (the rating deviation) shrinks with every game and tells a newcomer from a regular.
* Win probability (what the league page shows and the bench scores):
  P(side 0 wins) = Phi(a * d / sqrt(1 + a^2 * sum v)), d = sum mu_0 - sum mu_1, with
  a = prob_scale * sqrt(L): L is the game's length as a share of a full game (`length_ratio`:
  1 for a game played to the target, hands / full_hands for one stopped early), because the
  margin's noise grows with the hands and its signal with their square (natural_scale). The
  full-game scale `prob_scale` is fitted by log loss on earlier games only; the sum v term is Glicko's g(RD): the
  more uncertain the ratings, the closer to 50% the forecast (calibration, not overconfidence).
* More than two sides (Grand Seigneur, Threechu's three real players): every pair is a virtual
  two-side game on the pair's margin (or +-1 from the ranking when no scores are known) with its
  noise multiplied by (N - 1), applied pair by pair in index order (deterministic).
* Display: rating = 1500 + c * mu with c chosen so that a 100-point gap between two sides' *mean*
  ratings means about the same win chance as in Elo (64%); RD = c * sqrt(v). Provisional ("?")
  while RD > 75% of a newcomer's RD or games < 10.
* Limitation: each player keeps only their own variance (no covariance between partners), so a
  pair that always plays together is not recognised as "known as a pair only" (EBU's fixed
  partnership problem); both partners' RDs shrink as if their partners varied.

Pure Python, deterministic, no randomness: the same games in the same order give bit-identical
ratings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .base import Change, Standing

# the observation's rules live in rating_steps (compiled with the rating loop's 2v2 step)
from .rating_steps import length_ratio, observation_of, result_kept
from .types import GameResult, PlayerId, pairs

SQRT2 = math.sqrt(2.0)
LOGISTIC_PROBIT = 1.702  # logistic(1.702 x) ~ Phi(x)


@dataclass(frozen=True)
class ModelParams:
    hand_sd: float = 200.0  # points: the per-hand spread of the variant's score sheet
    hand_clip: float = 2.0  # a single hand's margin counts at most +-2 hand_sd
    prior_var: float = 0.01  # newcomer's skill variance (sd 0.1 hand_sd = 20 points per hand)
    obs_var: float = 1.0  # noise of one hand's (normalised) margin
    tau_game: float = 0.0  # skill drift per game (sd)
    tau_day: float = 0.002  # skill drift per idle day (sd per sqrt(day))
    prob_scale: float = 3.0  # `a` of a full-length game, fitted by log loss on earlier games
    full_hands: float = 16.0  # hands of a full game (to `target`): the length prob_scale is for
    target: float | None = None  # score that ends a full game; None: every game counts as full
    rank_margin: float = 1.0  # pseudo-margin of a won pair when only a ranking is known
    team_size: int = 2  # for the display scale
    initial: float = 1500.0
    provisional_rd_ratio: float = 0.75  # provisional while RD > 75% of a newcomer's RD
    provisional_games: int = 10

    @property
    def display_scale(self) -> float:
        # mean-rating gap G between sides of k players -> d = k*G/c; Elo: logistic(ln10/400*G)
        # ~ Phi(a*d) = logistic(1.702*a*k*G/c)  =>  c = 1.702*a*k*400/ln10
        return LOGISTIC_PROBIT * self.prob_scale * self.team_size * 400.0 / math.log(10.0)


def natural_scale(mean_hands: float, obs_var: float = 1.0) -> float:
    """The scale `a` the model itself implies for games of `mean_hands` hands.

    A game's margin over H hands is H*d plus noise of variance H*obs_var (the observation model
    above), and the skills add H^2*sum v, so P(side 0 ahead) = Phi(H d / sqrt(H obs_var + H^2 sum v))
    = Phi(a d / sqrt(1 + a^2 sum v)) with a = sqrt(H / obs_var). The bench centres its fit of `a`
    here (evaluate.fit_scale's prior); the fitted value ends higher when the filter's shrunken
    mu understate the true differences.
    """
    return math.sqrt(max(mean_hands, 1.0) / obs_var)


def probability(x: tuple[float, ...], a: float) -> float:
    """P(side ahead) from features (d, sum v[, length ratio L]) and the full-game scale a:
    Phi(a' d / sqrt(1 + a'^2 sum v)) with a' = a * sqrt(L) (natural_scale: the scale grows with
    the square root of the number of hands; L = the game's length / a full game's)."""
    d, sv = x[0], x[1]
    if len(x) > 2:
        a = a * math.sqrt(x[2])
    z = a * d / math.sqrt(1.0 + a * a * sv)
    return 0.5 * (1.0 + math.erf(z / SQRT2))


def observation(p: ModelParams, game: GameResult, i: int, j: int) -> tuple[float, float]:
    """(y, noise variance) of side i against side j, normalised per hand: the filter's
    measurement (every copy of mixture.py reads the same one; rating_steps.observation_of)."""
    return observation_of(game, i, j, p.hand_sd, p.hand_clip, p.obs_var, p.rank_margin)


class MarginKalman:
    name = "margin-kalman"

    def __init__(self, params: ModelParams | None = None):
        self.params = params or ModelParams()
        # player -> [mu, var, games, last finished_at]
        self.state: dict[PlayerId, list] = {}

    # -- internals -------------------------------------------------------------------------
    def length_ratio(self, game: GameResult) -> float:
        """The game's length as a share of a full game, for the forecast's scale.

        A game that ended at the target (or any game when no target is set) is a full game:
        ratio 1, whatever its number of hands (a one-sided game reaching 1000 in 9 hands was
        still played as a full game; using its hands would peek at the result). A game stopped
        before either side reached the target (a lunch game of a few hands, a sheet abandoned)
        is as long as the hands it has: fewer hands, less said about skill, a forecast nearer 50%.
        """
        return length_ratio(game, self.params.target, self.params.full_hands)

    def _pre(self, player: PlayerId, t: float) -> tuple[float, float]:
        """(mu, var) of a player just before a game at time t (drift applied, not stored)."""
        p = self.params
        st = self.state.get(player)
        if st is None:
            return 0.0, p.prior_var
        mu, var, _, last = st
        var += p.tau_game * p.tau_game
        if p.tau_day and t > last:
            var += p.tau_day * p.tau_day * (t - last) / 86400.0
        if var > p.prior_var:
            var = p.prior_var
        return mu, var

    # -- the RatingSystem interface -----------------------------------------------------------
    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        a = self.params.prob_scale
        return [(i, j, probability(x, a)) for (i, j), x in zip(pairs(len(game.teams)), self.pair_features(game))]

    def pair_features(self, game: GameResult) -> list[tuple[float, float, float]]:
        """(d, sum v, length ratio) per pair: what `probability` turns into a forecast for a given scale."""
        t = game.finished_at
        lr = self.length_ratio(game)
        pre = [[self._pre(pl, t) for pl in team] for team in game.teams]
        sums = [(sum(m for m, _ in s), sum(v for _, v in s)) for s in pre]
        n = len(sums)
        return [(sums[i][0] - sums[j][0], sums[i][1] + sums[j][1], lr) for i in range(n) for j in range(i + 1, n)]

    def win_probability(self, game: GameResult) -> float:
        return self.pair_probabilities(game)[0][2]

    def update(self, game: GameResult, favour: tuple[float, ...] | None = None) -> list[Change]:
        """Apply a game. `favour`: None, the former model margin-kalman/2 (the margin read as
        observed); else the shipped mixture's rule (result_kept): every pair's margin agrees with
        its result, and in a two-side game `favour` is every copy's expected margin of side 0."""
        p = self.params
        t = game.finished_at
        teams = game.teams
        n = len(teams)
        cur = {pl: list(self._pre(pl, t)) for team in teams for pl in team}
        before = {pl: (cur[pl][0], cur[pl][1]) for pl in cur}
        expected = [0.0] * n
        actual = [0.0] * n
        extra = float(n - 1)
        lr = self.length_ratio(game)
        for i in range(n):
            for j in range(i + 1, n):
                ti, tj = teams[i], teams[j]
                d = sum(cur[pl][0] for pl in ti) - sum(cur[pl][0] for pl in tj)
                sv = sum(cur[pl][1] for pl in ti) + sum(cur[pl][1] for pl in tj)
                e = probability((d, sv, lr), p.prob_scale)
                s = game.pair_score(i, j)
                expected[i] += e
                expected[j] += 1.0 - e
                actual[i] += s
                actual[j] += 1.0 - s
                y, r = observation(p, game, i, j)
                if favour is not None:
                    y = result_kept(y, s, favour if n == 2 else ())
                S = sv + r * extra
                innov = (y - d) / S
                for pl in ti:
                    c = cur[pl]
                    c[0] += c[1] * innov
                    c[1] -= c[1] * c[1] / S
                for pl in tj:
                    c = cur[pl]
                    c[0] -= c[1] * innov
                    c[1] -= c[1] * c[1] / S
        scale = p.display_scale
        changes = []
        for i, team in enumerate(teams):
            for pl in team:
                mu0, v0 = before[pl]
                mu1, v1 = cur[pl]
                st = self.state.get(pl)
                g = (st[2] if st else 0) + 1
                self.state[pl] = [mu1, v1, g, t]
                changes.append(
                    Change(
                        game.game_id,
                        pl,
                        p.initial + scale * mu0,
                        p.initial + scale * mu1,
                        scale * math.sqrt(v0),
                        scale * math.sqrt(v1),
                        expected[i] / extra,
                        actual[i] / extra,
                        g,
                    )
                )
        return changes

    def standing(self, player: PlayerId, at: float | None = None) -> Standing:
        p = self.params
        st = self.state.get(player)
        if st is None:
            mu, var, g = 0.0, p.prior_var, 0
        else:
            mu, var, g = st[0], st[1], st[2]
            if at is not None:
                mu, var = self._pre(player, at)
        rd = p.display_scale * math.sqrt(var)
        return Standing(
            player,
            p.initial + p.display_scale * mu,
            rd,
            g,
            var > p.prior_var * p.provisional_rd_ratio**2 or g < p.provisional_games,
        )
