"""The tournament core's public API is its package's `__all__` (docs/tournament.md "Python API"):
every name the package exports is in it, and every name in it is named in the document. Outside
games/tournament/ only these names are imported (the import contract in pyproject.toml)."""

from __future__ import annotations

import re
import types
from pathlib import Path

import games.tournament as package

DOC = (Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text()


def test_every_public_name_of_the_tournament_core_is_listed_and_documented():
    exported = {
        n for n in dir(package) if not n.startswith("_") and not isinstance(getattr(package, n), types.ModuleType)
    }
    assert exported == set(package.__all__)
    api = DOC[DOC.index("## Python API") : DOC.index("## Record format")]
    assert [n for n in package.__all__ if not re.search(rf"(?<![\w.]){re.escape(n)}\b", api)] == []
