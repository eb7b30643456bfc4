"""Hypothesis strategies for game histories (pure)."""

from hypothesis import strategies as st

from games.ratings.types import GameResult

PLAYERS = list(range(8))


@st.composite
def two_side_game(draw, gid=0, t=0.0, with_scores=True):
    four = draw(st.permutations(PLAYERS))[:4]
    hands = draw(st.integers(min_value=1, max_value=12))
    if with_scores:
        a = draw(st.integers(min_value=-40, max_value=240)) * 5
        b = draw(st.integers(min_value=-40, max_value=240)) * 5
        winner = 0 if a > b else 1 if b > a else None
        return GameResult(gid, t, ((four[0], four[2]), (four[1], four[3])), (a, b), winner, hands)
    winner = draw(st.sampled_from([0, 1]))
    return GameResult(gid, t, ((four[0], four[2]), (four[1], four[3])), None, winner, hands)


@st.composite
def history(draw, min_size=1, max_size=25):
    n = draw(st.integers(min_value=min_size, max_value=max_size))
    games = []
    t = 1.6e9
    for gid in range(n):
        t += draw(st.integers(min_value=0, max_value=30)) * 86400.0
        games.append(draw(two_side_game(gid=gid, t=t)))
    return games
