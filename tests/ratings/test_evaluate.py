import math
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.ratings_lab import evaluate as ev
from bench.ratings_lab.baselines import Constant, logistic
from games.ratings.elo import EloParams, TeamElo
from games.ratings.types import GameResult

forecasts = st.lists(
    st.tuples(st.floats(min_value=0.0, max_value=1.0), st.sampled_from([0.0, 0.5, 1.0])),
    min_size=1,
    max_size=200,
).map(lambda xs: [ev.Forecast(i, i, p, y) for i, (p, y) in enumerate(xs)])


def test_constant_forecast_scores_ln2_and_a_quarter():
    fs = [ev.Forecast(i, i, 0.5, float(i % 2)) for i in range(10)]
    assert ev.log_loss(fs) == pytest.approx(math.log(2))
    assert ev.brier(fs) == pytest.approx(0.25)
    assert ev.accuracy(fs) == pytest.approx(0.5)


def test_log_loss_clips_like_the_fide_contest():
    sure_and_wrong = [ev.Forecast(0, 0, 1.0, 0.0)]
    assert ev.log_loss(sure_and_wrong) == pytest.approx(-math.log(0.01))


@settings(max_examples=100, deadline=None)
@given(forecasts, st.sampled_from([2, 5, 10]))
def test_calibration_table_matches_a_direct_computation(fs, k):
    table = ev.calibration(fs, k)
    assert sum(b.n for b in table) == 2 * len(fs)
    for b in table:
        members = [
            (p, y)
            for f in fs
            for p, y in ((f.p, f.y), (1 - f.p, 1 - f.y))
            if b.lo <= p < b.hi or (b.hi == 1.0 and p == 1.0)
        ]
        assert len(members) == b.n
        assert b.mean_p == pytest.approx(sum(p for p, _ in members) / b.n)
        assert b.observed == pytest.approx(sum(y for _, y in members) / b.n)
        assert b.lo - 1e-12 <= b.mean_p <= b.hi + 1e-12
    # counted from both sides the table is symmetric about 50%
    if all(f.p * k != int(f.p * k) for f in fs):  # no forecast on a bin edge
        by_lo = {round(b.lo, 6): b for b in table}
        for b in table:
            twin = by_lo[round(1 - b.hi, 6)]
            assert twin.n == b.n
            assert twin.observed == pytest.approx(1 - b.observed)


def test_calibrated_forecasts_have_small_gaps_and_shifted_ones_do_not():
    rng = random.Random(7)
    good, bad = [], []
    for i in range(20000):
        p = rng.random()
        y = 1.0 if rng.random() < p else 0.0
        good.append(ev.Forecast(i, i, p, y))
        bad.append(ev.Forecast(i, i, min(1.0, max(0.0, 0.5 + 1.6 * (p - 0.5))), y))
    assert ev.max_gap(ev.calibration(good)) < 3.0
    assert ev.max_gap(ev.calibration(bad)) > 10.0


def test_fit_scale_recovers_the_generating_scale():
    rng = random.Random(3)
    fs = []
    for i in range(20000):
        x = rng.gauss(0, 1)
        y = 1.0 if rng.random() < logistic((x,), 1.7) else 0.0
        fs.append(ev.Forecast(i, i, 0.5, y, (x,)))
    assert ev.fit_scale(fs, logistic) == pytest.approx(1.7, rel=0.08)


@settings(max_examples=100, deadline=None)
@given(forecasts, st.sampled_from([2, 5, 10]), st.integers(min_value=2, max_value=120), st.booleans())
def test_merged_calibration_keeps_every_forecast_and_no_sparse_bin(fs, k, min_n, both_sides):
    plain = ev.calibration(fs, k, both_sides=both_sides)
    merged = ev.calibration(fs, k, both_sides=both_sides, min_n=min_n)
    assert sum(b.n for b in merged) == sum(b.n for b in plain) == (2 if both_sides else 1) * len(fs)
    assert sum(b.n * b.observed for b in merged) == pytest.approx(sum(b.n * b.observed for b in plain))
    # contiguous, ordered bins whose edges are edges of the equal-width bins
    for a, b in zip(merged, merged[1:]):
        assert a.hi <= b.lo + 1e-12
    edges = {round(i / k, 9) for i in range(k + 1)}
    assert all(round(b.lo, 9) in edges and round(b.hi, 9) in edges for b in merged)
    if len(merged) > 1:
        assert all(b.n >= min_n for b in merged)
    else:
        assert merged[0].n == (2 if both_sides else 1) * len(fs)
    # each merged bin is the union of the plain bins inside its range
    for b in merged:
        inside = [c for c in plain if b.lo - 1e-12 <= c.lo and c.hi <= b.hi + 1e-12]
        assert sum(c.n for c in inside) == b.n


