"""Duplicate Tichu: a round's tables from the movement (.duplicate.movement, 4 to 12 pairs).

The pairs' numbers in the movement are the entries of round 1 in registration order, so every
later round follows from the stream alone (as for the round robin). Every table of round r plays
boards (r-1)*b+1 .. r*b (b = hands_per_round, the boards per round); the movement's sit-out is
the round's bye; a pair that withdrew leaves its scheduled opponents a bye; a late entry is not in
the movement and sits out.
"""

from __future__ import annotations

from typing import Any

from ..duplicate import movement
from ..errors import TournamentError
from ..state import TournamentState
from . import Pairing


def pair_duplicate(state: TournamentState, number: int) -> Pairing:
    if state.rounds:
        first = state.rounds[0]
        in_first = {e for t in first.tables.values() for s in t.sides for e in s} | set(first.byes)
        field = [e for e in state.entries if e in in_first]
    else:
        field = state.active_entries()
    plan = movement(len(field), state.header["hands_per_round"] or 3)
    if number > len(plan["rounds"]):
        raise TournamentError(
            "no_more_rounds",
            f"the movement for {len(field)} pairs has {len(plan['rounds'])} rounds",
            round=number,
            pairs=len(field),
            rounds=len(plan["rounds"]),
            rule="movement",
        )
    tables: list[dict[str, Any]] = []
    byes: list[str] = []
    for meeting in plan["rounds"][number - 1]:
        ns, ew = field[meeting.ns - 1], field[meeting.ew - 1]
        live = [e for e in (ns, ew) if state.entries[e].active]
        if len(live) == 2:
            tables.append({"table": len(tables) + 1, "sides": [[ns], [ew]]})
        else:
            byes += live
    sit_out = plan["sit_outs"].get(number)
    if sit_out is not None and state.entries[field[sit_out - 1]].active:
        byes.append(field[sit_out - 1])
    byes += [e for e in state.active_entries() if e not in field]
    if not tables:
        raise TournamentError("pairing_impossible", "no two scheduled pairs are still playing", rule="movement_playing")
    boards = list(plan["rounds"][number - 1][0].boards)
    explanation = {
        "system": "duplicate",
        # the method's words, for pages that say it in their reader's language
        "movement": {"pairs": len(field), "round": number, "of": len(plan["rounds"])},
        "method": f"movement for {len(field)} pairs (circle method), round {number} of {len(plan['rounds'])}",
        "constraints": [
            "every pair meets every other once",
            "each pair plays each board once",
            "every table of the round plays the round's boards",
            "sit-outs rotate",
        ],
        "boards": boards,
        "numbers": {e: i + 1 for i, e in enumerate(field)},
        "cost": 0,
    }
    return Pairing(number, tables, byes, explanation)
