"""A table's result from its recorded game: the engine's score sheet as tournament hand lines.

Works on the JSON of ``games.engine.score_json`` of a table's game (two sides of two players: the
engine's declared teams, :mod:`.table_game`), so the tournament core needs nothing of the engine
but its public API and output.
"""

from __future__ import annotations

from typing import Any

from games.engine import sweep_team

from .table_game import TABLE_GAME, table_info


def hand_lines(score: dict[str, Any]) -> list[dict[str, Any]]:
    """``[{"points": [side 0, side 1], "double_victory": 0, 1 or None}, ...]`` for a
    ``result_recorded`` event. A double victory is a hand whose first two out are partners (the
    engine's ``sweep_team``)."""
    variant = score.get("variant", TABLE_GAME)
    table_info(variant)  # a game of two sides of two, else result_invalid (rule not_tichu)
    lines = []
    for hand in score.get("hands", []):
        out = hand.get("out") or []
        lines.append({"points": [hand["points"][0], hand["points"][1]], "double_victory": sweep_team(variant, out)})
    return lines