def test_sparse_outer_bins_fold_towards_the_middle():
    # three forecasts at 5% and 95%, hundreds in the middle bins
    fs = [ev.Forecast(i, i, 0.05, 0.0) for i in range(3)]
    fs += [ev.Forecast(100 + i, i, 0.15 + 0.1 * (i % 3), float(i % 2)) for i in range(300)]
    plain = ev.calibration(fs, 10)
    merged = ev.calibration(fs, 10, min_n=50)
    assert (plain[0].lo, plain[0].hi, plain[0].n) == (0.0, 0.1, 3)
    assert (merged[0].lo, merged[0].hi) == (0.0, 0.2)
    assert merged[0].n == plain[0].n + plain[1].n
    assert (merged[-1].lo, merged[-1].hi) == (0.8, 1.0)  # its mirror image, by symmetry
    assert merged[1:-1] == plain[2:-2]  # the bins with support are left as they were


def test_a_sparse_last_bin_merges_with_its_only_neighbour():
    # one side only: the 0.4-0.5 bin is the list's last, so its neighbour lies away from 50%
    fs = [ev.Forecast(i, i, 0.15, float(i % 2)) for i in range(100)]
    fs += [ev.Forecast(100 + i, i, 0.45, 1.0) for i in range(3)]
    (merged,) = ev.calibration(fs, 10, both_sides=False, min_n=50)
    assert (merged.lo, merged.hi, merged.n) == (0.1, 0.5, 103)


def _forecasts_at_scale(n: int, scale: float, seed: int) -> list:
    rng = random.Random(seed)
    fs = []
    for i in range(n):
        x = rng.gauss(0, 1)
        y = 1.0 if rng.random() < logistic((x,), scale) else 0.0
        fs.append(ev.Forecast(i, i, 0.5, y, (x,)))
    return fs


def test_a_prior_holds_the_scale_where_a_few_games_say_little():
    few = _forecasts_at_scale(30, 1.0, seed=5)
    free = ev.fit_scale(few, logistic)
    held = ev.fit_scale(few, logistic, prior=(3.0, 0.5))
    assert abs(math.log(held / 3.0)) < abs(math.log(free / 3.0))
    # no games: the prior's centre itself
    assert ev.fit_scale([], logistic, prior=(3.0, 0.5)) == pytest.approx(3.0, rel=1e-6)


def test_many_games_outweigh_the_prior():
    many = _forecasts_at_scale(20000, 1.7, seed=3)
    assert ev.fit_scale(many, logistic, prior=(6.0, 0.5)) == pytest.approx(1.7, rel=0.1)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=4, max_value=5000))
def test_windows_are_chronological_and_disjoint(n):
    tune, test = ev.windows(n)
    assert 0 < tune.start <= tune.stop == test.start < test.stop == n


def _history(n, flip_after=None, seed=5):
    rng = random.Random(seed)
    strength = {p: rng.gauss(0, 150) for p in range(12)}
    games = []
    for i in range(n):
        four = rng.sample(range(12), 4)
        d = strength[four[0]] + strength[four[2]] - strength[four[1]] - strength[four[3]]
        w = 0 if rng.random() < 1 / (1 + 10 ** (-d / 800)) else 1
        if flip_after is not None and i >= flip_after:
            w = 1 - w
        games.append(GameResult(i, float(i), ((four[0], four[2]), (four[1], four[3])), winner=w))
    return games


def test_tuning_never_looks_at_the_test_window():
    games = _history(400)
    altered = _history(400, flip_after=200)  # the test window (last half) turned upside down
    grid = {"k": [4, 16, 64]}
    make = lambda **kw: TeamElo(EloParams(**kw))  # noqa: E731
    a = ev.tune(make, grid, games)
    b = ev.tune(make, grid, altered)
    assert a.params == b.params and a.tune_loss == b.tune_loss
    tw, sw = ev.windows(400)
    assert ev.select(a.forecasts, sw) != ev.select(b.forecasts, sw)


def test_prequential_predicts_before_updating():
    games = _history(50)
    fs = ev.prequential(TeamElo(), games)
    assert fs[0].p == 0.5  # nothing known before the first game
    assert [f.index for f in fs] == list(range(50))
    assert ev.log_loss(ev.prequential(Constant(), games)) == pytest.approx(math.log(2))


