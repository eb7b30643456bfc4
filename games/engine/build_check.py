"""No stale compiled module can run: the check of the compiled build (``mypyc_build.py``).

The build compiles some modules' ``.py`` to extension modules beside them (``x.cpython-311-...so``),
which Python imports before the ``.py``. An ``.so`` built from an older source would run rules
that are no longer the source's, silently. So the build writes :data:`MANIFEST`: each compiled
module's source path and the SHA-256 of the source it was built from; :func:`stale_modules`
names every compiled module whose source has changed since, or whose ``.so`` the manifest does
not know, and the engine's ``__init__`` refuses to import with them ("run make compile").

``TICHU_PURE_PYTHON=1`` (:func:`prefer_sources`) makes the compiled modules import from their
``.py`` instead: the pure build, same results, for tests that patch the engine's internals and to
compare both builds.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: the package directory that holds games/ (the manifest's paths are relative to it)
ROOT = Path(__file__).resolve().parents[2]
MANIFEST = Path(__file__).with_name("compiled.json")
PURE_ENV = "TICHU_PURE_PYTHON"


class StaleBuildError(ImportError):
    pass


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest() -> dict[str, str]:
    """Source path (relative to :data:`ROOT`) -> SHA-256 the build compiled; {} without a build."""
    try:
        return dict(json.loads(MANIFEST.read_text(encoding="utf-8"))["sources"])
    except FileNotFoundError:
        return {}


def built_extension(source: Path) -> Path | None:
    """The extension module built beside ``source``, if any."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def stale_modules() -> list[str]:
    """Each compiled module (an extension beside its source) whose source is not the one it was
    built from, or that the manifest does not name."""
    built = manifest()
    stale = []
    directories = {ROOT / "games" / "engine"} | {(ROOT / path).parent for path in built}
    for directory in sorted(directories):
        for source in sorted(directory.glob("*.py")):
            if built_extension(source) is None:
                continue
            relative = source.relative_to(ROOT).as_posix()
            if built.get(relative) != source_hash(source):
                stale.append(relative)
    return stale


def check_build() -> None:
    """Refuse to go on with a stale compiled module (unless the pure build is asked for)."""
    if os.environ.get(PURE_ENV):
        return
    stale = stale_modules()
    if stale:
        raise StaleBuildError(
            f"compiled modules older than their source: {', '.join(stale)}; run `make compile` "
            f"(or set {PURE_ENV}=1 to run the Python source)"
        )


class _SourcesFirst(importlib.machinery.PathFinder):
    """Finds a module's ``.py`` before its extension module: the pure build."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("games.") or path is None:
            return None
        name = fullname.rpartition(".")[2]
        for directory in path:
            source = Path(directory) / f"{name}.py"
            if source.is_file() and built_extension(source) is not None:
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def prefer_sources() -> None:
    """With ``TICHU_PURE_PYTHON`` set, every compiled module imports from its ``.py``."""
    if os.environ.get(PURE_ENV) and not any(f is _SourcesFirst for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst)


def is_compiled(module: object) -> bool:
    """Whether ``module`` was imported from an extension module (the compiled build)."""
    return str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


# On import: the engine's __init__ imports this module before any other of its modules.
prefer_sources()
check_build()
