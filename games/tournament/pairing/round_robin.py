"""Round robin by Berger tables (the circle method): entry k of n meets every other entry once a
leg; with an odd field a phantom entry makes the bye of each round; a second leg repeats the first
with the sides swapped.

The schedule's pairing numbers are the entries of round 1 in order of registration, so every
later round follows from the stream alone. Entries registered after round 1 are not in the
schedule (they sit out, as byes); an entry that withdrew leaves its scheduled opponent a bye.
"""

from __future__ import annotations

from typing import Any

from ..errors import TournamentError
from ..state import TournamentState
from . import Pairing


def schedule_length(n: int, legs: int) -> int:
    return (n - 1 if n % 2 == 0 else n) * legs


def berger(n: int) -> list[list[tuple[int, int]]]:
    """Rounds of pairs of pairing numbers 0..n-1 (n even); number n-1 is the fixed one of the
    circle and changes side every round."""
    fixed, others = n - 1, list(range(n - 1))
    rounds = []
    for r in range(n - 1):
        ring = [fixed] + others[len(others) - r :] + others[: len(others) - r]
        pairs = [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])
        rounds.append(pairs)
    return rounds


def pair_round_robin(state: TournamentState, number: int) -> Pairing:
    if state.rounds:
        first = state.rounds[0]
        in_first = {e for t in first.tables.values() for s in t.sides for e in s} | set(first.byes)
        field = [e for e in state.entries if e in in_first]
    else:
        field = state.active_entries()
    if len(field) < 2:
        raise TournamentError("pairing_impossible", "a round robin needs at least two entries", rule="round_robin")
    size = len(field) + len(field) % 2
    if number > schedule_length(len(field), state.header["legs"]):
        raise TournamentError(
            "no_more_rounds",
            f"the round robin of {len(field)} entries has {schedule_length(len(field), state.header['legs'])} rounds",
            round=number,
            field=len(field),
            rounds=schedule_length(len(field), state.header["legs"]),
            rule="round_robin",
        )
    schedule = berger(size)
    leg, r = divmod(number - 1, size - 1)
    tables: list[dict[str, Any]] = []
    byes: list[str] = []
    for a, b in schedule[r]:
        if leg:
            a, b = b, a
        ea = field[a] if a < len(field) else None
        eb = field[b] if b < len(field) else None
        live = [e for e in (ea, eb) if e is not None and state.entries[e].active]
        if len(live) == 2:
            tables.append({"table": len(tables) + 1, "sides": [[ea], [eb]]})
        else:
            byes += live
    byes += [e for e in state.active_entries() if e not in field]
    if not tables:
        raise TournamentError(
            "pairing_impossible", "no two scheduled entries are still playing", rule="round_robin_playing"
        )
    explanation = {
        "system": "round_robin",
        # the method's words, for pages that say it in their reader's language
        "berger": {"size": size, "phantom": bool(len(field) % 2), "leg": leg + 1, "round": r + 1, "of": size - 1},
        "method": f"Berger tables for {size} ({'with a phantom entry for the bye, ' if len(field) % 2 else ''}"
        f"leg {leg + 1}, round {r + 1} of {size - 1})",
        "constraints": ["everyone meets everyone once a leg", "second leg: sides swapped"],
        "numbers": {e: i + 1 for i, e in enumerate(field)},
        "cost": 0,
    }
    return Pairing(number, tables, byes, explanation)
