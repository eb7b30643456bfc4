"""The shipped predictive rating (config.SYSTEM "pool-bayes-kalman/6", docs/ratings.md §3): the
margin Kalman filter of model.py with its day drift and its full-game forecast scale learned by
each pool from its own earlier games, as a Bayesian mixture over a fixed grid (candidate 2 of
§3c; `candidates.PoolBayesKalman` is its plain reference implementation, and the tests hold this
one to it).

* One copy of the filter per drift in MIX_DRIFTS; every (drift, scale) pair is a hypothesis with
  a fixed prior (uniform over drifts; log-normal, sd MIX_SCALE_LOG_SD, around the former shipped
  scale 6.50 over MIX_SCALES). After each game every hypothesis' log weight gains the log
  likelihood of the pair outcomes under its own forecast (clipped to [0.01, 0.99] as in the
  bench). Nothing is tuned per history: the grids and the prior are the rule.
* Forecast (win chances, `Change.expected`, `forecast`): the posterior-weighted mean of the 63
  hypotheses' forecasts, read before the game (the Bayesian predictive).
* Displayed rating: at each game, the copy whose drift has the largest marginal weight (after
  the game's weights are added; ties: lower drift) gives the players' new (rating, RD). A
  player's shown rating is the one written at their LAST game (`shown`): a copy's state of a
  player only changes at that player's games, so the incremental update and the full recompute
  write the same rows by construction.

Why it is built in two halves (speed: issue #8's rating loop faster than openskill's rate()):
the copies' filter updates never read the weights, so a block of games is first run through the
seven filters (`_filter`; the usual 2v2 game through rating_steps.TwoByTwoStep, plain typed
Python that the build compiles with mypyc, and the rest in plain Python), and the 63 hypotheses' forecasts, log likelihoods,
cumulative weights and the copy shown are then computed for the whole block at once with numpy
(`_mix`). `update` is a block of one game and `update_many` takes blocks of BLOCK games; every
step of `_mix` is element-wise, a running sum along the games, or a sum over a row done column by
column, so a game's numbers do not depend on the block it was computed in (tested: one game at a
time and a whole history in blocks write identical changes).
"""

from __future__ import annotations

import math
from typing import Iterable, Iterator, Sequence

import numpy as np

from .base import Change, Standing
from .model import ModelParams, length_ratio, observation, result_kept
from .rating_steps import NO_DRIFT, Block, TwoByTwoStep, block_changes
from .types import GameResult, PlayerId

# day drifts (sd of a skill's change per sqrt(idle day), in hand_sd): the four of /5 and three more,
# doubling up to 8x /5's fastest, so that a club drifting four times faster than /5 could say is
# estimated inside the grid, not held at its top (issue 35 item 5; tests/ratings/test_mixture.py)
MIX_DRIFTS = (0.0, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032)
PREVIOUS_DRIFTS = (0.0, 0.001, 0.002, 0.004)  # pool-bayes-kalman/5's grid
MIX_SCALES = (4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 9.0)
MIX_SCALE_CENTRE = 6.50  # the former shipped full-game scale: the prior's centre
MIX_SCALE_LOG_SD = 0.5  # the bench's prior width for every fitted slope (evaluate.fit_scale)
CLIP = (0.01, 0.99)  # a hypothesis' forecast as the bench scores it: never certain
# games per numpy block in update_many: speed and memory, not results, depend on it. 128: a block's
# arrays (rows x 63 hypotheses) and the states it touches stay in the cache; measured beside 512,
# 256, 64 and 32 in the same process, 128 was fastest (1.78x openskill against 512's 1.26x, 64's
# 1.64x; docs/speed.md "the rating loop compiled")
BLOCK = 128


def prior_log_weights(n_drifts: int = len(MIX_DRIFTS), scales: tuple[float, ...] = MIX_SCALES) -> list[list[float]]:
    return [[-0.5 * (math.log(s / MIX_SCALE_CENTRE) / MIX_SCALE_LOG_SD) ** 2 for s in scales] for _ in range(n_drifts)]


def _row_sums(x: np.ndarray) -> np.ndarray:
    """Sums over the last axis, column by column: the same additions in the same order for a
    block of one row or of many (np.sum's pairwise order is numpy's to choose)."""
    out = x[..., 0].copy()
    for m in range(1, x.shape[-1]):
        out += x[..., m]
    return out


