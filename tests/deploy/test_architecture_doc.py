"""docs/architecture.md stays true to the tree: every file or folder it names exists, and every
module, function or class it names (`games.snapshots.state_at`, `replay.game_page`, ...) is there."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
#: Celery task names the doc quotes as names (the tasks moved to games/ratings/tasks.py)
TASK_NAMES = {"games.tasks.*", "games.import_tasks.rate_import_job"}
#: the short names the doc uses inside a paragraph about one package
SHORT = {
    "engine": "games.engine",
    "services": "games.services",
    "snapshots": "games.snapshots",
    "frames": "replay.frames",
    "sql": "games.sql",
}


def _quoted() -> list[str]:
    return re.findall(r"`([^`\s]+)`", DOC)


def test_every_path_named_exists():
    paths = [
        q
        for q in _quoted()
        if "/" in q
        and re.fullmatch(r"[\w./-]+", q)
        and not q.startswith("/")
        and not q.startswith(("api/", "games_event"))
    ]
    assert len(paths) > 15
    assert [p for p in paths if not (ROOT / p).exists()] == []


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def test_every_module_and_name_named_exists():
    names = [re.sub(r"\(.*$", "", q) for q in _quoted()]
    names = [SHORT[n.split(".")[0]] + n[n.index(".") :] if n.split(".")[0] in SHORT and "." in n else n for n in names]
    names = [n for n in names if re.fullmatch(r"(games|replay)(\.\w+)+", n) and n not in TASK_NAMES]
    assert len(names) > 20
    assert [n for n in names if not _resolves(n)] == []
