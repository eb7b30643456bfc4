"""A table's result from its recorded game: the engine's score sheet as tournament hand lines.

Works on the JSON of ``games.engine.score_json`` (a Tichu Nanking game: seats 0 and 2 are side 0,
seats 1 and 3 side 1), so the tournament core needs nothing of the engine but its public output.
"""

from __future__ import annotations

from typing import Any

from .errors import TournamentError


def hand_lines(score: dict[str, Any]) -> list[dict[str, Any]]:
    """``[{"points": [side 0, side 1], "double_victory": 0, 1 or None}, ...]`` for a
    ``result_recorded`` event. A double victory is a hand whose first two out are partners."""
    if score.get("variant", "nanking") != "nanking":
        raise TournamentError(
            "result_invalid",
            f"a tournament table plays Tichu (nanking), not {score.get('variant')!r}",
            variant=score.get("variant"),
            rule="not_tichu",
        )
    lines = []
    for hand in score.get("hands", []):
        out = hand.get("out") or []
        double = out[0] % 2 if len(out) >= 2 and out[0] % 2 == out[1] % 2 else None
        lines.append({"points": [hand["points"][0], hand["points"][1]], "double_victory": double})
    return lines
