"""Words for the replay: an event as a sentence, in the engine's words (``engine.event_words``, the
templates the entry page's script fills too), given the facts of the engine's frame after it that
the event does not carry (the combination the engine recognised, the hand's or round's number, a
round's score line). The names of combinations and calls are the engine's too
(``engine.combination_names``, ``engine.call_names``)."""

from __future__ import annotations

from typing import Any

from games import engine


def labels(lang: str = "en") -> dict[str, dict[str, str]]:
    """Combination, call and rank names in ``lang`` (the engine's terms): the replay's payload and
    the server-drawn pages read the same."""
    words = engine.words(lang)
    return {
        "combinations": engine.combination_names(lang),
        "calls": engine.call_names(lang),
        "ranks": {code: words.rank_name(code) for code in engine.RANK_NAMES},
    }


def term(kind: str, value: Any, lang: str = "en") -> str:
    """A frame's value in the engine's words (``phase:exchange``, ``reason:missed_wish``); where the
    catalogue has none, the value with spaces for underscores."""
    text = str(value or "")
    return engine.words(lang).term(f"{kind}:{text}", text.replace("_", " "))


def frame_context(event: dict, frame: dict) -> dict[str, Any]:
    """What the engine's frame after ``event`` tells about it, as parameters of the engine's
    ``@frame`` templates (read off the frame, never computed from the rules)."""
    kind = event.get("type")
    if kind in ("shuffle", "hand_result"):
        return {"hand_number": frame.get("hand_number")}
    if kind == "round_start":  # Tien Zi Que (docs/tien-zi-que.md section 2)
        return {"round": frame.get("round")}
    if kind == "play":
        top = frame.get("trick") or []
        entry = top[-1] if top and top[-1].get("seat") == event.get("seat") else None
        if entry is None:
            return {}
        combination = entry.get("combination")
        context = {"combination": combination, "phoenix": entry.get("phoenix")}
        return {**context, "reason": "bomb"} if combination == "bomb" else context
    if kind == "round_result":  # Tien Zi Que: a whole round by its score line
        line = (frame.get("score_sheet") or [{}])[-1]
        if line.get("drawn"):
            return {"round": line.get("round"), "reason": "drawn"}
        winner = line.get("winner")
        points = (line.get("points") or [0, 0])[winner] if isinstance(winner, int) else None
        return {"round": line.get("round"), "winner": winner, "points": points, "reason": line.get("by")}
    return {}


def describe(event: dict, frame: dict, players: list[str], lang: str = "en") -> str:
    """The event that led to ``frame``, in the engine's words. Cards the reader may not see
    (``HIDDEN`` in a masked event) are not named (the engine's ``type:hidden`` templates)."""
    return engine.event_words(event, players, frame_context(event, frame), lang)
