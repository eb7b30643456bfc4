"""Tests marked ``pure_python`` run against the engine's Python source, not its compiled build.

Such a test patches or inspects the engine's internals (a method replaced by monkeypatch, a
subclass of GameState, ``vars()`` of a reader object, the examples in its docstrings), which the
compiled build's modules (mypyc_build.py) do not allow. When the engine is compiled, each module
with such tests runs them once in a child pytest with ``TICHU_PURE_PYTHON=1``
(games/engine/build_check.py), and each test here passes or fails as it did there. Without the
compiled build they run here, as every other test.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

import games.engine.state
from games.engine import build_check

ROOT = Path(__file__).resolve().parents[2]
OUTCOMES = ("PASSED", "FAILED", "ERROR", "XFAIL", "XPASS")


def engine_is_compiled() -> bool:
    return build_check.is_compiled(games.engine.state)


@functools.cache
def _child_run(path: str) -> tuple[dict[str, str], str]:
    """The outcome of each ``pure_python`` test of the module at ``path``, in a child pytest on the
    Python source, and the child's output."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", path, "-m", "pure_python", "-q", "-rA", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env={**os.environ, build_check.PURE_ENV: "1"},
        capture_output=True,
        text=True,
    )
    outcomes = {}
    for line in result.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in OUTCOMES:
            outcomes[rest.split(" - ")[0]] = word
    return outcomes, result.stdout[-4000:] + result.stderr[-2000:]


def _run_on_the_source(item: pytest.Item) -> None:
    outcomes, output = _child_run(str(item.path.relative_to(ROOT)))
    outcome = outcomes.get(item.nodeid)
    if outcome in {"PASSED", "XFAIL"}:
        return
    if outcome is None and "skipped" in output and " failed" not in output and " error" not in output:
        pytest.skip("skipped on the Python source (child pytest)")
    pytest.fail(f"on the Python source (TICHU_PURE_PYTHON=1, child pytest): {outcome}\n{output}", pytrace=False)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(build_check.PURE_ENV) or not engine_is_compiled():
        return
    for item in items:
        if item.get_closest_marker("pure_python"):
            item.runtest = functools.partial(_run_on_the_source, item)  # type: ignore[method-assign]
