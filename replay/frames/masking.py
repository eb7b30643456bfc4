"""What a reader may see of each frame and event: the engine's rule (``engine.redact_state``,
``engine.redact_event``) applied to every frame, so a hidden hand never reaches a page's payload.
The sight itself is decided by ``games.visibility.reader_sight``."""

from __future__ import annotations

from typing import Any

from games import engine


def shown_state(state: Any, sight: engine.Sight, n: int) -> dict:
    """The ``state_json`` of ``state`` (the state after ``n`` events) as the reader sees it."""
    return engine.redact_state(engine.state_json(state), sight, n)


def shown_event(event: dict, sight: engine.Sight, index: int) -> dict:
    """The event at ``index`` of the record as the reader sees it."""
    return engine.redact_event(event, sight, index)
