"""The bench's rival systems: each predicts before it updates, learns who is stronger, and gives
the same game-length information to the fitted slope (bench.ratings_lab.baselines)."""

import math
import random

import pytest
from hypothesis import given, settings

from bench.ratings_lab import evaluate as ev
from bench.ratings_lab.baselines import CalibratedElo, MarginElo, OpenSkill, TeamGlicko2, TrueSkillTeams, calibrated
from games.ratings.elo import TeamElo
from games.ratings.types import GameResult

from .strategies import two_side_game

RIVALS = [CalibratedElo, TeamGlicko2, TrueSkillTeams, OpenSkill, MarginElo]


def _games(n=300, seed=3, hands=16, target_reached=True):
    """Player 0 and 1 are strong, 2..7 even; 2v2 games with margins that follow."""
    rng = random.Random(seed)
    strength = {p: (0.25 if p < 2 else 0.0) for p in range(8)}
    out = []
    for i in range(n):
        four = rng.sample(range(8), 4)
        d = strength[four[0]] + strength[four[2]] - strength[four[1]] - strength[four[3]]
        per_hand = [rng.gauss(200 * d, 200) for _ in range(hands)]
        m = sum(per_hand)
        top = 1000 if target_reached else 600
        a, b = (top, top - abs(m)) if m > 0 else (top - abs(m), top)
        out.append(
            GameResult(
                i, 1.6e9 + i * 86400.0, ((four[0], four[2]), (four[1], four[3])), (a, b), 0 if a > b else 1, hands
            )
        )
    return out


@pytest.mark.parametrize("make", RIVALS)
def test_each_rival_learns_who_is_stronger(make):
    system = make()
    for g in _games():
        system.update(g)
    strong = [system.standing(p).rating for p in (0, 1)]
    even = [system.standing(p).rating for p in range(2, 8)]
    assert min(strong) > max(even)


@pytest.mark.parametrize("make", RIVALS)
def test_each_rival_beats_a_coin_and_is_symmetric(make):
    games = _games()
    fs = ev.prequential(make(), games)
    assert ev.log_loss(ev.select(fs, range(150, 300))) < math.log(2) - 0.01
    system = make()
    for g in games[:100]:
        system.update(g)
    g = games[100]
    mirrored = GameResult(
        g.game_id, g.finished_at, (g.teams[1], g.teams[0]), (g.scores[1], g.scores[0]), 1 - g.winner, g.hands
    )
    ((_, _, p),) = system.pair_probabilities(g)
    ((_, _, q),) = system.pair_probabilities(mirrored)
    assert p == pytest.approx(1.0 - q)
    ((z, lr),) = system.pair_features(g)
    assert lr == 1.0  # a game played to the target is a full game


@pytest.mark.parametrize("make", RIVALS)
def test_a_short_game_gets_the_same_length_ratio_for_every_rival(make):
    g = _games(n=1, hands=4, target_reached=False)[0]
    ((_, lr),) = make().pair_features(g)
    assert lr == pytest.approx(4 / 16)


def test_calibrated_elo_with_slope_one_is_elo():
    games = _games(60)
    a, b = CalibratedElo(k=24), TeamElo()
    b.params = a.params
    for g in games:
        ((_, _, pa),) = a.pair_probabilities(g)
        ((_, _, pb),) = b.pair_probabilities(g)
        (x,) = a.pair_features(g)
        assert pa == pytest.approx(pb) == pytest.approx(calibrated(x, 1.0))
        a.update(g)
        b.update(g)


@settings(max_examples=40, deadline=None)
@given(two_side_game())
def test_margin_elo_moves_by_its_gain_times_the_surprise(g):
    m = MarginElo(k=0.02)
    ch = m.update(g)
    # from zero ratings the expected margin is 0: each side moves by k * L * (observed margin)
    y = m._y(g, 0, 1)
    assert ch[0].delta == pytest.approx(0.02 * g.hands / 16 * y)
    assert ch[0].delta == -ch[-1].delta


@pytest.mark.parametrize("x, s", [((0.0, 1.0), 3.0), ((1.2, 0.25), 1.0), ((-2.0, 1.0), 0.5)])
def test_calibrated_is_a_logistic_scaled_by_the_root_length(x, s):
    z = s * x[0] * math.sqrt(x[1])
    assert calibrated(x, s) == pytest.approx(1 / (1 + math.exp(-z)))
