import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ratings.base import replay, win_probability
from games.ratings.elo import EloParams, TeamElo
from games.ratings.types import GameResult

from .strategies import history, two_side_game


@settings(max_examples=60, deadline=None)
@given(history())
def test_team_elo_is_zero_sum(games):
    elo = TeamElo()
    replay(elo, games)
    players = {p for g in games for p in g.players}
    total = sum(elo.standing(p).rating for p in players)
    assert total == pytest.approx(1500.0 * len(players), abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(two_side_game())
def test_each_update_is_zero_sum_and_signed_by_the_result(game):
    elo = TeamElo(EloParams(k=20))
    changes = elo.update(game)
    assert sum(c.delta for c in changes) == pytest.approx(0.0, abs=1e-9)
    side_of = {p: i for i, t in enumerate(game.teams) for p in t}
    for c in changes:
        s = game.pair_score(side_of[c.player], 1 - side_of[c.player])
        assert c.score == s
        if s == 1.0:
            assert c.delta > 0
        elif s == 0.0:
            assert c.delta < 0
        assert abs(c.delta) <= 20 + 1e-9


def test_expected_score_follows_the_elo_formula():
    elo = TeamElo()
    elo.ratings.update({1: 1600, 2: 1600, 3: 1500, 4: 1500})
    g = GameResult(1, 0.0, ((1, 2), (3, 4)), winner=0)
    assert win_probability(elo, g) == pytest.approx(1 / (1 + 10 ** (-100 / 400)))
    mirrored = GameResult(1, 0.0, ((3, 4), (1, 2)), winner=1)
    assert win_probability(elo, mirrored) == pytest.approx(1 - win_probability(elo, g))


@settings(max_examples=40, deadline=None)
@given(history(min_size=2), st.randoms(use_true_random=False))
def test_replay_applies_games_in_finishing_order_whatever_the_input_order(games, rnd):
    shuffled = list(games)
    rnd.shuffle(shuffled)
    a, b = TeamElo(), TeamElo()
    assert replay(a, games) == replay(b, shuffled)
    assert a.ratings == b.ratings


def test_order_matters_so_the_order_is_part_of_the_contract():
    g1 = GameResult("a", 1.0, ((1, 2), (3, 4)), winner=0)
    g2 = GameResult("b", 2.0, ((1, 2), (3, 4)), winner=1)
    x, y = TeamElo(), TeamElo()
    x.update(g1), x.update(g2)
    y.update(g2), y.update(g1)
    assert x.ratings != y.ratings


def test_ranking_game_is_pairwise_with_k_over_n_minus_1():
    elo = TeamElo(EloParams(k=30))
    g = GameResult(
        "gs", 0.0, tuple((p,) for p in range(6)), scores=(5, 4, 3, 2, 1, 0), hands=3, variant="grand-seigneur"
    )
    ch = {c.player: c for c in elo.update(g)}
    # equal ratings: every pair expected 0.5, so the winner gains (N-1) * K/(N-1) * 0.5
    assert ch[0].delta == pytest.approx(15.0)
    assert ch[5].delta == pytest.approx(-15.0)
    assert sum(c.delta for c in ch.values()) == pytest.approx(0.0)
    deltas = [ch[p].delta for p in range(6)]
    assert deltas == sorted(deltas, reverse=True)


def test_provisional_period_is_the_first_ten_games():
    elo = TeamElo()
    for i in range(10):
        assert elo.standing(1).provisional
        elo.update(GameResult(i, float(i), ((1, 2), (3, 4)), winner=i % 2))
    assert not elo.standing(1).provisional
    assert math.isclose(sum(elo.standing(p).rating for p in (1, 2, 3, 4)), 6000.0)
