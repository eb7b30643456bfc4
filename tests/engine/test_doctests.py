"""The examples in the docstrings of the engine and the tournament core hold: each module's
doctests run here (the docs quote them; a stale example is a failure, not a comment)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.engine
import games.tournament


def _modules(package) -> list[str]:
    names = [package.__name__] + [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return [n for n in names if not n.endswith(".__main__")]  # a command line's entry runs on import


MODULES = _modules(games.engine) + _modules(games.tournament)

# doctest finds the examples of the Python source's functions and classes: a compiled module's
# are not Python functions (tests/engine/conftest.py runs these on the source)
pytestmark = pytest.mark.pure_python


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name):
    module = importlib.import_module(name)
    failed, _attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failed == 0, f"{name}: {failed} example(s) do not hold (see the output above)"


def test_the_examples_are_found():
    """The engine's docstrings do hold examples (the registry's, the package's, ...): a finder that
    found none would let every test above pass."""
    finder = doctest.DocTestFinder()
    found = {n for n in MODULES if any(t.examples for t in finder.find(importlib.import_module(n)))}
    assert {"games.engine", "games.engine.registry", "games.engine.cards", "games.tournament"} <= found
