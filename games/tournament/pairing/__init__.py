"""Pairings: the next round's tables proposed from the tournament so far.

``propose(state)`` returns a :class:`Pairing` whose ``event()`` is the ``round_paired`` event to
append (the pairing is stored in the stream, so the history stays exact whatever this code does
later). Each system explains its pairing: the constraints applied and the cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import TournamentError
from ..state import TournamentState


@dataclass
class Pairing:
    round: int
    tables: list[dict[str, Any]]  # [{"table": n, "sides": [[...], [...]]}]
    byes: list[str]
    explanation: dict[str, Any]

    def event(self) -> dict[str, Any]:
        return {
            "type": "round_paired",
            "round": self.round,
            "tables": self.tables,
            "byes": self.byes,
            "explanation": self.explanation,
        }


def next_round(state: TournamentState) -> int:
    """The number of the round to pair now, or a refusal saying why none can be."""
    if state.finished:
        raise TournamentError("tournament_finished", "the tournament is finished", rule="finished")
    if state.rounds and not state.rounds[-1].closed:
        raise TournamentError("round_open", f"round {len(state.rounds)} is still open", round=len(state.rounds))
    number = len(state.rounds) + 1
    if state.planned_rounds is not None and number > state.planned_rounds:
        raise TournamentError(
            "no_more_rounds",
            f"the tournament has {state.planned_rounds} rounds",
            round=number,
            rounds=state.planned_rounds,
            rule="planned_rounds",
        )
    return number


def propose(state: TournamentState) -> Pairing:
    number = next_round(state)
    system = state.header["system"]
    if system == "manual":
        raise TournamentError("pairing_manual", "the system is manual: give the round's tables in a round_paired event")
    if system == "swiss":
        from .swiss import pair_swiss

        return pair_swiss(state, number)
    if system == "duplicate":
        from .duplicate import pair_duplicate

        return pair_duplicate(state, number)
    if system == "round_robin":
        from .round_robin import pair_round_robin

        return pair_round_robin(state, number)
    from .individual import pair_individuals

    return pair_individuals(state, number)
