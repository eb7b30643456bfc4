"""Tien Zi Que's combinations: the triplet (Triplon) and the sequence (Suite), a Tien Zi Que
standing for any one card."""

from __future__ import annotations

import functools
from typing import Any

from .cards import JOKER, describe, is_joker


def combination_kind(cards: list[str]) -> str | None:
    """``"triplet"`` (Triplon), ``"sequence"`` (Suite), or ``None`` when the three cards are neither.

    At most one Tien Zi Que, standing for any card. A sequence is three coins of consecutive
    numbers (any series, no wrap-around from 9 to 1); a triplet three cards of the same face.
    """
    if len(cards) != 3:
        return None
    return _kind_of(tuple(cards))


@functools.lru_cache(maxsize=4096)
def _kind_of(cards: tuple[str, ...]) -> str | None:
    # every Pung and Chow asks, and the bot's choices ask for every pair or triple of a hand: the
    # answer is a function of the three codes (a few thousand orders of the 54 codes recur)
    real = [c for c in cards if c[0] != JOKER]
    jokers = 3 - len(real)
    if jokers > 1:
        return None
    faces = {c[:-1] for c in real}
    if len(faces) == 1:
        return "triplet"
    if any(c[0] != "C" for c in real):
        return None
    nums = sorted(int(c[1]) for c in real)
    if len(set(nums)) != len(nums):
        return None
    if jokers == 0:
        return "sequence" if nums[2] - nums[0] == 2 else None
    return "sequence" if nums[1] - nums[0] in (1, 2) else None


def _combination_problem(cards: list[str]) -> tuple[str, dict[str, Any]]:
    """Why three cards are no combination: the refusal's message and parameters."""
    if sum(1 for c in cards if is_joker(c)) > 1:
        return f"a combination may hold at most one Tien Zi Que: {describe(cards)}", {
            "rule": "tzq_jokers",
            "cards": list(cards),
        }
    return (
        f"{describe(cards)} is neither a triplet (three identical cards) nor a sequence "
        "(three coins of consecutive numbers), a Tien Zi Que standing for any one card"
    ), {"rule": "tzq_combination", "cards": list(cards)}
