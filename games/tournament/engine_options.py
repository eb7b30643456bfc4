"""The options of every table's game (the rules engine's ``options``), from the header: the
round's length (``hands`` or ``target_score``) and the preset's hand rules."""

from __future__ import annotations

from typing import Any

from .scoring import PRESETS
from .table_game import length_options


def engine_options(header: dict[str, Any]) -> dict[str, Any]:
    """Options for ``games.engine.new_game`` for a table of this tournament (header as parsed)."""
    options: dict[str, Any] = dict(PRESETS[header["scoring"]].engine_options)
    options.update(length_options(header.get("hands_per_round"), header.get("target")))
    if header.get("system") == "duplicate":  # no Grand Tichu unless the TD chose it
        options["grand_tichu"] = bool(header.get("grand_tichu", False))
    return options
