"""The website reads through the apps' selectors and writes through their services (issue 32 item
3): a page module imports no model of games (a model named as a type only, under TYPE_CHECKING) and
uses no model manager (`.objects`: Django's and DRF's models are read through games too). The modules already moved are held to it here, one by one, until
the import contract for all of replay/ can be added (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MOVED = [
    "replay/site_nav.py",
    "replay/views.py",
    "replay/data.py",
    "replay/present.py",
    "replay/accounts/me.py",
    "replay/accounts/views.py",
    "replay/clubs/archive_views.py",
    "replay/clubs/audit_lines.py",
    "replay/clubs/forms.py",
    "replay/clubs/summary.py",
    "replay/clubs/upload.py",
    "replay/clubs/views.py",
    "replay/clubs/webhook_views.py",
    "replay/entry/forms.py",
    "replay/entry/present.py",
    "replay/entry/tien_zi_que.py",
    "replay/entry/views.py",
]


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The line numbers inside `if TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def model_uses(source: str) -> list[str]:
    tree = ast.parse(source)
    typing_only = _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.lineno not in typing_only:
            module = node.module or ""
            games = module.startswith("games") or (node.level > 0 and module.endswith("models"))
            if games and (module.endswith(".models") or any(a.name == "models" for a in node.names)):
                found.append(f"{node.lineno}: from {module} import ...")
        elif isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append(f"{node.lineno}: .objects")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


@pytest.mark.parametrize("path", MOVED)
def test_a_moved_page_module_reads_through_selectors(path):
    assert model_uses((ROOT / path).read_text()) == []


def test_the_check_finds_a_model_import_and_a_manager():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from games.models import Game\n"
        "if TYPE_CHECKING:\n"
        "    from games.models import Player\n"
        "rows = Game.objects.filter(pk=1)\n"
    )
    assert model_uses(source) == ["2: from games.models import ...", "5: .objects"]
