"""The compiled build: the engine's hot modules compiled with mypyc, in place (docs/speed.md).

    python mypyc_build.py            build (what `make compile` runs when a source is newer)
    python mypyc_build.py --sources  print the compiled sources, one a line (the Makefile's list)
    python mypyc_build.py --clean    remove the build: the pure Python source runs

The Python source stays the one home of the rules: each module below is compiled from its own
``.py`` to an extension module beside it (``games/engine/combos.cpython-311-x86_64-linux-gnu.so``,
gitignored), which Python imports before the ``.py``. The build writes
``games/engine/compiled.json``, each source's SHA-256; the engine refuses to import a compiled
module whose source has changed since (games/engine/build_check.py: "run make compile").

Without a C compiler (or mypy) the build says so and leaves the pure Python source to run: same
results, slower. With ``CI`` set that is a failure instead: CI runs the compiled build
(tests/engine/test_compiled_build.py).

Needs mypy (pyproject's ``compile`` extra, in ``dev`` too) and setuptools at build time only: the
compiled modules import nothing of them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: The one list of compiled modules: the fold and its phases, the cards and combinations they
#: read, the variants' hooks, the scoring, and the BSW reader (bench/import.py's profile,
#: docs/speed.md). A module that subclasses or patches one of these at run time needs it to stay
#: a Python class (games/engine/interpreted.py) or cannot be compiled: Variant and the family's
#: games are Python classes with compiled methods (tests subclass Variant, pickled states hold a
#: variant). A Python class with at most two compiled subclasses is checked by its exact classes
#: where compiled code takes it (mypyc), so a class of its own elsewhere is refused: family.py is
#: compiled with variants.py (Variant's three compiled subclasses make the check isinstance).
COMPILED_MODULES = [
    "games/engine/cards.py",
    "games/engine/combos.py",
    "games/engine/event_fields.py",
    "games/engine/schema.py",
    "games/engine/event_fold.py",
    "games/engine/family_fold.py",
    "games/engine/deal_phase.py",
    "games/engine/exchange_phase.py",
    "games/engine/play_phase.py",
    "games/engine/trick_phase.py",
    "games/engine/hand_end.py",
    "games/engine/hand.py",
    "games/engine/variants.py",
    "games/engine/family.py",
    "games/engine/state.py",
    "games/engine/record.py",
    "games/engine/bsw.py",
    "games/engine/bsw_codes.py",
    "games/engine/bsw_game.py",
    "games/engine/bsw_hand.py",
    "games/engine/bsw_lines.py",
    "games/engine/bsw_reader.py",
    "games/engine/bsw_scoresheet.py",
    # the league's rating loop's per-game arithmetic (docs/ratings.md 3f): games/ratings/__init__
    # imports the engine first, so the same check and TICHU_PURE_PYTHON cover it
    "games/ratings/rating_steps.py",
]

#: the shared library of the compiled modules (mypyc's group): games/compiled__mypyc.*.so
GROUP_NAME = "games.compiled"
MANIFEST = ROOT / "games" / "engine" / "compiled.json"
BUILD_DIR = ROOT / "build" / "mypyc"
EXTENSION_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def built_files() -> list[Path]:
    """Every extension module of a build, of this list or an older one."""
    found = set(ROOT.glob(f"games/*{EXTENSION_SUFFIX}"))
    for source in COMPILED_MODULES:
        found |= set((ROOT / source).parent.glob(f"*{EXTENSION_SUFFIX}"))
    return sorted(found)


def clean() -> None:
    for path in built_files():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)


def build() -> None:
    from mypyc.build import mypycify  # build-time only (pyproject's compile extra)
    from setuptools import setup  # type: ignore[import-untyped]

    clean()  # an extension of a module no longer listed must not stay behind
    extensions = mypycify(COMPILED_MODULES, opt_level="3", group_name=GROUP_NAME, target_dir=str(BUILD_DIR / "c"))
    setup(
        name="tichu-compiled",
        ext_modules=extensions,
        script_args=[
            "-q",
            "build_ext",
            "--inplace",
            "--build-temp",
            str(BUILD_DIR / "temp"),
            "--build-lib",
            str(BUILD_DIR / "lib"),
        ],
    )
    sources = {path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in COMPILED_MODULES}
    MANIFEST.write_text(json.dumps({"sources": sources}, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    os.chdir(ROOT)  # mypycify takes the paths relative to the project's root
    if "--sources" in argv:
        print("\n".join(COMPILED_MODULES))
        return 0
    if "--clean" in argv:
        clean()
        shutil.rmtree(BUILD_DIR, ignore_errors=True)
        return 0
    try:
        build()
    except (Exception, SystemExit) as err:  # no compiler, no headers, no mypy: the pure build runs
        clean()
        why = "mypyc's errors above" if isinstance(err, SystemExit) else repr(err)
        print(f"mypyc_build.py: the engine is not compiled ({why}); it runs as pure Python: same results, slower")
        return 1 if os.environ.get("CI") else 0
    print(f"mypyc_build.py: compiled {len(COMPILED_MODULES)} modules (games/engine/compiled.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
