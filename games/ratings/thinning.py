"""Which points of a long series a chart draws: at most a fixed budget, whatever the series'
length, without losing its peaks (issue #35 item 4: a regular's page must not grow with their
history). Pure Python (no Django).

`thin(values, budget)`: every index when the series fits the budget; else the series is cut into
budget // 4 consecutive stretches of nearly equal length, and each stretch keeps its highest and
lowest value, its last one, and its first missing one (None: a gap, e.g. a day not ranked), in
their order. So the latest value and the series' highest and lowest are always drawn, the chart's
shape is each stretch's range, and the same series always gives the same points.
"""

from __future__ import annotations

from typing import Sequence

MIN_BUDGET = 4  # one stretch: its high, low, last and first gap


def thin(values: Sequence[float | None], budget: int) -> list[int]:
    """The indices of `values` to draw, ascending, at most `budget` of them (module docstring)."""
    if budget < MIN_BUDGET:
        raise ValueError(f"a chart's budget is at least {MIN_BUDGET} points")
    n = len(values)
    if n <= budget:
        return list(range(n))
    stretches = max(1, budget // MIN_BUDGET)
    kept: set[int] = set()
    for s in range(stretches):
        lo, hi = s * n // stretches, (s + 1) * n // stretches
        present = [i for i in range(lo, hi) if values[i] is not None]
        kept.add(hi - 1)
        if present:
            # the first index of the highest and of the lowest value (ties: the earliest, so that
            # the choice depends on the values alone)
            kept.add(max(present, key=lambda i: (values[i], -i)))
            kept.add(min(present, key=lambda i: (values[i], i)))
        gap = next((i for i in range(lo, hi) if values[i] is None), None)
        if gap is not None:
            kept.add(gap)
    return sorted(kept)