def _drawn(n, true_slope, seed, spread=1.5):
    """Forecasts p = logistic(z) whose outcomes follow logistic(true_slope * z)."""
    rng = random.Random(seed)
    fs = []
    for i in range(n):
        z = rng.gauss(0, spread)
        y = 1.0 if rng.random() < 1 / (1 + math.exp(-true_slope * z)) else 0.0
        fs.append(ev.Forecast(i, i, 1 / (1 + math.exp(-z)), y, (), i // 4))
    return fs


@pytest.mark.parametrize("true_slope", [0.6, 1.0, 1.4])
def test_calibration_slope_recovers_how_far_forecasts_are_off(true_slope):
    # over-confident forecasts (outcomes flatter than p) give a slope below 1, and so on
    assert ev.calibration_slope(_drawn(20000, true_slope, seed=2)) == pytest.approx(true_slope, abs=0.06)


@settings(max_examples=30, deadline=None)
@given(forecasts)
def test_calibration_slope_of_a_mirrored_history_is_the_same(fs):
    mirrored = [ev.Forecast(f.index, f.game_id, 1 - f.p, 1 - f.y) for f in fs]
    a, b = ev.calibration_slope(fs), ev.calibration_slope(mirrored)
    # a finite slope needs a favourite that won and one that lost (else the data are separable)
    assume(any((f.p - 0.5) * (f.y - 0.5) > 0 for f in fs))
    assume(any((f.p - 0.5) * (f.y - 0.5) < 0 for f in fs))
    assert a == pytest.approx(b, rel=1e-4, abs=1e-6)


def test_a_better_forecaster_gets_an_interval_below_zero_and_equal_ones_straddle_it():
    sharp = _drawn(3000, 1.0, seed=4)
    flat = [ev.Forecast(f.index, f.game_id, 0.5 + 0.4 * (f.p - 0.5), f.y, (), f.block) for f in sharp]
    mean, lo, hi = ev.paired_bootstrap(sharp, flat, reps=400)
    assert lo <= mean <= hi < 0
    mean, lo, hi = ev.paired_bootstrap(sharp, list(sharp), reps=50)
    assert mean == lo == hi == 0


def test_the_bootstrap_resamples_whole_days():
    # games of a day share one outcome: resampled by day the interval is wider than by game
    a, b = [], []
    for i in range(800):
        day = i // 8
        y = float((day * 7919) % 3 == 0)
        a.append(ev.Forecast(i, i, 0.3, y, (), day))
        b.append(ev.Forecast(i, i, 0.5, y, (), day))
    by_day = ev.paired_bootstrap(a, b, reps=400)
    by_game = ev.paired_bootstrap(
        [ev.Forecast(f.index, f.game_id, f.p, f.y) for f in a],
        [ev.Forecast(f.index, f.game_id, f.p, f.y) for f in b],
        reps=400,
    )
    assert by_day[0] == pytest.approx(by_game[0])
    assert by_day[2] - by_day[1] > 1.5 * (by_game[2] - by_game[1])


def test_hand_margin_variance_is_the_within_game_spread_of_clipped_hands():
    from games.ratings.types import HandDetail

    def game(gid, lines):
        return GameResult(
            gid,
            float(gid),
            ((1, 2), (3, 4)),
            (0.0, 1.0),
            1,
            len(lines),
            hand_details=tuple(HandDetail(pts) for pts in lines),
        )

    # hands (in hand_sd = 200): +1, -1 (game mean 0) and +0.5, +0.5, +2 clipped to +1
    games = [
        game(1, [(300, 100), (100, 300)]),
        game(2, [(150, 50), (150, 50), (500, 100)]),
        game(3, [(400, 0)]),
    ]  # one hand: no spread to measure, left out
    var, df = ev.hand_margin_variance(games, clip=1.0)
    mean2 = (0.5 + 0.5 + 1.0) / 3
    ss = 2 * 1.0 + 2 * (0.5 - mean2) ** 2 + (1.0 - mean2) ** 2
    assert df == 1 + 2
    assert var == pytest.approx(ss / 3)
    # a looser clip counts the big hand in full: more spread
    assert ev.hand_margin_variance(games, clip=2.0)[0] > var
    assert math.isnan(ev.hand_margin_variance(games[2:], clip=1.0)[0])


def test_a_paired_interval_shows_better_worse_or_nothing():
    assert ev.verdict(-0.02, -0.001) == "better"
    assert ev.verdict(0.001, 0.02) == "worse"
    assert ev.verdict(-0.01, 0.01) == "level"
    assert ev.verdict(-0.01, 0.0) == "level"
