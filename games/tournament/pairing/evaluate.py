"""What a pairing costs against the history, whoever made it: the explanation of a TD's edited
or overriding pairing, in the terms the systems use for their own."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..standings import primary, round_lines
from ..state import TournamentState


def evaluate(state: TournamentState, tables: list[dict[str, Any]], byes: list[str]) -> dict[str, Any]:
    """``{"rematches"|"repeated_partners", "repeated_opponents", "repeat_byes", "score_gaps", ...}``
    for tables ``[{"table": n, "sides": [[...], [...]]}]`` and byes, given the rounds so far
    (the rounds already paired; pass the state before the round being judged)."""
    partners: Counter[frozenset[str]] = Counter()
    opponents: Counter[frozenset[str]] = Counter()
    had_bye: Counter[str] = Counter()
    for rnd in state.rounds:
        for t in rnd.tables.values():
            for side in t.sides:
                if len(side) == 2:
                    partners[frozenset(side)] += 1
            for x in t.sides[0]:
                for y in t.sides[1]:
                    opponents[frozenset((x, y))] += 1
        had_bye.update(rnd.byes)
    lines = round_lines(state)
    score = {e: primary(state, line) for e, line in lines.items()}
    out: dict[str, Any] = {"repeat_byes": sorted(e for e in byes if had_bye[e])}
    opp = [(t["table"], frozenset((x, y))) for t in tables for x in t["sides"][0] for y in t["sides"][1]]
    if state.side_size == 1:
        out["rematches"] = [
            {"table": n, "entries": sorted(p), "met_before": opponents[p]} for n, p in opp if opponents[p]
        ]
        out["score_gaps"] = sum(abs(score.get(t["sides"][0][0], 0) - score.get(t["sides"][1][0], 0)) for t in tables)
    else:
        out["repeated_partners"] = [
            {"table": t["table"], "players": sorted(side), "partners_before": partners[frozenset(side)]}
            for t in tables
            for side in t["sides"]
            if partners[frozenset(side)]
        ]
        out["repeated_opponents"] = sum(opponents[p] for _, p in opp)
    return out
