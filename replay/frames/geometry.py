"""Where each seat sits on the drawn table (display only: no rule of the game here)."""

from __future__ import annotations

import math


def seat_positions(order: list[int], bottom: int, direction: str) -> dict[int, dict[str, float]]:
    """Where each seat sits on screen, as ``left``/``top`` percentages of the table.

    ``order`` is the engine's order of play; ``bottom`` the seat drawn nearest the viewer. Going
    counter-clockwise (the default) the next seat to play sits on the viewer's right."""
    n = len(order)
    if n == 0:
        return {}
    start = order.index(bottom) if bottom in order else 0
    sign = 1 if direction != "clockwise" else -1
    out = {}
    for k in range(n):
        seat = order[(start + k) % n]
        angle = math.pi / 2 - sign * 2 * math.pi * k / n  # screen angle, y pointing down
        out[seat] = {"left": round(50 + 38 * math.cos(angle), 2), "top": round(50 + 38 * math.sin(angle), 2)}
    return out
