"""What an online table needs of the rules: the deal cut from a shuffled pile, the Grand Tichu
decisions still open, and the actions one seat may take now.

The engine has no randomness of its own: the site shuffles (``secrets.SystemRandom``) the pile
this module lists and gets back the ``deal`` events that hand it out. A Grand Tichu is called on
the first cards only, so the deal comes in two parts: each seat's first cards (up to the variant's
Grand Tichu limit), then, once every seat that may call has decided, the rest.
"""

from __future__ import annotations

import random
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
    hands: dict[int, list[str]] = {}
    for seat in h.order:
        need = max(0, h.sizes[seat] - h.received[seat])
        hands[seat], rest = rest[:need], rest[need:]
    if rest:
        raise ValueError("the shuffled pile holds more cards than the hand's seats receive")
    return deal_hands(state, hands)


def deal_hands(state: Any, hands: dict[int, list[str]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``deal`` events that give each seat the cards ``hands[seat]`` still due to it, in that
    order (a duplicate board's packets: the same first cards at every table): each seat's first
    cards up to its Grand Tichu limit (all of them where it may not call one), then the rest."""
    h = state.hand
    assert h is not None
    first: list[dict[str, Any]] = []
    later: list[dict[str, Any]] = []
    for seat in h.order:
        need = h.sizes[seat] - h.received[seat]
        cards = list(hands.get(seat, []))
        if need <= 0 and not cards:
            continue
        if len(cards) != need:
            raise ValueError(f"seat {seat} is due {need} cards, not {len(cards)}")
        limit = state.variant.grand_tichu_limit(h, seat)
        cut = need if limit is None else max(0, min(need, limit - h.received[seat]))
        if cut:
            first.append({"type": "deal", "seat": seat, "cards": cards[:cut]})
        if cards[cut:]:
            later.append({"type": "deal", "seat": seat, "cards": cards[cut:]})
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


def _chance_fields(state: Any) -> dict[str, tuple[str, ...]]:
    from .game import game_of

    return dict(game_of(state).info.chance_events)


def _table_moves(state: Any) -> list[dict[str, Any]]:
    """The legal actions now when every one of them is an event of chance (the game's declared
    ``chance_events``): the table's to take, not a seat's; [] when a seat has a choice."""
    chance = _chance_fields(state)
    actions = state.legal_actions()
    if not chance or not actions or any(a["type"] not in chance for a in actions):
        return []
    return actions


def table_events(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    """The event the table appends itself now in a game whose deal is one event of chance (Tien
    Zi Que: a round's ``round_start``, the ``reshuffle`` a refill waits for, or a reshuffle that is
    the only way on), its cards put in order by ``rng`` (and, where the rules leave a choice such
    as who starts the first round, chosen by it); [] when a seat is to act. The Tichu family's
    deal is ``deal_pile`` and ``deal_events``."""
    if deals_tricks(state):
        return []
    actions = _table_moves(state)
    return [shuffle_chance(state, rng.choice(actions), rng)] if actions else []


def shuffle_chance(state: Any, event: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``event`` with the cards of its chance fields (the game's ``chance_events``) in an order
    from ``rng``, each field keeping its shape (a list of cards, or a list of hands); any other
    event as it is. A seat that chooses a reshuffle names the cards; the table orders them."""
    fields = _chance_fields(state).get(event.get("type", ""), ()) if isinstance(event.get("type"), str) else ()
    if not fields or not all(isinstance(event.get(f), list) for f in fields):
        return event  # nothing left to chance, or a malformed event the fold refuses as it is
    cards = [c for f in fields for c in _flat(event[f])]
    rng.shuffle(cards)
    out = dict(event)
    for f in fields:
        out[f], cards = _refill(event[f], cards)
    return out


def _flat(value: list[Any]) -> list[str]:
    return [c for part in value for c in (part if isinstance(part, list) else [part])]


def _refill(shape: list[Any], cards: list[str]) -> tuple[list[Any], list[str]]:
    """``shape`` filled from ``cards`` (a list of cards, or a list of lists of cards), and the rest."""
    if shape and all(isinstance(p, list) for p in shape):
        parts = []
        for part in shape:
            parts.append(cards[: len(part)])
            cards = cards[len(part) :]
        return parts, cards
    return cards[: len(shape)], cards[len(shape) :]


def table_options(variant: str, options: dict[str, Any] | None, rng: random.Random) -> dict[str, Any] | None:
    """The options of a game the site deals itself, completed where the game needs more than the
    players gave (Tien Zi Que without an edition's colours: a deck chosen by ``rng``); the options
    as they are for every other game."""
    from .game import game_for

    complete = getattr(game_for(variant), "table_options", None)
    return complete(options, rng) if complete is not None else options


def seat_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    """The engine's legal actions of ``seat`` now, pushes left out (a push is chosen card by card
    and checked by the fold): its plays and passes in turn, its calls, its Dragon gift, its bombs
    out of turn, in Tien Zi Que its draw, claim (Chow, Pung), discard, or the reshuffle it may
    choose instead of a Chow (the table orders its cards: ``shuffle_chance``); never an event of
    chance that is the table's alone (``table_events``)."""
    if not deals_tricks(state):
        if _table_moves(state):
            return []
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


def push_forced(state: Any, seat: int) -> dict[str, list[str]]:
    """The cards ``seat`` must give at the exchange now, where the rules leave it no choice but
    among equal cards (Grand Seigneur's tribute of the best cards; with ``return_worst`` the
    return of the worst): one such choice, by target seat; ``{}`` where the seat chooses."""
    if not push_due(state, seat):
        return {}
    h = state.hand
    return {str(t): list(cards) for t, cards in state.variant.push_forced(h, seat).items()}


__all__ = [
    "deal_events",
    "deal_hands",
    "deal_pile",
    "deals_tricks",
    "grand_tichu_open",
    "push_due",
    "push_forced",
    "seat_actions",
    "seats_played_by",
    "shuffle_chance",
    "table_events",
    "table_options",
]
