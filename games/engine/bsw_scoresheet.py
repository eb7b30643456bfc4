"""A BSW hand the reader gave up on, kept as its score-sheet line (a ``hand_result`` event).

The log's ``Ergebnis`` is the hand's score with the calls in it; the calls are in the log's call
lines. What is missing is who went out first, and that is found by trying each seat: the card
points left once the calls are taken out must be a possible card count (multiples of 5, -25 to
125, 100 in all) or a double victory of the first player's team (200 - 0). The first seat that
fits is taken (the lowest; with no call in the hand any seat fits, and the score is the same).
"""

from __future__ import annotations

from typing import Any

from .variants import CALL_BONUS

__all__ = ["hand_result"]


def _card_count(points: list[int]) -> bool:
    return sum(points) == 100 and all(p % 5 == 0 and -25 <= p <= 125 for p in points)


def hand_result(
    calls: dict[str, str], result: list[int], prefer: int | None = None, quirk: Any = False
) -> dict[str, Any] | None:
    """The ``hand_result`` event whose score by the book is ``result`` (team {0,2}, team {1,3}),
    or None when no finishing order gives it (e.g. a BSW scoring quirk). ``prefer``: the seat
    known to have gone out first (it shuffles the next hand), tried before the others. ``quirk``:
    the record's ``bsw_grand_tichu_quirk``, scored as the engine scores it."""
    seats = ([prefer] if prefer is not None else []) + [s for s in range(4) if s != prefer]
    for first in seats:
        bonus = [0, 0]
        grand = {int(seat) for seat, call in calls.items() if call == "grand_tichu"}
        for seat, call in calls.items():
            s = int(seat)
            if (
                quirk
                and s in grand
                and s != first
                and s % 2 == first % 2
                and (quirk == "partner_grand" or first in grand)
            ):
                continue  # BSW does not charge it (options.py, bsw_grand_tichu_quirk)
            bonus[s % 2] += CALL_BONUS[call] if s == first else -CALL_BONUS[call]
        cards = [result[0] - bonus[0], result[1] - bonus[1]]
        event: dict[str, Any] = {"type": "hand_result", "calls": dict(calls)}
        if cards[first % 2] == 200 and cards[1 - first % 2] == 0:
            return {**event, "out": [first, (first + 2) % 4]}
        if _card_count(cards):
            return {**event, "out": [first], "points": cards}
    return None
