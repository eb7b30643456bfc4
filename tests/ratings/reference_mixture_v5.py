"""The shipped predictive rating (config.SYSTEM "pool-bayes-kalman/5", docs/ratings.md §3): the
margin Kalman filter of model.py with its day drift and its full-game forecast scale learned by
each pool from its own earlier games, as a Bayesian mixture over a fixed grid (candidate 2 of
§3c; `candidates.PoolBayesKalman` is its plain reference implementation, and the tests hold this
one to it).

* One copy of the filter per drift in MIX_DRIFTS; every (drift, scale) pair is a hypothesis with
  a fixed prior (uniform over drifts; log-normal, sd MIX_SCALE_LOG_SD, around the former shipped
  scale 6.50 over MIX_SCALES). After each game every hypothesis' log weight gains the log
  likelihood of the pair outcomes under its own forecast (clipped to [0.01, 0.99] as in the
  bench). Nothing is tuned per history: the grids and the prior are the rule.
* Forecast (win chances, `Change.expected`, `forecast`): the posterior-weighted mean of the 36
  hypotheses' forecasts, read before the game (the Bayesian predictive).
* Displayed rating: at each game, the copy whose drift has the largest marginal weight (after
  the game's weights are added; ties: lower drift) gives the players' new (rating, RD). A
  player's shown rating is the one written at their LAST game (`shown`): a copy's state of a
  player only changes at that player's games, so the incremental update and the full recompute
  write the same rows by construction.

Why it is built in two halves (speed: issue #8's rating loop faster than openskill's rate()):
the copies' filter updates never read the weights, so a block of games is first run through the
four filters in plain Python (`_filter`), and the 36 hypotheses' forecasts, log likelihoods,
cumulative weights and the copy shown are then computed for the whole block at once with numpy
(`_mix`). `update` is a block of one game and `update_many` takes blocks of BLOCK games; every
step of `_mix` is element-wise, a running sum along the games, or a sum over a row done column by
column, so a game's numbers do not depend on the block it was computed in (tested: one game at a
time and a whole history in blocks write identical changes).
"""

from __future__ import annotations

import math
from itertools import chain, islice
from typing import Iterable, Iterator, Sequence

import numpy as np

from games.ratings.base import Change, Standing
from games.ratings.model import ModelParams, length_ratio, observation, result_kept
from games.ratings.types import GameResult, PlayerId

MIX_DRIFTS = (0.0, 0.001, 0.002, 0.004)
MIX_SCALES = (4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 9.0)
MIX_SCALE_CENTRE = 6.50  # the former shipped full-game scale: the prior's centre
MIX_SCALE_LOG_SD = 0.5  # the bench's prior width for every fitted slope (evaluate.fit_scale)
CLIP = (0.01, 0.99)  # a hypothesis' forecast as the bench scores it: never certain
BLOCK = 512  # games per numpy block in update_many (memory, not results, depends on it)


def prior_log_weights(n_drifts: int = len(MIX_DRIFTS), scales: tuple[float, ...] = MIX_SCALES) -> list[list[float]]:
    return [[-0.5 * (math.log(s / MIX_SCALE_CENTRE) / MIX_SCALE_LOG_SD) ** 2 for s in scales] for _ in range(n_drifts)]


def _row_sums(x: np.ndarray) -> np.ndarray:
    """Sums over the last axis, column by column: the same additions in the same order for a
    block of one row or of many (np.sum's pairwise order is numpy's to choose)."""
    out = x[..., 0].copy()
    for m in range(1, x.shape[-1]):
        out += x[..., m]
    return out


