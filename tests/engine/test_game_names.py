"""No module outside a game's own package names that game or its state class (issue 32 item 2).

Other layers read a game's declared facts (``GameInfo``: sides, target, board, online, ...) and
ask its registered ``Game``; they never test its name or the class of its state. Read from the
source's syntax tree (comments and prose in docstrings do not count):

- a game with a package of its own (Tien Zi Que: ``games/engine/tien_zi_que/``): outside it, no
  string equal to its name, no import of its package, no name of its state or game class;
  the engine's registry (which registers it) and public API (``games/engine/__init__.py``)
  excepted, and the game's own entry page (``replay/entry/tien_zi_que.py``, chosen by the
  declared ``board``);
- every game: outside the engine, no comparison with its name (``variant == "nanking"``; a
  default value such as ``variant="nanking"`` is no check); nowhere an ``isinstance`` test of a
  game's state class outside the module that defines it.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from games import engine
from games.engine.game import registered

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("games", "replay")
#: the modules that may name a game with a package of its own: the one place that registers it,
#: the engine's public names, and the game's own entry page (chosen by GameInfo.board)
REGISTRATION = {"games/engine/registry.py", "games/engine/__init__.py", "replay/entry/tien_zi_que.py"}


def _sources() -> list[tuple[str, ast.Module]]:
    out = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel:
                continue  # a migration is a frozen copy of its day's data, by name
            out.append((rel, ast.parse(path.read_text(encoding="utf-8"), rel)))
    return out


SOURCES = _sources()


def _module_of(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _imported(rel: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The absolute module names an import statement reads (relative ones resolved)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        package = _module_of(rel).split(".")
        if not rel.endswith("__init__.py"):
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base]) if base else ".".join(package)
    return [base] + [f"{base}.{a.name}" for a in node.names]


def _own_package_games():
    """(name, package path, package module, class names) of each game with a package of its own."""
    games = []
    for game in registered():
        module = type(game).__module__  # games.engine.tien_zi_que.game
        parts = module.split(".")
        if len(parts) < 4 or parts[:2] != ["games", "engine"]:
            continue  # the Tichu family: FamilyGame lives in the engine itself
        package = ".".join(parts[:3])
        state = game.new_state(None, [f"P{i}" for i in range(game.info.seat_counts[0])])
        classes = {type(game).__name__, type(state).__name__}
        games.append((game.info.name, package.replace(".", "/"), package, classes))
    return games


OWN = _own_package_games()


def test_a_game_has_a_package_of_its_own():
    """The scan below has something to look for: Tien Zi Que is such a game (the test would
    pass on nothing otherwise)."""
    assert [name for name, *_ in OWN] == ["tien-zi-que"]
    assert OWN[0][3] == {"TienZiQueGame", "TienZiQueState"}


def _own_game_mentions(rel: str, tree: ast.Module) -> list[str]:
    found = []
    for name, path, package, classes in OWN:
        if rel.startswith(path + "/") or rel in REGISTRATION:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value == name:
                found.append(f"{rel}:{node.lineno}: the string {name!r}")
            elif isinstance(node, ast.Name) and node.id in classes:
                found.append(f"{rel}:{node.lineno}: {node.id}")
            elif isinstance(node, ast.Attribute) and node.attr in classes:
                found.append(f"{rel}:{node.lineno}: .{node.attr}")
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for module in _imported(rel, node):
                    if module == package or module.startswith(package + "."):
                        found.append(f"{rel}:{node.lineno}: imports {module}")
                        break
    return found


def _name_comparisons(rel: str, tree: ast.Module) -> list[str]:
    if rel.startswith("games/engine/"):
        return []  # the engine's family modules are the Tichu family's own package
    names = set(engine.GAME_NAMES)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                values = [side] if isinstance(side, ast.Constant) else getattr(side, "elts", [])
                for value in values:
                    if isinstance(value, ast.Constant) and value.value in names:
                        found.append(f"{rel}:{node.lineno}: compares with {value.value!r}")
    return found


def _state_class_tests(rel: str, tree: ast.Module) -> list[str]:
    states = {}
    for game in registered():
        cls = type(game.new_state(None, [f"P{i}" for i in range(game.info.seat_counts[0])]))
        states[cls.__name__] = Path(inspect.getfile(cls)).resolve().relative_to(ROOT).as_posix()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            if len(node.args) == 2:
                for sub in ast.walk(node.args[1]):
                    name = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
                    if name in states and states[name] != rel:
                        found.append(f"{rel}:{node.lineno}: isinstance(..., {name})")
    return found


@pytest.mark.parametrize("check", [_own_game_mentions, _name_comparisons, _state_class_tests])
def test_no_module_outside_a_game_names_it(check):
    found = [line for rel, tree in SOURCES for line in check(rel, tree)]
    assert found == []


@pytest.mark.parametrize(
    "source, expected",
    [
        ('if variant == "tien-zi-que":\n    pass\n', 2),  # the string (mention) and the comparison
        ("from games.engine.tien_zi_que import TienZiQueState\n", 1),  # the import
        ("import games\nok = isinstance(s, games.engine.GameState)\n", 1),
        ('v = v if v not in ("threechu", "x") else None\n', 1),
        ('def f(variant="nanking"):\n    return variant\n', 0),  # a default is no check
    ],
)
def test_the_scan_finds_a_name_check(source, expected):
    """The scan itself, on lines it must find (and one it must let be)."""
    tree = ast.parse(source)
    rel = "games/some_app/module.py"
    found = _own_game_mentions(rel, tree) + _name_comparisons(rel, tree) + _state_class_tests(rel, tree)
    assert len(found) == expected, found
