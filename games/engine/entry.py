"""What a scorer's entry form needs to know at a moment of a game, read off the state: the events
the rules accept next (split into the seat to act's and the bombs out of turn), the penalties
that could be called now, and the facts of the deal and the exchange (the cards left in the pile,
how many cards each seat still receives, who still pushes how many cards to whom).

Everything here is the engine's own answer: the API only adds who may ask and the game's
identifiers (games/api/legal.py).
"""

from __future__ import annotations

from typing import Any

from .cards import sort_cards
from .errors import EngineError
from .legal import bombs_out_of_turn, legal_actions
from .record import state_json
from .state import DEAL, EXCHANGE, GameState
from .tien_zi_que.round_result import sheet_facts as tzq_sheet_facts

#: The breaches a ``penalty`` event may name that an entry page offers (record-format.md, event table).
PENALTY_REASONS = ("missed_wish",)


def check_events(state: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Would the engine accept ``events`` now? Applied to a copy; ``state`` is left as it was."""
    trial = state.copy()
    for i, event in enumerate(events):
        try:
            trial.apply(event)
        except EngineError as err:
            return {"ok": False, "index": i, "error": err.as_dict()}
    return {"ok": True}


def penalty_events(state: Any) -> list[dict[str, Any]]:
    """The ``penalty`` events the engine would accept now, one per seat and reason, each tried on a
    copy of the state. Empty between hands, in the deal and the exchange, and in games without a
    wish (Grand Seigneur, Tien Zi Que)."""
    events = [
        {"type": "penalty", "seat": seat, "reason": reason} for seat in range(state.n) for reason in PENALTY_REASONS
    ]
    return [e for e in events if check_events(state, [e])["ok"]]


def deal_facts(state: Any, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """During the deal: the cards still in the pile, how many each seat still receives, and who
    draws next (the seat of the legal draws)."""
    if not isinstance(state, GameState):
        return None
    h = state.hand
    if state.phase != DEAL or h is None:
        return None
    pile = [card for card, count in h.pile.items() for _ in range(max(count, 0))]
    drawers = {a["seat"] for a in actions if a["type"] == "draw"}
    return {
        "pile": sort_cards(pile),
        "remaining": {str(seat): h.sizes[seat] - h.received[seat] for seat in h.order},
        "next_drawer": drawers.pop() if len(drawers) == 1 else None,
    }


def push_facts(state: Any) -> dict[str, dict[str, int]] | None:
    """During the exchange: for each seat still to push, how many cards go to which seat."""
    if not isinstance(state, GameState):
        return None
    h = state.hand
    if state.phase != EXCHANGE or h is None:
        return None
    return {
        str(seat): {str(target): k for target, k in state.variant.push_counts(h, seat).items()}
        for seat in h.order
        if seat not in h.pushes and state.variant.push_counts(h, seat)
    }


def entry_facts(state: Any) -> dict[str, Any]:
    """Everything an entry form shows at this moment: ``phase``, ``turn``, ``actions`` (the seat to
    act's events; pushes are chosen card by card, not listed), ``bombs_out_of_turn`` by seat,
    ``penalties``, ``deal`` and ``pushes`` facts, ``can_undo`` and the ``state`` JSON; in Tien Zi Que
    also ``round_sheet``: what a round's score line may say now (round_result.sheet_facts), or None."""
    if isinstance(state, GameState):
        actions = legal_actions(state, include_pushes=False)
        bombs = {str(seat): events for seat, events in bombs_out_of_turn(state).items()}
        out_of_turn = [e for events in bombs.values() for e in events]
        in_turn = [a for a in actions if a not in out_of_turn]
    else:  # a game with rules of its own (Tien Zi Que) offers its own list
        in_turn, bombs = list(state.legal_actions()), {}
    doc = state_json(state)
    extra = {} if isinstance(state, GameState) else {"round_sheet": tzq_sheet_facts(state)}
    return {
        "phase": doc.get("phase"),
        "turn": doc.get("turn"),
        "actions": in_turn,
        "bombs_out_of_turn": bombs,
        "penalties": penalty_events(state),
        "deal": deal_facts(state, in_turn),
        "pushes": push_facts(state),
        "can_undo": state.events_applied > 0 and check_events(state, [{"type": "undo"}])["ok"],
        "state": doc,
        **extra,
    }
