"""The league's Elo table (games.ratings.elo.ClubElo): the rules a club expects of it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ratings.elo import CLUB_ELO, ClubElo
from games.ratings.types import GameResult

from .strategies import history

PLAYERS = list(range(10))


@st.composite
def ranking_game(draw, gid=0, t=0.0):
    """A free-for-all (Grand Seigneur-like) game: one side per player, ranked by total."""
    n = draw(st.integers(min_value=3, max_value=6))
    players = draw(st.permutations(PLAYERS))[:n]
    scores = draw(st.lists(st.integers(min_value=-50, max_value=50), min_size=n, max_size=n))
    return GameResult(gid, t, tuple((p,) for p in players), tuple(scores), None, 3)


@st.composite
def mixed_history(draw):
    games = list(draw(history(max_size=40)))
    extra = draw(st.lists(ranking_game(), max_size=5))
    out = []
    for g in games + extra:  # renumber in one order of play
        out.append(GameResult(len(out), 1.6e9 + len(out), g.teams, g.scores, g.winner, g.hands))
    order = draw(st.permutations(range(len(out))))
    return [
        GameResult(k, 1.6e9 + k, out[i].teams, out[i].scores, out[i].winner, out[i].hands) for k, i in enumerate(order)
    ]


@settings(max_examples=150, deadline=None)
@given(mixed_history())
def test_a_win_never_lowers_the_elo_tables_rating_and_a_loss_never_raises_it(games):
    elo = ClubElo()
    for g in games:
        for c in elo.update(g):
            if c.score == 1.0:  # won every pairing: a win in a two-side game, first alone otherwise
                assert c.after >= c.before
            elif c.score == 0.0:
                assert c.after <= c.before
            if len(g.teams) == 2 and g.winner is not None:
                assert (c.after > c.before) == (c.score == 1.0)


@settings(max_examples=100, deadline=None)
@given(history(max_size=40))
def test_partners_move_by_the_same_amount(games):
    elo = ClubElo()
    for g in games:
        changes = elo.update(g)
        side_of = {p: i for i, t in enumerate(g.teams) for p in t}
        for side in range(len(g.teams)):
            # equal up to float rounding (round(x, 9) split 18.1120562325 into two values)
            deltas = [c.delta for c in changes if side_of[c.player] == side]
            assert max(deltas) - min(deltas) < 1e-9


def test_provisional_k_until_the_stated_number_of_games_then_k():
    elo = ClubElo()
    # the same four players, a win of side 0 each time from equal ratings would move by K/2;
    # here every game starts from the ratings of before, so compare each move with its K exactly
    for k in range(CLUB_ELO.provisional_games + 2):
        g = GameResult(k, 1.6e9 + k, ((1, 3), (2, 4)), None, k % 2, 8)
        r0 = (elo.ratings.get(1, 1500.0) + elo.ratings.get(3, 1500.0)) / 2
        r1 = (elo.ratings.get(2, 1500.0) + elo.ratings.get(4, 1500.0)) / 2
        expected = 1 / (1 + 10 ** ((r1 - r0) / 400))
        played = elo.games.get(1, 0)
        change = next(c for c in elo.update(g) if c.player == 1)
        want_k = CLUB_ELO.provisional_k if played < CLUB_ELO.provisional_games else CLUB_ELO.k
        assert change.delta == pytest.approx(want_k * ((1.0 if k % 2 == 0 else 0.0) - expected))


def test_a_newcomer_with_an_established_partner_moves_by_the_mean_k():
    elo = ClubElo()
    elo.games.update({1: 50, 2: 50, 4: 50})
    changes = {c.player: c for c in elo.update(GameResult(0, 1.6e9, ((1, 3), (2, 4)), None, 0, 8))}
    k_side = (CLUB_ELO.k + CLUB_ELO.provisional_k) / 2
    assert changes[1].delta == changes[3].delta == pytest.approx(k_side * 0.5)
