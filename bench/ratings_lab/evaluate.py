"""Prequential evaluation: predict every game from the games before it, then update on it.

Protocol (docs/ratings.md, guide section 4):
* games in finishing order; before updating on game t, record P(side i ahead of side j) for each
  pair of sides from ratings built on games < t only;
* chronological split by game index: burn-in [0, 25%) (ratings update, nothing fitted or
  scored), tuning [25%, 50%) (parameters and calibration scales are chosen by log loss here
  only), test [50%, 100%) (reported with parameters frozen);
* metrics: log loss (p clipped to [0.01, 0.99]), Brier score, accuracy, and a calibration table.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from games.ratings.types import GameResult, order_games

CLIP = 0.01


@dataclass(frozen=True)
class Forecast:
    index: int  # position of the game in finishing order (among rated games)
    game_id: object
    p: float  # forecast P(first side of the pair ahead of the second)
    y: float  # 1, 0.5 (draw) or 0
    x: tuple = ()  # raw features of the forecast, for fitting a calibration scale
    block: int | None = None  # the day the game was played (bootstrap blocks: one evening)


def prequential(system, games: Iterable[GameResult]) -> list[Forecast]:
    """Predict-then-update over the rated games in finishing order."""
    out: list[Forecast] = []
    feats = getattr(system, "pair_features", None)
    idx = 0
    for g in order_games(list(games)):
        if not g.rated:
            continue
        probs = system.pair_probabilities(g)
        xs = feats(g) if feats else [()] * len(probs)
        for (i, j, p), x in zip(probs, xs):
            out.append(Forecast(idx, g.game_id, p, g.pair_score(i, j), x, int(g.finished_at // 86400)))
        system.update(g)
        idx += 1
    return out


def windows(n_games: int, burn: float = 0.25, tune: float = 0.5) -> tuple[range, range]:
    """(tuning window, test window) as ranges of game indices."""
    a = int(round(n_games * burn))
    b = int(round(n_games * tune))
    return range(a, b), range(b, n_games)


def select(forecasts: Sequence[Forecast], window: range) -> list[Forecast]:
    lo, hi = window.start, window.stop
    return [f for f in forecasts if lo <= f.index < hi]


def _clip(p: float) -> float:
    return CLIP if p < CLIP else 1.0 - CLIP if p > 1.0 - CLIP else p


def log_loss(forecasts: Sequence[Forecast]) -> float:
    if not forecasts:
        return float("nan")
    tot = 0.0
    for f in forecasts:
        p = _clip(f.p)
        tot -= f.y * math.log(p) + (1.0 - f.y) * math.log(1.0 - p)
    return tot / len(forecasts)


def brier(forecasts: Sequence[Forecast]) -> float:
    if not forecasts:
        return float("nan")
    return sum((f.p - f.y) ** 2 for f in forecasts) / len(forecasts)


def accuracy(forecasts: Sequence[Forecast]) -> float:
    """Share of games whose favourite won; a 50% forecast or a draw counts one half."""
    if not forecasts:
        return float("nan")
    tot = 0.0
    for f in forecasts:
        if f.p == 0.5 or f.y == 0.5:
            tot += 0.5
        elif (f.p > 0.5) == (f.y == 1.0):
            tot += 1.0
    return tot / len(forecasts)


@dataclass(frozen=True)
class Bucket:
    lo: float
    hi: float
    n: int
    mean_p: float
    observed: float

    @property
    def gap(self) -> float:
        """Observed minus forecast, in percentage points."""
        return 100.0 * (self.observed - self.mean_p)

    @property
    def se(self) -> float:
        """Binomial standard error of the observed rate if the forecasts were right, in points."""
        if self.n == 0:
            return float("nan")
        p = self.mean_p
        return 100.0 * math.sqrt(max(p * (1.0 - p), 1e-12) / self.n)


def calibration(
    forecasts: Sequence[Forecast], buckets: int = 10, both_sides: bool = True, min_n: int = 1
) -> list[Bucket]:
    """Reliability table: forecasts binned by p into `buckets` equal-width bins.

    Which side is "first" is arbitrary (seat order), so by default every forecast is counted
    from both sides, (p, y) and (1 - p, 1 - y): bin k then holds every game whose favourite (or
    underdog) had a chance in that bin, and the table is symmetric about 50%.

    A bin with fewer than `min_n` forecasts is merged into its neighbour towards 50% (so the
    table stays symmetric), as Hosmer and Lemeshow pool sparse cells: the observed rate of a bin
    of three games has a standard error of ~17 points, and its gap says nothing about the model.
    The merged bin spans both ranges. `min_n=1` keeps every non-empty bin as it is.
    """
    pts = [(f.p, f.y) for f in forecasts]
    if both_sides:
        pts += [(1.0 - f.p, 1.0 - f.y) for f in forecasts]
    # [lo, hi, n, sum p, sum y] per equal-width bin
    bins = [[k / buckets, (k + 1) / buckets, 0, 0.0, 0.0] for k in range(buckets)]
    for p, y in pts:
        s = bins[min(int(p * buckets), buckets - 1)]
        s[2] += 1
        s[3] += p
        s[4] += y
    bins = _merge_sparse(bins, min_n)
    return [Bucket(lo, hi, n, sp / n, sy / n) for lo, hi, n, sp, sy in bins]


def _merge_sparse(bins: list[list], min_n: int) -> list[list]:
    """Merge every bin under min_n forecasts into its neighbour towards 50%, the bin farthest
    from the middle first (a symmetric table stays symmetric). Bins are [lo, hi, n, sum p, sum y].
    """
    bins = [b[:] for b in bins if b[2]]

    def centre(b: list) -> float:
        return (b[0] + b[1]) / 2.0

    while len(bins) > 1:
        sparse = [k for k, b in enumerate(bins) if b[2] < min_n]
        if not sparse:
            break
        # farthest from 50% first; ties (a symmetric pair) in index order, so deterministic
        k = max(sparse, key=lambda k: (abs(centre(bins[k]) - 0.5), -k))
        # the neighbour towards 50% (at an end of the list, the only neighbour there is)
        j = k + 1 if k == 0 or (centre(bins[k]) < 0.5 and k + 1 < len(bins)) else k - 1
        lo, hi = sorted((k, j))
        a, b = bins[lo], bins[hi]
        bins[lo : hi + 1] = [[a[0], b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4]]]
    return bins


def max_gap(table: Sequence[Bucket], min_n: int = 1) -> float:
    gaps = [abs(b.gap) for b in table if b.n >= min_n]
    return max(gaps) if gaps else float("nan")


def hand_margin_variance(games: Iterable[GameResult], clip: float, hand_sd: float = 200.0) -> tuple[float, int]:
    """(pooled within-game variance, degrees of freedom) of a hand's margin, in hand_sd units and
    each hand clipped to +-clip as the chosen model reads a sheet: the spread of one hand around
    its own game's mean, i.e. the measured counterpart of the model's `obs_var` (the noise of
    one hand's normalised margin). Two-side games with at least two hand lines; the sum of squared
    deviations from each game's mean over the sum of (hands - 1). Outcomes are not read, only
    the hand lines, so it can be measured on any window without fitting anything."""
    ss = 0.0
    df = 0
    for g in games:
        if len(g.teams) != 2 or len(g.hand_details) < 2:
            continue
        ms = [max(-clip, min(clip, (h.points[0] - h.points[1]) / hand_sd)) for h in g.hand_details]
        m = sum(ms) / len(ms)
        ss += sum((x - m) ** 2 for x in ms)
        df += len(ms) - 1
    return (ss / df if df else float("nan")), df


# -- fitting ------------------------------------------------------------------------------------


def golden_min(f: Callable[[float], float], lo: float, hi: float, iters: int = 60) -> float:
    """Minimum of a unimodal f on [lo, hi] (golden-section search, deterministic)."""
    g = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2.0


def fit_scale(
    forecasts: Sequence[Forecast],
    prob: Callable[[tuple, float], float],
    lo: float = 1e-4,
    hi: float = 100.0,
    prior: tuple[float, float] | None = None,
) -> float:
    """The scale s minimising the log loss of prob(x, s) over the forecasts (log-space search).

    prior = (centre, sd): a log-normal prior on s, log s ~ N(log centre, sd^2), and the result is
    the posterior mode (the summed log loss plus the prior's penalty). Why: a scale fitted by
    maximum likelihood on a few dozen games is mostly noise (37 games of an even group drive it
    to zero, "no skill exists", whatever the ratings know); the prior says what the system's own
    model predicts, and the data move the scale away from it only as far as they can support.
    With hundreds of games the data dominate and the result is the maximum-likelihood one.
    """
    pts = [(f.x, f.y) for f in forecasts]
    log = math.log

    def loss(logs: float) -> float:
        s = math.exp(logs)
        total = 0.0
        for x, y in pts:
            p = _clip(prob(x, s))
            total -= y * log(p) + (1.0 - y) * log(1.0 - p)
        if prior is not None:
            centre, sd = prior
            total += (logs - math.log(centre)) ** 2 / (2.0 * sd * sd)
        return total

    return math.exp(golden_min(loss, math.log(lo), math.log(hi)))


def rescale(forecasts: Sequence[Forecast], prob: Callable[[tuple, float], float], s: float) -> list[Forecast]:
    return [Forecast(f.index, f.game_id, prob(f.x, s), f.y, f.x, f.block) for f in forecasts]


@dataclass
class TuneResult:
    params: dict
    scale: float | None
    tune_loss: float
    forecasts: list[Forecast]  # all forecasts of the chosen setting (scale applied)


def tune(
    make: Callable[..., object],
    grid: dict[str, Sequence],
    games: Sequence[GameResult],
    prob: Callable[[tuple, float], float] | None = None,
    burn: float = 0.25,
    split: float = 0.5,
    prior: tuple[float, float] | None = None,
) -> TuneResult:
    """Try every combination of `grid` (fitting the calibration scale when `prob` is given, with
    `prior` as in fit_scale) and keep the one with the lowest log loss on the tuning window. Ties
    go to the first in grid order, so the result is deterministic. Test-window games never
    influence the choice."""
    ordered = order_games([g for g in games if g.rated])
    tune_w, _ = windows(len(ordered), burn, split)
    keys = list(grid)
    best: TuneResult | None = None
    for values in itertools.product(*(grid[k] for k in keys)):
        params = dict(zip(keys, values))
        fs = prequential(make(**params), ordered)
        scale = None
        if prob is not None:
            scale = fit_scale(select(fs, tune_w), prob, prior=prior)
            fs = rescale(fs, prob, scale)
        loss = log_loss(select(fs, tune_w))
        if best is None or loss < best.tune_loss - 1e-12:
            best = TuneResult(params, scale, loss, fs)
    assert best is not None
    return best


@dataclass(frozen=True)
class Report:
    name: str
    log_loss: float
    brier: float
    accuracy: float
    n: int
    calibration: list[Bucket]


def report(name: str, forecasts: Sequence[Forecast], buckets: int = 10, min_n: int = 1) -> Report:
    return Report(
        name,
        log_loss(forecasts),
        brier(forecasts),
        accuracy(forecasts),
        len(forecasts),
        calibration(forecasts, buckets, min_n=min_n),
    )


def _logit(p: float) -> float:
    p = _clip(p)
    return math.log(p / (1.0 - p))


def calibration_slope(forecasts: Sequence[Forecast], iters: int = 50) -> float:
    """The calibration slope b: the logistic regression y ~ sigmoid(b * logit(p)), fitted by
    Newton's method on every forecast counted from both sides (so the intercept is 0 by
    symmetry, as in the calibration table). b = 1: calibrated; b < 1: over-confident (the
    forecasts are too far from 50%, shrink them); b > 1: under-confident. Draws count y = 1/2.
    p is clipped as in log_loss."""
    pts = [(_logit(f.p), f.y) for f in forecasts if f.p != 0.5]
    if not pts:
        return float("nan")

    def loglik(b: float) -> float:
        tot = 0.0
        for z, y in pts:
            u = b * z  # y log q + (1 - y) log(1 - q), q = sigmoid(u), computed stably
            tot += y * u - (u if u > 0 else 0.0) - math.log1p(math.exp(-abs(u)))
        return tot

    b = 1.0
    cur = loglik(b)
    for _ in range(iters):
        grad = hess = 0.0
        for z, y in pts:
            # both sides: (z, y) and (-z, 1 - y) give the same gradient terms twice
            q = 1.0 / (1.0 + math.exp(-b * z))
            grad += (y - q) * z
            hess += q * (1.0 - q) * z * z
        if hess <= 0.0:
            break
        step = grad / hess
        # Newton with step halving: the log-likelihood is concave, so a step that lowers it
        # overshot; separable outcomes have no finite slope and run to the cap of +-100
        while True:
            nb = max(-100.0, min(100.0, b + step))
            new = loglik(nb)
            if new >= cur - 1e-12 or abs(step) < 1e-12:
                break
            step /= 2.0
        done = abs(nb - b) < 1e-10
        b, cur = nb, new
        if done:
            break
    return b


def _blocks(a: Sequence[Forecast]) -> list[list[int]]:
    """Indices of the forecasts grouped by day (an evening's games share their ratings and
    their luck, so they are resampled together); every forecast its own block without days."""
    groups: dict = {}
    for k, f in enumerate(a):
        groups.setdefault(("day", f.block) if f.block is not None else ("game", k), []).append(k)
    return list(groups.values())


def paired_bootstrap(
    a: Sequence[Forecast], b: Sequence[Forecast], reps: int = 2000, seed: int = 1
) -> tuple[float, float, float]:
    """Mean per-game log-loss difference a - b with a 95% bootstrap interval: the same games for
    both, resampled by day blocks (whole evenings), percentile interval."""
    import random

    assert [f.game_id for f in a] == [f.game_id for f in b]
    diffs = [log_loss([fa]) - log_loss([fb]) for fa, fb in zip(a, b)]
    n = len(diffs)
    blocks = [(sum(diffs[k] for k in blk), len(blk)) for blk in _blocks(a)]
    m = len(blocks)
    rng = random.Random(seed)
    means = []
    for _ in range(reps):
        tot = cnt = 0.0
        for _ in range(m):
            s, c = blocks[rng.randrange(m)]
            tot += s
            cnt += c
        means.append(tot / cnt)
    means.sort()
    return sum(diffs) / n, means[int(0.025 * reps)], means[int(0.975 * reps) - 1]


def verdict(lo: float, hi: float) -> str:
    """What a paired interval of a - b (log loss, lower is better) shows: "better" when all of it
    is below 0 (a is shown better than b), "worse" when all of it is above 0, else "level" (not
    separated at this size)."""
    return "better" if hi < 0.0 else "worse" if lo > 0.0 else "level"


def slope_interval(forecasts: Sequence[Forecast], reps: int = 200, seed: int = 1) -> tuple[float, float]:
    """95% day-block bootstrap interval of the calibration slope (percentile)."""
    import random

    blocks = _blocks(forecasts)
    rng = random.Random(seed)
    out = []
    for _ in range(reps):
        sample = [forecasts[k] for _ in blocks for k in blocks[rng.randrange(len(blocks))]]
        out.append(calibration_slope(sample, iters=8))
    out.sort()
    return out[int(0.025 * reps)], out[int(0.975 * reps) - 1]
