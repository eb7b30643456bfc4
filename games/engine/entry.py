"""What a scorer's entry form needs to know at a moment of a game, read off the state: the events
the rules accept next (split into the seat to act's and the bombs out of turn), the penalties
that could be called now, and the facts of the deal and the exchange (the cards left in the pile,
how many cards each seat still receives, who still pushes how many cards to whom).

Everything here is the engine's own answer: the API only adds who may ask and the game's
identifiers (games/api/legal.py).
"""

from __future__ import annotations

from typing import Any

from .errors import EngineError
from .game import PlayState, game_of
from .record import state_json

#: The breaches a ``penalty`` event may name that an entry page offers (record-format.md, event table).
PENALTY_REASONS = ("missed_wish",)


def check_events(state: PlayState, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Would the engine accept ``events`` now? Applied to a copy; ``state`` is left as it was."""
    trial = state.copy()
    for i, event in enumerate(events):
        try:
            trial.apply(event)
        except EngineError as err:
            return {"ok": False, "index": i, "error": err.as_dict()}
    return {"ok": True}


def penalty_events(state: PlayState) -> list[dict[str, Any]]:
    """The ``penalty`` events the engine would accept now, one per seat and reason, each tried on a
    copy of the state. Empty between hands, in the deal and the exchange, and in games without a
    wish (Grand Seigneur, Tien Zi Que)."""
    events = [
        {"type": "penalty", "seat": seat, "reason": reason} for seat in range(state.n) for reason in PENALTY_REASONS
    ]
    return [e for e in events if check_events(state, [e])["ok"]]


def deal_facts(state: PlayState, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """During the deal: the cards still in the pile, how many each seat still receives, and who
    draws next (the seat of the legal draws); None otherwise and in a game dealt at once."""
    return game_of(state).deal_facts(state, actions)


def push_facts(state: PlayState) -> dict[str, dict[str, int]] | None:
    """During the exchange: for each seat still to push, how many cards go to which seat."""
    return game_of(state).push_facts(state)


def entry_facts(state: PlayState) -> dict[str, Any]:
    """Everything an entry form shows at this moment: ``phase``, ``turn``, ``actions`` (the seat to
    act's events; pushes are chosen card by card, not listed), ``bombs_out_of_turn`` by seat,
    ``penalties``, ``deal`` and ``pushes`` facts, ``can_undo`` and the ``state`` JSON; in Tien Zi Que
    also ``round_sheet``: what a round's score line may say now (round_result.sheet_facts), or None."""
    game = game_of(state)
    actions = game.legal_actions(state, include_pushes=False)
    bombs = {str(seat): events for seat, events in game.bombs_out_of_turn(state).items()}
    out_of_turn = [e for events in bombs.values() for e in events]
    in_turn = [a for a in actions if a not in out_of_turn] if out_of_turn else list(actions)
    doc = state_json(state)
    return {
        "phase": doc.get("phase"),
        "turn": doc.get("turn"),
        "actions": in_turn,
        "bombs_out_of_turn": bombs,
        "penalties": penalty_events(state),
        "deal": game.deal_facts(state, in_turn),
        "pushes": game.push_facts(state),
        "can_undo": state.events_applied > 0 and check_events(state, [{"type": "undo"}])["ok"],
        "state": doc,
        **game.entry_extra(state),
    }
