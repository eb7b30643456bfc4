"""games/ratings/rating_steps.py gives the same numbers compiled (mypyc) as interpreted.

The module is the league's rating loop's per-game arithmetic (the filter's 2v2 step, the block's
changes, the observation, the Elo table's 2v2 update), written to be compiled with mypyc. Here it
is also loaded from its `.py` source under another name, and the whole loop (the shipped mixture
and the Elo table) run on random histories with each: every change, log weight, copy shown and
player state must be the same to the bit (compared by repr, which tells every float apart, -0.0
from 0.0 too). When the imported module is the compiled build this compares the two builds; when
it is the source itself the comparison is trivially equal, and the test says which it compared.
In CI (``CI=true``, .ci/run: the compiled build, mypyc_build.py) an interpreted import fails the
test instead of passing trivially, as tests/engine/test_compiled_build.py does for the engine.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import build_check
from games.ratings import config, elo, mixture, model, rating_steps
from games.ratings.elo import ClubElo
from games.ratings.mixture import PREVIOUS_DRIFTS, PoolBayesKalman
from games.ratings.types import GameResult, HandDetail

SOURCE = Path(rating_steps.__file__).with_name("rating_steps.py")
COMPILED = Path(rating_steps.__file__).suffix != ".py"  # an extension module (.so / .pyd)


def _from_source() -> ModuleType:
    """rating_steps loaded from its .py file under another name (never the compiled build)."""
    spec = importlib.util.spec_from_file_location("games.ratings._rating_steps_from_source", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


INTERPRETED = _from_source()


def test_the_build_compared_is_the_one_expected():
    """Says which build the properties below compare; fails when a compiled build was expected."""
    print(f"rating_steps imported from {Path(rating_steps.__file__).name}: {'compiled' if COMPILED else 'interpreted'}")
    assert Path(INTERPRETED.__file__).suffix == ".py"
    in_ci = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
    if in_ci and not os.environ.get(build_check.PURE_ENV):
        assert COMPILED, f"rating_steps is not the compiled build: {rating_steps.__file__}"


def _run(kernels: ModuleType, games: list[GameResult], drifts: tuple[float, ...]) -> str:
    """The league's loop (services.recompute_pool's: the mixture's update_many and the Elo
    table) with `kernels` as rating_steps, and a few games one at a time; all it wrote, as text."""
    with pytest.MonkeyPatch.context() as mp:
        for name in ("TwoByTwoStep", "Block", "block_changes", "NO_DRIFT", "result_kept", "length_ratio"):
            mp.setattr(mixture, name, getattr(kernels, name))
        mp.setattr(model, "observation_of", kernels.observation_of)
        mp.setattr(elo, "elo_two_by_two", kernels.elo_two_by_two)
        m = PoolBayesKalman(config.params_for("nanking"), drifts=drifts)
        assert isinstance(m._step, kernels.TwoByTwoStep)
        table = ClubElo()
        out = []
        for g, changes in m.update_many(games, block_size=7):  # several blocks
            out.append((changes, table.update(g)))
        one = PoolBayesKalman(config.params_for("nanking"), drifts=drifts)
        out.append([one.update(g) for g in games[:5]])
        return repr((out, m.log_w, m.shown, m.state, table.ratings, table.games, one.state))


@st.composite
def game(draw, gid: int, t: float) -> GameResult:
    players = draw(st.permutations(range(9)))
    shape = draw(st.sampled_from(["2v2 lines", "2v2 lines", "2v2 scores", "2v2 ranks", "1v1", "three"]))
    if shape == "1v1":
        a, b = (draw(st.integers(0, 240)) * 5.0 for _ in range(2))
        return GameResult(gid, t, ((players[0],), (players[1],)), (a, b), None, draw(st.integers(1, 16)))
    if shape == "three":
        scores = tuple(draw(st.integers(0, 10)) * 50.0 for _ in range(3))
        return GameResult(gid, t, tuple((p,) for p in players[:3]), scores, None, draw(st.integers(1, 16)))
    teams = ((players[0], players[1]), (players[2], players[3]))
    if shape == "2v2 ranks":
        return GameResult(gid, t, teams, None, draw(st.sampled_from([0, 1])), draw(st.integers(1, 16)))
    if shape == "2v2 scores":
        a, b = (draw(st.integers(-40, 240)) * 5.0 for _ in range(2))
        return GameResult(gid, t, teams, (a, b), None, draw(st.integers(1, 16)))
    lines = draw(
        st.lists(st.tuples(st.integers(-50, 160), st.integers(-50, 160)), min_size=1, max_size=16).map(
            lambda xs: tuple(HandDetail((5.0 * a, 5.0 * b)) for a, b in xs)
        )
    )
    scores = (sum(h.points[0] for h in lines), sum(h.points[1] for h in lines))
    return GameResult(gid, t, teams, scores, None, len(lines), hand_details=lines)


@st.composite
def history(draw) -> list[GameResult]:
    n = draw(st.integers(1, 30))
    t = 1.7e9
    out = []
    for gid in range(n):
        # idle gaps of none to a season, and now and then a game filed out of order (no drift back)
        t += draw(st.sampled_from([0.0, 1800.0, 86400.0, 40 * 86400.0, 400 * 86400.0, -3600.0]))
        out.append(draw(game(gid, t)))
    return out


@settings(max_examples=60, deadline=None)
@given(games=history(), drifts=st.sampled_from([mixture.MIX_DRIFTS, PREVIOUS_DRIFTS, (0.0,), (0.003, 0.0)]))
def test_the_imported_build_writes_what_the_source_writes(games, drifts):
    assert _run(rating_steps, games, drifts) == _run(INTERPRETED, games, drifts)


def test_the_comparison_would_see_a_difference():
    """The property can fail: a step that rounds one operation differently is told apart."""
    games = [
        GameResult(g, 1.7e9 + 3600.0 * g, ((g % 5, 5), (6, 7 + g % 2)), (600.0 + g, 400.0), None, 12) for g in range(20)
    ]
    drifts = mixture.MIX_DRIFTS
    off = _from_source()
    real_drifted = off.TwoByTwoStep.drifted
    off.TwoByTwoStep.drifted = lambda self, v, k, dt: real_drifted(self, v, k, dt) * (1.0 + 2.0**-52)
    assert _run(off, games, drifts) != _run(INTERPRETED, games, drifts)
