"""The engine and the tournament core are pure: importing them in a fresh interpreter loads no
Django, DRF or Celery; every module of the engine loads the standard library and the engine, nothing
else (import-linter's contracts in pyproject.toml name what is forbidden; this checks what is
allowed)."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fresh_interpreter(code: str) -> str:
    """What `code` prints in a new Python process that sees only the repository (no Django set up,
    nothing imported by the test session)."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    return result.stdout


def test_engine_and_tournament_core_import_nothing_from_django():
    code = (
        "import sys, games.engine, games.engine.cli, games.engine.bot, games.engine.legal, games.engine.bsw\n"
        "import games.tournament, games.tournament.cli, games.tournament.pairing.swiss\n"
        "import games.tournament.pairing.round_robin, games.tournament.pairing.individual\n"
        "import games.tournament.pairing.evaluate\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'})\n"
        "print(','.join(bad))\n"
    )
    assert fresh_interpreter(code).strip() == ""


def test_engine_keeps_no_module_level_mutable_state_between_games():
    from games.engine import fold, random_game, state_json

    a = random_game(11)
    b = random_game(12)
    first = state_json(fold(a))
    fold(b)
    assert state_json(fold(a)) == first


def test_every_engine_module_loads_only_the_standard_library_and_the_engine():
    # games.compiled__mypyc: the compiled build's shared library of the engine's compiled modules
    # (mypyc_build.py), their code, nothing else of games
    code = (
        "import pkgutil, sys, games.engine\n"
        "names = [m.name for m in pkgutil.walk_packages(games.engine.__path__, 'games.engine.')\n"
        "         if m.name != 'games.engine.__main__']  # the command line's entry: runs on import\n"
        "for name in names: __import__(name)\n"
        "top = {m.split('.')[0] for m in sys.modules if m not in ('games', 'games.compiled__mypyc') and not m.startswith('games.engine')}\n"
        "print(len(names)); print(','.join(sorted(m for m in sys.modules if m.startswith('games.') and not m.startswith('games.engine') and m != 'games.compiled__mypyc')))\n"
        "print(','.join(sorted(t for t in top if t not in sys.stdlib_module_names and not t.startswith('_'))))\n"
    )
    count, other_games, outside = (fresh_interpreter(code).splitlines() + ["", ""])[:3]
    assert int(count) > 30  # every module was walked: the package, its Tien Zi Que sub-package
    assert other_games == "", f"the engine loads modules of games outside it: {other_games}"
    assert outside == "", f"the engine loads packages outside the standard library: {outside}"


#: Outside games/engine/ and the engine's own unit tests (tests/engine/, which test its modules'
#: helpers), code uses the engine by the names of `games.engine` (docs/engine-api.md). Inside the
#: site's packages import-linter keeps it so; this covers the other tests and the benchmarks.
OUTSIDE = [ROOT / "tests", ROOT / "bench"]
ENGINE_TESTS = ROOT / "tests" / "engine"


def _engine_modules_imported(source: str, where: str) -> list[str]:
    """``where:line module`` for each import of an engine module other than ``games.engine``."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        names = (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.level == 0
            else ([a.name for a in node.names] if isinstance(node, ast.Import) else [])
        )
        found += [f"{where}:{node.lineno} {n}" for n in names if n.startswith("games.engine.")]
    return found


def test_outside_the_engine_and_its_tests_only_the_public_api_is_imported():
    files = [p for d in OUTSIDE for p in d.rglob("*.py") if ENGINE_TESTS not in p.parents]
    assert len(files) > 100
    hits = [hit for p in files for hit in _engine_modules_imported(p.read_text(), str(p.relative_to(ROOT)))]
    assert hits == []


def test_the_private_import_check_sees_every_form_of_import():
    source = (
        "import games.engine.state\nfrom games.engine.bsw import export_bsw\nfrom games.engine import fold\n"
        "def f():\n    from games.engine.tien_zi_que import random_deck\n"
    )
    assert [h.split()[-1] for h in _engine_modules_imported(source, "probe.py")] == [
        "games.engine.state",
        "games.engine.bsw",
        "games.engine.tien_zi_que",
    ]
