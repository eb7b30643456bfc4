"""Scoring presets: how a table's result becomes victory points (VP) and Tichu points.

Each preset cites its source in ../shared/guides/tournaments.md (section 2) and is documented in
docs/tournament.md. A result reaches this module normalised by :mod:`.record`: per-hand score
lines (``hands``: ``(points side 0, points side 1, double-victory side or None)``), the round's
score line (``score``) and, for a paper DTM sheet, the VP as written (``vp``: compared with the VP
counted from the hand lines, never taken in their place).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import TournamentError


@dataclass(frozen=True)
class Preset:
    name: str
    source: str
    #: what VP are counted on: "hand" (DTM), "round" (one round's total), "game" (a game to a
    #: target), "board" (duplicate: matchpoints of each board against the other tables that
    #: played it, computed across a round by .standings.table_scores), "none" (Tichu points alone)
    unit: str
    default_tiebreaks: tuple[str, ...]
    #: the hand rules the preset implies for every table's game (engine options)
    engine_options: dict[str, Any] = field(default_factory=dict)
    default_hands: int | None = None
    default_target: int | None = None


PRESETS: dict[str, Preset] = {
    "dtm": Preset(
        "dtm",
        "Deutsche Tichu Meisterschaft, ATP-Turnierregeln (http://tichu.ddd-verlag.de/?p=7), tournaments.md 2.1-2.2",
        "hand",
        ("points", "lots"),
        {"grand_tichu": False, "double_victory_points": 100, "keep_last_dragon_trick": True},
        default_hands=4,
    ),
    "round_vp": Preset(
        "round_vp",
        "VP per round on the round's Tichu-point total (bridge Swiss pairs, lichess 2/1/0), tournaments.md 2.2",
        "round",
        ("difference", "points", "lots"),
        default_hands=4,
    ),
    "box": Preset(
        "box",
        "box rules, a game to 1000 (BSW Tichu-Club, Tichu-Liga, MTC), tournaments.md 1.1 and 2.1",
        "game",
        ("difference", "points", "lots"),
        default_target=1000,
    ),
    "matchpoints": Preset(
        "matchpoints",
        "duplicate Tichu: matchpoints on the N/S-E/W difference of each board (aragos/tichu-tournament "
        "calculator.py, Goldsmith), tournaments.md 2.3",
        "board",
        ("difference", "lots"),
        default_hands=3,
    ),
    "points": Preset(
        "points",
        "the sum of Tichu points (tichu-turnier app, finish-tournament), tournaments.md 2.2",
        "none",
        ("difference", "lots"),
    ),
}

WIN, DRAW, LOSS, DOUBLE_WIN = 2, 1, 0, 3


def compare(a: int, b: int) -> tuple[int, int]:
    """Win 2 / draw 1 / loss 0 on two totals."""
    if a > b:
        return WIN, LOSS
    if a < b:
        return LOSS, WIN
    return DRAW, DRAW


def hand_vp(a: int, b: int, double_victory: int | None) -> tuple[int, int]:
    """DTM, per hand: 2 VP to the side with more Tichu points, 1 each on a draw, 3 (and 0 to the
    losers) for a double victory."""
    if double_victory is not None:
        return (DOUBLE_WIN, 0) if double_victory == 0 else (0, DOUBLE_WIN)
    return compare(a, b)


def round_vp_total(preset: Preset, hands_per_round: int | None) -> int:
    """The VP of a won round (everything a side can take without double victories): what a bye
    scored as a win is worth, and twice what a draw is."""
    if preset.unit == "hand":
        return WIN * (hands_per_round or 1)
    if preset.unit in ("none", "board"):  # a duplicate sit-out scores no matchpoints
        return 0
    return WIN


def table_vp(preset: Preset, result: dict[str, Any], hands_per_round: int | None) -> tuple[float, float]:
    """The VP each side of a table takes for a round under the preset. Matchpoints depend on the
    other tables of the round (.standings.table_scores): here a duplicate result is only checked
    (a line for every board of the round)."""
    if result.get("adjustments") and preset.unit != "board":
        raise TournamentError(
            "result_invalid", "AVG adjustments are for duplicate boards (matchpoints) only", rule="avg_duplicate_only"
        )
    if preset.unit == "none":
        return 0, 0
    if preset.unit == "board":
        if result["hands"] is None or (hands_per_round is not None and len(result["hands"]) != hands_per_round):
            raise TournamentError(
                "result_invalid",
                f"a duplicate result has one line for each of the round's {hands_per_round} boards",
                hands_per_round=hands_per_round,
                rule="board_lines",
            )
        return 0, 0
    if preset.unit == "hand":
        if result["hands"] is None:
            raise TournamentError(
                "result_invalid", "a dtm result needs its hand lines: the VP are counted from them", rule="dtm_lines"
            )
        vp0 = vp1 = 0
        for a, b, dv in result["hands"]:
            x, y = hand_vp(a, b, dv)
            vp0, vp1 = vp0 + x, vp1 + y
        written = result["vp"]
        if written is not None and tuple(written) != (vp0, vp1):  # the sheet's VP are checked, never taken
            raise TournamentError(
                "result_invalid",
                f"the VP written, {written[0]:g}:{written[1]:g}, are not those of the hand lines, {vp0}:{vp1}",
                written=f"{written[0]:g}:{written[1]:g}",
                counted=f"{vp0}:{vp1}",
                rule="vp_mismatch",
            )
        return vp0, vp1
    if result["vp"] is not None:
        raise TournamentError(
            "result_invalid",
            f"the {preset.name} preset computes the VP from the score; give no 'vp'",
            preset=preset.name,
            rule="vp_computed",
        )
    return compare(*result["score"])
