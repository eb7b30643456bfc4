"""A result's hand lines against the tournament's rules: each line one that a deal played under
the tournament's engine options can end with (the engine decides: ``games.engine.hand_line_refusal``),
and the round's hands all there unless the TD recorded a short round (``round_shortened``)."""

from __future__ import annotations

from typing import Any

from games.engine import hand_line_refusal

from .engine_options import engine_options
from .errors import TournamentError


def check_lines(result: dict[str, Any], header: dict[str, Any]) -> None:
    """Refuse (``result_invalid``, rule ``hand_line``) the first hand line no deal can produce,
    naming the hand, the line and the engine's rule."""
    if result["hands"] is None:
        return
    options = engine_options(header)
    adjusted = result.get("adjustments") or [None] * len(result["hands"])
    for number, ((a, b, double_victory), adjustment) in enumerate(zip(result["hands"], adjusted), 1):
        if adjustment is not None:  # a duplicate board given AVG instead of a result
            continue
        refusal = hand_line_refusal([a, b], double_victory, options)
        if refusal is not None:
            raise _refused(number, f"{a}:{b}", double_victory, refusal.params)


def _refused(hand: int, line: str, side: int | None, said: dict[str, Any]) -> TournamentError:
    """The engine's refusal of a hand line (its rule and numbers) as the tournament says it."""
    why, worth = said["rule"], said["double_victory_points"]
    if why == "line_step":
        return TournamentError(
            "result_invalid",
            f"hand {hand}: {line} is not a hand line: points are multiples of 5",
            hand=hand,
            line=line,
            rule="line_step",
        )
    if why == "line_sum":
        return TournamentError(
            "result_invalid",
            f"hand {hand}: {line} is not a hand line: the two sides sum to 100 plus or minus the calls' "
            f"hundreds, not {said['total']}",
            hand=hand,
            line=line,
            total=said["total"],
            rule="line_sum",
        )
    if why == "line_double_victory":
        return TournamentError(
            "result_invalid",
            f"hand {hand}: {line} is not a hand line: a double victory of side {side} scores {worth} to it "
            "and 0 to the other side, plus or minus the calls",
            hand=hand,
            line=line,
            side=side,
            double_victory_points=worth,
            rule="line_double_victory",
        )
    if said["grand_tichu"]:
        return TournamentError(
            "result_invalid",
            f"hand {hand}: no hand ends {line}: card points from -25 to 125, and one call a player "
            "(Tichu ±100, Grand Tichu ±200), won only by the first player out",
            hand=hand,
            line=line,
            rule="line_calls",
        )
    return TournamentError(
        "result_invalid",
        f"hand {hand}: no hand ends {line} without Grand Tichu: card points from -25 to 125, and one "
        "Tichu a player (±100), won only by the first player out",
        hand=hand, line=line, rule="line_calls_no_grand",
    )  # fmt: skip


def check_hand_count(result: dict[str, Any], hands_per_round: int | None, short: tuple[int, str] | None) -> None:
    """A result's hand lines are the round's hands, all of them: ``hands_per_round``, or the
    number a short round recorded for the table."""
    if result["hands"] is None or hands_per_round is None:
        return
    expected = short[0] if short is not None else hands_per_round
    if len(result["hands"]) != expected:
        if short is not None:
            raise TournamentError(
                "result_invalid",
                f"{len(result['hands'])} hand lines; the TD recorded this table's round as short, {expected} hands",
                hands=len(result["hands"]),
                hands_per_round=expected,
                rule="short_hand_count",
            )
        raise TournamentError(
            "result_invalid",
            f"{len(result['hands'])} hand lines; a round has {expected} hands",
            hands=len(result["hands"]),
            hands_per_round=expected,
            rule="hand_count",
        )
