"""The engine's gettext catalogue is package data: a build of the project carries every language's
.po and compiled .mo beside games/engine/wording.py, which reads them from there (an editable
install would hide a missing declaration, since it reads the source tree)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games.engine.wording import CATALOGUE_DIR

ROOT = Path(__file__).resolve().parents[2]
#: setuptools' build_py, configured by pyproject.toml: what a wheel's packages would hold.
BUILD_PY = "import sys; from setuptools import setup; sys.argv = ['setup.py', '-q', 'build_py', '--build-lib', sys.argv[1]]; setup()"


def test_a_build_of_the_project_carries_the_engines_catalogue(tmp_path):
    subprocess.run([sys.executable, "-c", BUILD_PY, str(tmp_path)], check=True, cwd=ROOT, capture_output=True)
    built = {p.relative_to(tmp_path / "games/engine").as_posix() for p in tmp_path.glob("games/engine/catalogue/**/*")}
    expected = {p.relative_to(CATALOGUE_DIR.parent).as_posix() for p in CATALOGUE_DIR.glob("*/LC_MESSAGES/engine.*")}
    assert len(expected) == 6  # fr, de, uk: .po and .mo
    assert expected <= built, sorted(expected - built)