class _Block:
    """What the filters of one block of games hand to the mixture: per (game, pair) row every
    copy's pre-game (d, sum v), the game's length ratio and the pair's outcome; per game the
    players' before and after states of every copy."""

    def __init__(self) -> None:
        self.games: list[GameResult] = []
        self.first_row: list[int] = []  # row index of each game's first pair
        self.d: list[float] = []  # row-major: row, copy
        self.sv: list[float] = []
        self.lr: list[float] = []  # per row
        self.y: list[float] = []  # per row
        # per game, flat (floats and ints only: the cyclic collector never walks them): where the
        # game's players start in the lists below, their game counts, and every copy's mu and var
        # of them before and after the game, copy-major (copy k, player s: start + k * n + s)
        self.start: list[int] = []
        self.counts: list[int] = []
        self.pre_m: list[float] = []
        self.pre_v: list[float] = []
        self.post_m: list[float] = []
        self.post_v: list[float] = []


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
        # player -> [games, last finished_at, (mu per copy), (var per copy)]
        self.state: dict[PlayerId, list] = {}
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
        e = np.exp(lw - lw.max(axis=1, keepdims=True)).reshape(len(lw), len(self.drifts), len(self.scales))
        return np.argmax(_row_sums(e), axis=1)  # argmax: the first of equal maxima, the lower drift

    # -- the four filters (plain Python: the per-game part) --------------------------------------
    def _pre(self, players: tuple, t: float) -> tuple[list[tuple], list[tuple]]:
        """Every copy's (mu, var) of `players` just before a game at time t (drift applied as in
        model.MarginKalman._pre), copy by copy: ([mu of each player] per copy, [var ...] per copy)."""
        p = self.params
        prior = p.prior_var
        tg2 = p.tau_game * p.tau_game
        per_second = self._drift_per_second
        zeros, priors = self._newcomer
        four = len(per_second) == 4
        if four:
            c0, c1, c2, c3 = per_second
        # a row per player: a tuple (Nanking's four, unrolled) or a list (any other table)
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
            if four:  # the shipped four drifts, unrolled (the rating loop's largest cost otherwise)
                a, b, c, d = st[3]
                a = a + tg2 + c0 * dt
                b = b + tg2 + c1 * dt
                c = c + tg2 + c2 * dt
                d = d + tg2 + c3 * dt
                rows_v.append(
                    (
                        prior if a > prior else a,
                        prior if b > prior else b,
                        prior if c > prior else c,
                        prior if d > prior else d,
                    )
                )
            else:
                rows_v.append([prior if (x := v + tg2 + c * dt) > prior else x for v, c in zip(st[3], per_second)])
        return list(zip(*rows_m)), list(zip(*rows_v))

    @staticmethod
    def _slices(game: GameResult) -> list[slice]:
        out, at = [], 0
        for team in game.teams:
            out.append(slice(at, at + len(team)))
            at += len(team)
        return out

    def _features(self, game: GameResult, block: _Block, pre_m, pre_v, sides: list[slice]) -> None:
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

    def _filter(self, game: GameResult, block: _Block) -> None:
        """Apply the game to every copy of the filter (model.MarginKalman.update's Kalman steps,
        pair by pair in index order) and record what the mixture and the changes need."""
        t = game.finished_at
        teams = game.teams
        players = teams[0] + teams[1] if len(teams) == 2 else tuple(pl for team in teams for pl in team)
        sides = self._slices(game)
        pre_m, pre_v = self._pre(players, t)
        block.first_row.append(len(block.y))
        block.games.append(game)
        if len(sides) == 2:
            # the usual game, two sides: one pair; its features and the Kalman step per copy in
            # one pass (the same operations as _features and the general loop below)
            y, r = observation(self.params, game, 0, 1)
            s0, s1 = sides
            favour = tuple(sum(m[s0]) - sum(m[s1]) for m in pre_m)
            y = result_kept(y, game.pair_score(0, 1), favour)
            post_m: list[Sequence[float]] = []
            post_v: list[Sequence[float]] = []
            bd, bsv = block.d, block.sv
            pair_of_two = s0.stop == 2 and s1.stop == 4
            for m, v in zip(pre_m, pre_v):
                if pair_of_two:  # Nanking: two partnerships of two, unrolled
                    ma, mb, mc, md = m
                    va, vb, vc, vd = v
                    d = (ma + mb) - (mc + md)
                    sv = (va + vb) + (vc + vd)
                    S = sv + r
                    innov = (y - d) / S
                    post_m.append((ma + va * innov, mb + vb * innov, mc - vc * innov, md - vd * innov))
                    post_v.append((va - va * va / S, vb - vb * vb / S, vc - vc * vc / S, vd - vd * vd / S))
                else:
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
            block.lr.append(length_ratio(game, self.params.target, self.params.full_hands))
            block.y.append(game.pair_score(0, 1))
        else:
            self._features(game, block, pre_m, pre_v, sides)
            lists_m = [list(m) for m in pre_m]
            lists_v = [list(v) for v in pre_v]
            n = len(sides)
            extra = float(n - 1)
            for i in range(n):
                for j in range(i + 1, n):
                    y, r = observation(self.params, game, i, j)
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
        counts = block.counts
        block.start.append(len(counts))
        for pl, ms, vs in zip(players, zip(*post_m), zip(*post_v)):
            st = state.get(pl)
            g = st[0] + 1 if st else 1
            state[pl] = [g, t, ms, vs]
            counts.append(g)
        for flat, per_copy in (
            (block.pre_m, pre_m),
            (block.pre_v, pre_v),
            (block.post_m, post_m),
            (block.post_v, post_v),
        ):
            flat.extend(chain.from_iterable(per_copy))

    # -- the mixture (numpy: the per-block part) ------------------------------------------------
    def _forecasts(self, block: _Block) -> np.ndarray:
        """Every hypothesis' P(side i ahead of side j) per row: shape (rows, copies * scales)."""
        from scipy.special import ndtr  # type: ignore[import-untyped]  # imported on first use: scipy.special takes 0.4 s to load

        rows, n_copies = len(block.y), len(self.drifts)
        d = np.array(block.d).reshape(rows, n_copies, 1)
        sv = np.array(block.sv).reshape(rows, n_copies, 1)
        a = np.sqrt(np.array(block.lr))[:, None, None] * self._scale_arr[None, None, :]
        return ndtr(a * d / np.sqrt(1.0 + a * a * sv)).reshape(rows, -1)

    def _mix(self, block: _Block) -> tuple[np.ndarray, np.ndarray]:
        """(posterior mean forecast per row, copy shown per game) for a block, and the pool's
        log weights moved past it."""
        probs = self._forecasts(block)
        y = np.array(block.y)[:, None]
        clipped = np.clip(probs, *CLIP)
        ll_rows = y * np.log(clipped) + (1.0 - y) * np.log(1.0 - clipped)
        starts = np.array(block.first_row)
        single = len(starts) == len(block.y)
        ll = ll_rows if single else np.add.reduceat(ll_rows, starts, axis=0)
        # running log weights: row g = before game g, row g + 1 = after it (one addition per game,
        # in order, whatever the block)
        lw = np.cumsum(np.vstack([self._lw[None, :], ll]), axis=0)
        w = np.exp(lw[:-1] - lw[:-1].max(axis=1, keepdims=True))
        w /= _row_sums(w)[:, None]
        game_of_row = (
            np.arange(len(starts))
            if single
            else np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(block.y))))
        )
        mean = _row_sums(w[game_of_row] * probs)
        shown = self._chosen(lw[1:])
        self._lw = lw[-1].copy()
        return mean, shown

    def _changes(self, block: _Block, mean: np.ndarray, shown: np.ndarray) -> Iterator[list[Change]]:
        p = self.params
        scale = p.display_scale
        initial = p.initial
        sqrt = math.sqrt
        mean = mean.tolist()
        shown = shown.tolist()
        n_copies = len(self.drifts)
        pre_m, pre_v, post_m, post_v = block.pre_m, block.pre_v, block.post_m, block.post_v
        counts, starts, first_row, ys = block.counts, block.start, block.first_row, block.y
        set_shown = self.shown.__setitem__
        for b, game in enumerate(block.games):
            k = shown[b]
            teams = game.teams
            n = len(teams)
            r = first_row[b]
            if n == 2:  # one pair: its forecast and outcome are the sides' expected and actual
                e, y = mean[r], ys[r]
                expected, actual, extra = [e, 1.0 - e], [y, 1.0 - y], 1.0
            else:
                extra = float(n - 1)
                expected, actual = [0.0] * n, [0.0] * n
                for i in range(n):
                    for j in range(i + 1, n):
                        e, y = mean[r], ys[r]
                        expected[i] += e
                        expected[j] += 1.0 - e
                        actual[i] += y
                        actual[j] += 1.0 - y
                        r += 1
            start = starts[b]
            n_players = (starts[b + 1] if b + 1 < len(starts) else len(counts)) - start
            at = start * n_copies + k * n_players  # copy k's entries of this game
            out = []
            s = 0
            for side, team in enumerate(teams):
                e, a = expected[side] / extra, actual[side] / extra
                for pl in team:
                    set_shown(pl, k)
                    x = at + s
                    out.append(
                        Change(
                            game.game_id,
                            pl,
                            initial + scale * pre_m[x],
                            initial + scale * post_m[x],
                            scale * sqrt(pre_v[x]),
                            scale * sqrt(post_v[x]),
                            e,
                            a,
                            counts[start + s],
                        )
                    )
                    s += 1
            yield out

    # -- the RatingSystem interface ------------------------------------------------------------
    def update_many(
        self, games: Iterable[GameResult], block_size: int = BLOCK
    ) -> Iterator[tuple[GameResult, list[Change]]]:
        """Apply the games in the order given; yields (game, its changes). The recompute's loop:
        it reads `games` a block at a time, so a generator of games keeps only a block of them
        in memory."""
        it = iter(games)
        while True:
            block = _Block()
            for game in islice(it, block_size):
                self._filter(game, block)
            if not block.games:
                return
            yield from zip(block.games, self._changes(block, *self._mix(block)))

    def update(self, game: GameResult) -> list[Change]:
        block = _Block()
        self._filter(game, block)
        return next(self._changes(block, *self._mix(block)))

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        """The mixture's forecast of a game from the ratings so far (nothing is changed)."""
        teams = game.teams
        players = tuple(pl for team in teams for pl in team)
        block = _Block()
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
        self.state[player] = [games, copies[0][2], tuple(c[0] for c in copies), tuple(c[1] for c in copies)]
        self.shown[player] = shown
