import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.ratings_lab import glicko2
from bench.ratings_lab.glicko2 import Glicko2Rating, rate


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system" (Glickman): a 1500/200/0.06 player, tau = 0.5, beats a
    # 1400/30 player and loses to 1550/100 and 1700/300; the paper's results to its precision
    player = Glicko2Rating(1500.0, 200.0, 0.06)
    opponents = [
        (Glicko2Rating(1400.0, 30.0), 1.0),
        (Glicko2Rating(1550.0, 100.0), 0.0),
        (Glicko2Rating(1700.0, 300.0), 0.0),
    ]
    new = rate(player, opponents, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.05999, abs=1e-5)


def test_intermediate_quantities_of_the_example():
    # steps 2-4 of the paper: g(phi_j), E and v for the same example
    assert glicko2.g(30 / glicko2.SCALE) == pytest.approx(0.9955, abs=1e-4)
    assert glicko2.g(300 / glicko2.SCALE) == pytest.approx(0.7242, abs=1e-4)
    assert glicko2.expected(0.0, -0.5756, 0.1727) == pytest.approx(0.639, abs=1e-3)


def test_no_games_only_widens_the_deviation():
    r = Glicko2Rating(1600.0, 80.0, 0.06)
    new = rate(r, [])
    assert new.rating == r.rating and new.vol == r.vol
    assert new.rd == pytest.approx(glicko2.SCALE * math.hypot(80 / glicko2.SCALE, 0.06))


@settings(max_examples=60, deadline=None)
@given(
    st.floats(1000, 2000),
    st.floats(30, 350),
    st.floats(1000, 2000),
    st.floats(30, 350),
    st.sampled_from([0.3, 0.5, 1.2]),
)
def test_a_win_raises_a_loss_lowers_and_deviation_shrinks(r, rd, ro, rdo, tau):
    me, opp = Glicko2Rating(r, rd), Glicko2Rating(ro, rdo)
    win, loss = rate(me, [(opp, 1.0)], tau), rate(me, [(opp, 0.0)], tau)
    assert win.rating > r > loss.rating
    assert win.rd < math.hypot(rd, glicko2.SCALE * 0.0601) and loss.rd < math.hypot(rd, glicko2.SCALE * 0.0601)
    assert 0.0 < win.vol < 1.0
