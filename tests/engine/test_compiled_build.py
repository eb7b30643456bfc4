"""The compiled build (mypyc_build.py): CI runs it, and no stale compiled module can run.

In CI (``CI=true``, .ci/run) the engine's hot modules must be the compiled ones: a build that fell
back to the Python source would pass every other test, only slower. Elsewhere the pure source is
allowed (no C compiler). A compiled module whose source has changed since it was built makes the
engine refuse to import ("run make compile"), shown here on a copy of the engine.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine.combos
import games.engine.event_fold
import games.engine.play_phase
import games.engine.state
from games.engine import GameState, build_check, fold, random_game, state_json, variants

ROOT = Path(__file__).resolve().parents[2]
HOT_MODULES = [games.engine.state, games.engine.event_fold, games.engine.play_phase, games.engine.combos]


def _built() -> bool:
    return build_check.is_compiled(games.engine.state)


def test_in_ci_the_hot_modules_are_compiled():
    if os.environ.get("CI", "").strip().lower() not in {"1", "true", "yes"}:
        pytest.skip("outside CI the pure Python source may run (no C compiler)")
    if os.environ.get(build_check.PURE_ENV):
        pytest.skip(f"{build_check.PURE_ENV} asks for the Python source")
    pure = [m.__name__ for m in HOT_MODULES if not build_check.is_compiled(m)]
    assert pure == [], f"CI runs the compiled build (make compile): these run as Python source: {pure}"


def test_the_manifest_names_every_compiled_module_with_its_sources_hash():
    if not _built():
        pytest.skip("the engine is not compiled here")
    assert build_check.stale_modules() == []
    for module in HOT_MODULES:
        source = Path(module.__name__.replace(".", "/") + ".py")
        assert build_check.manifest()[source.as_posix()] == build_check.source_hash(ROOT / source)


def _import_copy(tree: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import games.engine.state as s; print(s.__file__)"],
        cwd=tree,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), **env},
        capture_output=True,
        text=True,
    )


def _copy_of_the_build(tmp_path: Path) -> Path:
    """The compiled engine (its sources, extension modules, manifest and shared library) copied."""
    if not _built():
        pytest.skip("the engine is not compiled here")
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "games" / "engine", tree / "games" / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in (ROOT / "games").glob("compiled__mypyc*"):
        shutil.copy2(shared, tree / "games")
    (tree / "games" / "__init__.py").write_text("")
    return tree


def test_a_source_edited_after_the_build_stops_the_engine_from_importing(tmp_path):
    tree = _copy_of_the_build(tmp_path)

    fresh = _import_copy(tree)
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.strip().endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))

    play_phase = tree / "games" / "engine" / "play_phase.py"
    play_phase.write_text(play_phase.read_text() + "\n# edited after the build\n")
    stale = _import_copy(tree)
    assert stale.returncode != 0
    assert "StaleBuildError" in stale.stderr and "games/engine/play_phase.py" in stale.stderr
    assert "run `make compile`" in stale.stderr

    pure = _import_copy(tree, **{build_check.PURE_ENV: "1"})  # the source runs, as asked
    assert pure.returncode == 0, pure.stderr
    assert pure.stdout.strip().endswith("state.py")


def test_an_extension_the_manifest_does_not_name_is_stale(tmp_path):
    tree = _copy_of_the_build(tmp_path)
    manifest = tree / "games" / "engine" / "compiled.json"
    sources = json.loads(manifest.read_text())["sources"]
    del sources["games/engine/combos.py"]
    manifest.write_text(json.dumps({"sources": sources}))
    result = _import_copy(tree)
    assert result.returncode != 0 and "games/engine/combos.py" in result.stderr


PICKLE_STATES = r"""
import pickle, sys
from games.engine import fold, random_game
record = random_game(int(sys.argv[1]))
sys.stdout.buffer.write(pickle.dumps([fold(record, upto=k) for k in range(0, len(record["events"]), 37)]))
"""


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), step=st.integers(1, 60))
def test_a_state_pickled_anywhere_in_a_game_unpickles_to_the_same_state(seed, step):
    """The snapshot cache pickles states (a Hand in play, its tricks' Combinations, the rules):
    unpickled, each says the same and folds the rest of the game the same, in either build."""
    record = random_game(seed)
    events = record["events"]
    for upto in range(0, len(events), step):
        state = fold(record, upto=upto)
        again = pickle.loads(pickle.dumps(state))
        assert state_json(again) == state_json(state)
        rest = events[upto : upto + step]
        state.apply_each(rest)
        again.apply_each(rest)
        assert state_json(again) == state_json(state)


def test_states_pickled_by_the_pure_build_unpickle_in_the_compiled_one():
    """A process on the Python source (TICHU_PURE_PYTHON=1) and one on the compiled build share
    the snapshot cache's pickles."""
    if not _built():
        pytest.skip("the engine is not compiled here")
    seed = 7
    pure = subprocess.run(
        [sys.executable, "-c", PICKLE_STATES, str(seed)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), build_check.PURE_ENV: "1"},
        capture_output=True,
        check=True,
    )
    record = random_game(seed)
    states = pickle.loads(pure.stdout)
    assert len(states) > 10
    for k, state in zip(range(0, len(record["events"]), 37), states):
        assert state_json(state) == state_json(fold(record, upto=k))


class _PlainNanking(variants.Variant):
    """A variant of a test's own: the rules of Nanking, a class no compiled module knows."""


def test_a_variant_of_a_class_of_its_own_folds_as_the_compiled_one_does():
    """Variant and the family's games are compiled Python classes (@interpreted_class): compiled
    code takes a subclass made anywhere else (mypyc checks a Python class with at most two compiled
    subclasses by exact class, which would refuse this one: mypyc_build.py's list)."""
    record = random_game(3)
    ours = GameState(_PlainNanking(), record.get("options") or {}, record["players"])
    ours.apply_each(record["events"])
    assert state_json(ours) == state_json(fold(record))
    assert ours.over and type(ours.variant) is _PlainNanking
