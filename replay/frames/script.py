"""The replay's payload as text for the page's ``<script type="application/json">`` element and for
``/replay/data/``, escaped as Django's public ``json_script`` filter escapes it (its table is a
private name of Django's, so it is written out here; ``tests/replay/test_frames_script.py`` checks
that the two agree): ``<``, ``>`` and ``&`` as JSON unicode escapes, so the text cannot close the
element or open a comment, and JSON.parse reads it unchanged."""

from __future__ import annotations

import json
from typing import Any

SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


def script_text(value: Any) -> str:
    """``value`` as compact JSON, safe inside a script element."""
    return json.dumps(value, separators=(",", ":")).translate(SCRIPT_ESCAPES)
