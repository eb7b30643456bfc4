"""No name with a leading underscore crosses a package (issue 32): a module imports a private name
only from its own package (or a package it is inside), never from a sibling or a child package.
What two packages share is public in the one module it belongs to (the stream store,
games/streams/; the API's request helpers, games/api/requests.py). Read from the source's AST, so
an `import x as y` then `y._name`, and a relative import, count too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "replay", "tichu_site")
#: Django's documented model API spells `_meta` with an underscore
PUBLIC_BY_CONVENTION = {"_meta"}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_BY_CONVENTION


def _as_module(dotted: str, root: Path) -> str | None:
    """The module (or package) `dotted` names, or the one it is an attribute of; None outside ours."""
    parts = dotted.split(".")
    while parts:
        path = root.joinpath(*parts)
        if path.is_dir() or path.with_suffix(".py").is_file():
            return ".".join(parts)
        parts.pop()
    return None


def _owner(module: str, root: Path) -> str:
    """The package whose private names `module`'s are: itself for a package, else its parent."""
    return module if root.joinpath(*module.split(".")).is_dir() else module.rpartition(".")[0]


def _may_use(importer: str, module: str, root: Path) -> bool:
    owner = _owner(module, root)
    return importer == owner or importer.startswith(owner + ".")


def crossings(importer: str, source: str, *, is_package: bool, root: Path = ROOT) -> list[str]:
    """Each private name module `importer` (whose text is `source`) takes from another package."""
    tree = ast.parse(source)
    package = importer if is_package else importer.rpartition(".")[0]
    bound: dict[str, str] = {}  # local name -> the module or object of ours it is bound to
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            if base.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                module = _as_module(base, root)
                if _is_private(alias.name):
                    if module is not None and not _may_use(importer, module, root):
                        found.append(f"{importer}: from {base} import {alias.name} (line {node.lineno})")
                else:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    # `import a.b` binds `a`; `import a.b as c` binds `c` to a.b
                    top = alias.name.split(".")[0]
                    bound[alias.asname or top] = alias.name if alias.asname else top
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _is_private(node.attr):
            target = bound.get(node.value.id)
            module = _as_module(target, root) if target else None
            if module is not None and not _may_use(importer, module, root):
                found.append(f"{importer}: {node.value.id}.{node.attr} of {target} (line {node.lineno})")
    return found


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            yield ".".join(parts), path, is_package


def test_no_private_name_crosses_a_package():
    found = []
    for module, path, is_package in _modules():
        found += crossings(module, path.read_text(encoding="utf-8"), is_package=is_package)
    assert found == []


def test_no_package_exports_a_private_name():
    """An `__all__` offers its names to other packages: none with an underscore."""
    found = []
    for module, path, _is_package in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                names = [e.value for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)]
                found += [f"{module}: {name}" for name in names if isinstance(name, str) and _is_private(name)]
    assert found == []


def test_the_scan_sees_each_way_a_private_name_crosses():
    """The scan itself: what it must find (a sibling's private name, imported, relative, through a
    module alias) and what it must let be (its own package's, a parent package's, a public name)."""
    crossing = {
        "from games.services import _fingerprint": False,
        "from games.services.checks import _check_name": False,
        "from ..services import _fingerprint": False,
        "from games import services\nservices._fingerprint('x')": False,
        "from games import services as gs\ngs._idempotent_replay()": False,
        "import games.services\ngames.services._x": None,  # attribute of an attribute: not followed
        "from games.tournaments.services import _core_call": True,
        "from .services import _core_call": True,
        "from games.tournaments import services\nservices._core_call()": True,
        "from games.streams.idempotency import fingerprint": True,
        "from games.models import Club\nClub._meta": True,
        "from games import _a_parent_packages_helper": True,
    }
    for source, allowed in crossing.items():
        found = crossings("games.tournaments.results_import", source, is_package=False)
        if allowed is None:
            continue
        assert (found == []) is allowed, (source, found)