class PoolBayesKalman:
    name = "pool-bayes-kalman"

    def __init__(
        self, params: ModelParams, drifts: tuple[float, ...] = MIX_DRIFTS, scales: tuple[float, ...] = MIX_SCALES
    ):
        self.params = params
        self.drifts = tuple(drifts)
        self.scales = tuple(scales)
        # a copy's variance grows by drift^2 per idle day (as model.MarginKalman._pre), per second here
        self._drift_per_second = [t * t / 86400.0 for t in self.drifts]
        self._newcomer = ((0.0,) * len(self.drifts), (params.prior_var,) * len(self.drifts))
        self._scale_arr = np.array(self.scales)
        self._lw = np.array(prior_log_weights(len(self.drifts), self.scales)).ravel()
        self._step = TwoByTwoStep(
            tuple(self._drift_per_second),
            float(params.prior_var),
            params.tau_game * params.tau_game,
            params.hand_sd,
            params.hand_clip,
            params.obs_var,
            params.rank_margin,
            params.target,
            params.full_hands,
        )
        # player -> (games, last finished_at, (mu per copy), (var per copy)): tuples of numbers,
        # which the cyclic garbage collector stops walking once it has seen them
        self.state: dict[PlayerId, tuple] = {}
        self.shown: dict[PlayerId, int] = {}  # player -> copy chosen at their last game

    # -- the pool's weights (stored as RatingPool.log_weights: one row of scales per drift) -------
    @property
    def log_w(self) -> list[list[float]]:
        m = len(self.scales)
        flat = self._lw.tolist()
        return [flat[k * m : (k + 1) * m] for k in range(len(self.drifts))]

    @log_w.setter
    def log_w(self, rows: list[list[float]]) -> None:
        self._lw = np.array(rows, dtype=float).ravel()

    def chosen(self) -> int:
        """The copy (drift) with the largest marginal posterior weight now (ties: lower drift)."""
        return int(self._chosen(self._lw[None, :])[0])

    def _chosen(self, lw: np.ndarray) -> np.ndarray:
        return self._shown_of(np.exp(lw - lw.max(axis=1, keepdims=True)))

    def _shown_of(self, e: np.ndarray) -> np.ndarray:
        """The copy with the largest marginal weight per row of exp(log weights - the row's max)."""
        e = e.reshape(len(e), len(self.drifts), len(self.scales))
        return np.argmax(_row_sums(e), axis=1)  # argmax: the first of equal maxima, the lower drift

    # -- the filters (plain Python: the per-game part) -------------------------------------------
    def _pre(self, players: tuple, t: float) -> tuple[list[tuple], list[tuple]]:
        """Every copy's (mu, var) of `players` just before a game at time t (drift applied as in
        model.MarginKalman._pre), copy by copy: ([mu of each player] per copy, [var ...] per copy)."""
        p = self.params
        prior = p.prior_var
        tg2 = p.tau_game * p.tau_game
        per_second = self._drift_per_second
        zeros, priors = self._newcomer
        rows_m: list[Sequence[float]] = []
        rows_v: list[Sequence[float]] = []
        get = self.state.get
        for pl in players:
            st = get(pl)
            if st is None:
                rows_m.append(zeros)
                rows_v.append(priors)
                continue
            dt = t - st[1]
            if dt < 0.0:
                dt = 0.0  # a game filed out of order: no drift backwards
            rows_m.append(st[2])
            rows_v.append([prior if (x := v + tg2 + c * dt) > prior else x for v, c in zip(st[3], per_second)])
        return list(zip(*rows_m)), list(zip(*rows_v))

    @staticmethod
    def _slices(game: GameResult) -> list[slice]:
        out, at = [], 0
        for team in game.teams:
            out.append(slice(at, at + len(team)))
            at += len(team)
        return out

    def _features(self, game: GameResult, block: Block, pre_m, pre_v, sides: list[slice]) -> None:
        """Every pair's pre-game (d, sum v) of every copy, appended to the block's rows."""
        lr = length_ratio(game, self.params.target, self.params.full_hands)
        n = len(sides)
        for i in range(n):
            si = sides[i]
            for j in range(i + 1, n):
                sj = sides[j]
                for m, v in zip(pre_m, pre_v):
                    block.d.append(sum(m[si]) - sum(m[sj]))
                    block.sv.append(sum(v[si]) + sum(v[sj]))
                block.lr.append(lr)
                block.y.append(game.pair_score(i, j))

    def _filter(self, game: GameResult, block: Block) -> None:
        """Apply the game to every copy of the filter (model.MarginKalman.update's Kalman steps,
        pair by pair in index order) and record what the mixture and the changes need."""
        self._step.fill(self.state, iter((game,)), 1, block, self._filter_other)

    def _filter_other(self, game: GameResult, block: Block) -> None:
        """_filter of a game other than the usual 2v2 (whose step is rating_steps's); its first
        row and first player are recorded (TwoByTwoStep.fill)."""
        t = game.finished_at
        teams = game.teams
        p = self.params
        players = tuple(pl for team in teams for pl in team)
        sides = self._slices(game)
        pre_m, pre_v = self._pre(players, t)
        if len(sides) == 2:
            # two sides of other sizes (1 v 1, 3 v 3): one pair, its features and the Kalman step
            # per copy in one pass (the same operations as _features and the general loop below)
            y, r = observation(p, game, 0, 1)
            s0, s1 = sides
            favour = tuple(sum(m[s0]) - sum(m[s1]) for m in pre_m)
            y = result_kept(y, game.pair_score(0, 1), favour)
            post_m: list[Sequence[float]] = []
            post_v: list[Sequence[float]] = []
            bd, bsv = block.d, block.sv
            for m, v in zip(pre_m, pre_v):
                d = sum(m[s0]) - sum(m[s1])
                sv = sum(v[s0]) + sum(v[s1])
                S = sv + r
                innov = (y - d) / S
                post_m.append(
                    [a + b * innov for a, b in zip(m[s0], v[s0])] + [a - b * innov for a, b in zip(m[s1], v[s1])]
                )
                post_v.append([b - b * b / S for b in v])
                bd.append(d)
                bsv.append(sv)
            block.lr.append(length_ratio(game, p.target, p.full_hands))
            block.y.append(game.pair_score(0, 1))
        else:
            self._features(game, block, pre_m, pre_v, sides)
            lists_m = [list(m) for m in pre_m]
            lists_v = [list(v) for v in pre_v]
            n = len(sides)
            extra = float(n - 1)
            for i in range(n):
                for j in range(i + 1, n):
                    y, r = observation(p, game, i, j)
                    y = result_kept(y, game.pair_score(i, j))
                    si, sj = sides[i], sides[j]
                    for row_m, row_v in zip(lists_m, lists_v):
                        S = sum(row_v[si]) + sum(row_v[sj]) + r * extra
                        innov = (y - (sum(row_m[si]) - sum(row_m[sj]))) / S
                        for s in range(si.start, si.stop):
                            b = row_v[s]
                            row_m[s] += b * innov
                            row_v[s] = b - b * b / S
                        for s in range(sj.start, sj.stop):
                            b = row_v[s]
                            row_m[s] -= b * innov
                            row_v[s] = b - b * b / S
            post_m, post_v = [row for row in lists_m], [row for row in lists_v]  # as rows (Sequence)
        state = self.state
        counts, states = block.counts, block.states
        for pl, pm, pv, qm, qv in zip(players, zip(*pre_m), zip(*pre_v), zip(*post_m), zip(*post_v)):
            st = state.get(pl)
            g = st[0] + 1 if st else 1
            state[pl] = (g, t, qm, qv)
            counts.append(g)
            states.extend((pm, pv, qm, qv))
            block.idle.append(NO_DRIFT)  # pv has its drift

    # -- the mixture (numpy: the per-block part) ------------------------------------------------
    def _forecasts(self, block: Block) -> np.ndarray:
        """Every hypothesis' P(side i ahead of side j) per row: shape (rows, copies * scales)."""
        from scipy.special import ndtr  # type: ignore[import-untyped]  # imported on first use: scipy.special takes 0.4 s to load

        rows, n_copies = len(block.y), len(self.drifts)
        d = np.array(block.d).reshape(rows, n_copies, 1)
        sv = np.array(block.sv).reshape(rows, n_copies, 1)
        a = np.sqrt(np.array(block.lr))[:, None, None] * self._scale_arr[None, None, :]
        return ndtr(a * d / np.sqrt(1.0 + a * a * sv)).reshape(rows, -1)

    def _mix(self, block: Block) -> tuple[np.ndarray, np.ndarray]:
        """(posterior mean forecast per row, copy shown per game) for a block, and the pool's
        log weights moved past it."""
        probs = self._forecasts(block)
        y = np.array(block.y)[:, None]
        clipped = np.clip(probs, *CLIP)
        # y log p + (1 - y) log(1 - p): for a win (y = 1) or a loss (y = 0) one of the two terms
        # is 0 * a finite log, so it is the other log itself, computed once; a draw takes both
        decided = y != 0.5
        ll_rows = np.log(np.where(y == 1.0, clipped, 1.0 - clipped))
        if not decided.all():
            both = y * np.log(clipped) + (1.0 - y) * np.log(1.0 - clipped)
            ll_rows = np.where(decided, ll_rows, both)
        starts = np.array(block.first_row)
        single = len(starts) == len(block.y)
        ll = ll_rows if single else np.add.reduceat(ll_rows, starts, axis=0)
        # running log weights: row g = before game g, row g + 1 = after it (one addition per game,
        # in order, whatever the block); their exponentials (each row less its maximum) give the
        # weights read before each game and the copy shown after it
        lw = np.cumsum(np.vstack([self._lw[None, :], ll]), axis=0)
        e = np.exp(lw - lw.max(axis=1, keepdims=True))
        w = e[:-1] / _row_sums(e[:-1])[:, None]
        game_of_row = (
            np.arange(len(starts))
            if single
            else np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(block.y))))
        )
        mean = _row_sums(w[game_of_row] * probs)
        shown = self._shown_of(e[1:])
        self._lw = lw[-1].copy()
        return mean, shown

    def _changes(self, block: Block, mean: np.ndarray, shown: np.ndarray) -> Iterator[list[Change]]:
        p = self.params
        return block_changes(self._step, block, mean.tolist(), shown.tolist(), self.shown, p.initial, p.display_scale)

    # -- the RatingSystem interface ------------------------------------------------------------
    def update_many(
        self, games: Iterable[GameResult], block_size: int = BLOCK
    ) -> Iterator[tuple[GameResult, list[Change]]]:
        """Apply the games in the order given; yields (game, its changes). The recompute's loop:
        it reads `games` a block at a time, so a generator of games keeps only a block of them
        in memory."""
        it = iter(games)
        while True:
            block = Block()
            self._step.fill(self.state, it, block_size, block, self._filter_other)
            if not block.games:
                return
            yield from zip(block.games, self._changes(block, *self._mix(block)))

    def update(self, game: GameResult) -> list[Change]:
        block = Block()
        self._filter(game, block)
        return next(self._changes(block, *self._mix(block)))

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        """The mixture's forecast of a game from the ratings so far (nothing is changed)."""
        teams = game.teams
        players = tuple(pl for team in teams for pl in team)
        block = Block()
        block.first_row.append(0)
        self._features(game, block, *self._pre(players, game.finished_at), self._slices(game))
        w = np.exp(self._lw - self._lw.max())[None, :]
        w /= _row_sums(w)[:, None]
        mean = _row_sums(w * self._forecasts(block)).tolist()
        n = len(teams)
        return [(i, j, mean[q]) for q, (i, j) in enumerate((i, j) for i in range(n) for j in range(i + 1, n))]

    def standing(self, player: PlayerId) -> Standing:
        """The player's rating as written at their last game (the copy shown then)."""
        p = self.params
        st = self.state.get(player)
        if st is None:
            mu, var, g = 0.0, p.prior_var, 0
        else:
            k = self.shown.get(player, 0)
            mu, var, g = st[2][k], st[3][k], st[0]
        return Standing(
            player,
            p.initial + p.display_scale * mu,
            p.display_scale * math.sqrt(var),
            g,
            var > p.prior_var * p.provisional_rd_ratio**2 or g < p.provisional_games,
        )

    # -- storage (services.py) -------------------------------------------------------------------
    def shown_state(self, player: PlayerId) -> tuple[float, float, int, float]:
        """(mu, var, games, last time) of the copy shown: PlayerRating's mu, var, games, last_t."""
        g, last, mus, vs = self.state[player]
        k = self.shown[player]
        return mus[k], vs[k], g, last

    def player_copies(self, player: PlayerId) -> list[list[float]]:
        """[[mu, var, last time] per copy] of a rated player (PlayerRating.copies)."""
        g, last, mus, vs = self.state[player]
        return [[m, v, last] for m, v in zip(mus, vs)]

    def load_player(self, player: PlayerId, copies: list, games: int, shown: int = 0) -> None:
        self.state[player] = (games, copies[0][2], tuple(c[0] for c in copies), tuple(c[1] for c in copies))
        self.shown[player] = shown
