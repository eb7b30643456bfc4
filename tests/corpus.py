"""Where the shared corpus of real logs lies: the one place every test that reads it asks.

`TICHU_CORPUS` if set; else `../shared/corpus` beside the repository (as CI has it, beside the
clone), else `/work/shared/corpus` (the team's machine, whose worktrees lie deeper). Locally a
missing corpus skips the tests that read it (`needs_corpus`); with `CI=true` it is a failure of
the whole run (`tests/conftest.py`), never a quiet skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _locate() -> Path:
    if os.environ.get("TICHU_CORPUS"):
        return Path(os.environ["TICHU_CORPUS"])
    candidates = [REPO.parent / "shared" / "corpus", Path("/work/shared/corpus")]
    return next((c for c in candidates if c.is_dir()), candidates[0])


CORPUS = _locate()
MISSING = f"the shared corpus is not at {CORPUS} (set TICHU_CORPUS)"

#: for a module or a test that reads the corpus
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=MISSING)


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus directory (the test is skipped without it, except in CI: see the module)."""
    if not CORPUS.is_dir():
        pytest.skip(MISSING)
    return CORPUS
