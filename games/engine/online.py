"""What an online table needs of the rules: the deal cut from a shuffled pile, the Grand Tichu
decisions still open, and the actions one seat may take now.

The engine has no randomness of its own: the site shuffles (``secrets.SystemRandom``) the pile
this module lists and gets back the ``deal`` events that hand it out. A Grand Tichu is called on
the first cards only, so the deal comes in two parts: each seat's first cards (up to the variant's
Grand Tichu limit), then, once every seat that may call has decided, the rest.
"""

from __future__ import annotations

from typing import Any

from .legal import bombs_out_of_turn, call_actions, legal_actions
from .state import DEAL, EXCHANGE, GameState


def deals_tricks(state: Any) -> bool:
    """Whether the state's game is dealt and played in tricks (the Tichu family), the games an
    online table deals itself; read from the game's declared facts (games.engine.game)."""
    from .game import game_of  # the registry imports the games, which import this module's kin

    return game_of(state).info.board == "tricks"


def deal_pile(state: GameState) -> list[str]:
    """The cards of the hand to be dealt, in a fixed order (the caller shuffles them)."""
    h = state.hand
    if h is None or state.phase != DEAL:
        raise ValueError("no hand is being dealt")
    return sorted(c for c, k in h.pile.items() for _ in range(k))


def deal_events(state: GameState, shuffled: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``deal`` events that give out ``shuffled`` (the whole pile of ``deal_pile``): each seat's
    first cards (up to its Grand Tichu limit, or all of them where it may not call one), then the
    rest. Seats are served in the hand's order from the shuffler, as a dealer goes round."""
    h = state.hand
    assert h is not None
    rest = list(shuffled)
    first: list[dict[str, Any]] = []
    later: list[dict[str, Any]] = []
    for seat in h.order:
        need = h.sizes[seat] - h.received[seat]
        if need <= 0:
            continue
        cards, rest = rest[:need], rest[need:]
        limit = state.variant.grand_tichu_limit(h, seat)
        cut = need if limit is None else max(0, min(need, limit - h.received[seat]))
        if cut:
            first.append({"type": "deal", "seat": seat, "cards": cards[:cut]})
        if cards[cut:]:
            later.append({"type": "deal", "seat": seat, "cards": cards[cut:]})
    if rest:
        raise ValueError("the shuffled pile holds more cards than the hand's seats receive")
    return first, later


def grand_tichu_open(state: GameState) -> list[int]:
    """The seats that may still call Grand Tichu now (the deal waits for their decision)."""
    if not deals_tricks(state) or state.phase != DEAL:
        return []
    return sorted({a["seat"] for a in call_actions(state) if a["type"] == "grand_tichu"})


def seats_played_by(state: Any, seat: int) -> list[int]:
    """The seats whose actions the player at ``seat`` takes now: its own, and in Threechu the
    dummy's while it deals (the dealer plays the dummy's cards; the same rule lets it see them,
    ``Variant.hands_seen``)."""
    if not deals_tricks(state):
        return [seat]
    h = state.hand
    return sorted(state.variant.hands_seen(seat, h.shuffler if h is not None else None))


def seat_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    """The engine's legal actions of ``seat`` now, pushes left out (a push is chosen card by card
    and checked by the fold): its plays and passes in turn, its calls, its Dragon gift, its bombs
    out of turn, in Tien Zi Que its draw, claim or discard."""
    if not deals_tricks(state):
        return [a for a in state.legal_actions() if a.get("seat") == seat]
    if state.phase == DEAL:  # the draws and deals are the table's (the site deals), not a seat's
        return [a for a in call_actions(state) if a["seat"] == seat]
    actions = [a for a in legal_actions(state, include_pushes=False) if a.get("seat") == seat]
    seen = {repr(a) for a in actions}
    for bomb in bombs_out_of_turn(state).get(seat, []):
        if repr(bomb) not in seen:
            actions.append(bomb)
    return actions


def push_due(state: Any, seat: int) -> dict[str, int]:
    """The exchange: how many cards ``seat`` still gives to each seat (``{}`` once it has, or when
    there is no exchange now)."""
    if not deals_tricks(state) or state.phase != EXCHANGE:
        return {}
    h = state.hand
    assert h is not None
    if seat in h.pushes:
        return {}
    return {str(t): k for t, k in state.variant.push_counts(h, seat).items()}


__all__ = [
    "deal_events",
    "deal_pile",
    "deals_tricks",
    "grand_tichu_open",
    "push_due",
    "seat_actions",
    "seats_played_by",
]
