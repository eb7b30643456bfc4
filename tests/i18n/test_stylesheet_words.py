"""The stylesheets write no words of their own: a `content: "..."` with letters never reaches a
catalogue, so the words a rule shows come from the markup (`content: attr(data-...)`, the
attribute written by the template in the reader's language)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORDS_IN_CSS = re.compile(r"""content:\s*(["'])[^"']*[^\W\d_][^"']*\1""")


def test_no_stylesheet_writes_words():
    found = [(str(p.relative_to(REPO)), m.group(0)) for p in (REPO / "replay" / "static").rglob("*.css")
             for m in WORDS_IN_CSS.finditer(p.read_text(encoding="utf-8"))]  # fmt: skip
    assert found == []
