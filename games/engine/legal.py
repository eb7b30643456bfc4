"""Legal actions: every event the rules accept now, as event dicts ready to ``apply``.

Like python-chess's ``legal_moves``, this is derived from the same checks the fold runs: the
property tests apply every offered action and expect no refusal.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

from .cards import MAHJONG, RANK_CODES, rank_code
from .combos import DOG_LEAD, Combination, combinations_in, contains_rank
from .errors import EngineError
from .game import PlayState, game_of
from .hand import BETWEEN_HANDS, DEAL, DRAGON_GIFT, EXCHANGE, PLAY, Hand
from .state import GameState


def play_event(seat: int, combo: Combination) -> dict[str, Any]:
    """The ``play`` event for a combination (the Phoenix's reading named where it has one)."""
    event: dict[str, Any] = {"type": "play", "seat": seat, "cards": list(combo.cards)}
    if combo.phoenix is not None and len(combo.cards) > 1:
        event["phoenix"] = rank_code(combo.phoenix)
    return event


def _with_wishes(state: GameState, event: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A play with the Mahjong, once for each wish the player may make (and without one)."""
    if MAHJONG not in event["cards"] or not state.variant.has_wish:
        yield event
        return
    if not state.options.get("wish_required"):
        yield event
    for code in RANK_CODES:
        yield {**event, "wish": code}


def plays_for(state: GameState, seat: int) -> list[Combination]:
    """The combinations the seat to act may play in turn (the wish applied)."""
    h = state.hand
    if h is None or h.turn != seat or h.gift_from is not None:
        return []
    top = h.trick[-1][1] if h.trick and not h.closed else None
    combos = combinations_in(h.cards[seat], top, state.rules)
    if h.wish is not None and not state.variant.wish_exempt(h, seat):
        fulfilling = [c for c in combos if contains_rank(c.cards, h.wish)]
        if fulfilling:
            # following, a bomb may always be played as if before the turn (see GameState._on_play)
            bombs = [c for c in combos if c.is_bomb and top is not None and c not in fulfilling]
            return fulfilling + bombs
    return combos


def may_pass(state: GameState, seat: int) -> bool:
    h = state.hand
    if h is None or h.turn != seat or h.gift_from is not None or not h.trick or h.closed:
        return False
    if h.wish is not None and not state.variant.wish_exempt(h, seat):
        return not state._can_fulfil_wish(h, seat, h.trick[-1][1])
    return True


def bombs_out_of_turn(state: PlayState) -> dict[int, list[dict[str, Any]]]:
    """For each seat not to act, the bombs it may play now out of turn (none in a game without
    bombs: its game answers, game.py)."""
    return game_of(state).bombs_out_of_turn(state)


def legal_actions(state: PlayState, include_pushes: bool = True) -> list[dict[str, Any]]:
    """Every event the rules of the state's game accept now (game.py): in the Tichu family
    :func:`family_legal_actions`."""
    return game_of(state).legal_actions(state, include_pushes)


def family_bombs_out_of_turn(state: GameState) -> dict[int, list[dict[str, Any]]]:
    """For each seat not to act, the bombs it may play now out of turn."""
    result: dict[int, list[dict[str, Any]]] = {}
    h = state.hand
    if h is None or state.over or not h.trick or state.phase not in (PLAY, DRAGON_GIFT):
        return result
    if h.gift_from is not None and state.variant.hand_over(h):
        return result
    top = h.trick[-1][1]
    for seat in h.order:
        if not h.cards[seat] or (seat == h.turn and h.gift_from is None):
            continue
        bombs = [c for c in combinations_in(h.cards[seat], top, state.rules) if c.is_bomb]
        if bombs:
            result[seat] = [play_event(seat, c) for c in bombs]
    return result


def call_actions(state: GameState) -> list[dict[str, Any]]:
    h = state.hand
    v = state.variant
    if h is None or state.over or not v.has_calls:
        return []
    if h.gift_from is not None and v.hand_over(h):
        return []  # the hand is over; only its last Dragon trick's gift remains
    actions = []
    for seat in h.order:
        if seat in h.calls or seat in h.played:
            continue
        limit = v.grand_tichu_limit(h, seat)
        if limit is not None and h.received[seat] <= limit:
            actions.append({"type": "grand_tichu", "seat": seat})
        if v.may_call(h, seat):
            actions.append({"type": "tichu", "seat": seat})
    return actions


def push_actions(state: GameState, seat: int) -> Iterator[dict[str, Any]]:
    """Every push the seat may make (a generator: there are thousands)."""
    h = state.hand
    if h is None or state.phase != EXCHANGE or seat in h.pushes:
        return
    counts = state.variant.push_counts(h, seat)
    if not counts:
        return
    if state.variant.plain_push:  # one card to each target, any card (Variant.plain_push)
        targets = list(counts)
        seen = set()
        for cards in itertools.permutations(h.cards[seat], len(targets)):
            if cards not in seen:
                seen.add(cards)
                yield {"type": "push", "seat": seat, "cards": {str(t): c for t, c in zip(targets, cards)}}
        return
    # several cards to one seat (Grand Seigneur's tribute): each choice the variant accepts
    ((target, k),) = counts.items()
    seen_sets = set()
    for cards in itertools.combinations(sorted(h.cards[seat]), k):
        if cards in seen_sets:
            continue
        seen_sets.add(cards)
        try:
            state.variant.check_push(h, seat, {target: list(cards)})
        except EngineError:
            continue
        yield {"type": "push", "seat": seat, "cards": {str(target): list(cards)}}


def family_legal_actions(state: GameState, include_pushes: bool = True) -> list[dict[str, Any]]:
    """Every event the rules accept now: the seat to act's plays and passes, the draws or
    deals of the dealing, pushes, calls, the Dragon gift, and bombs out of turn."""
    phase = state.phase
    h = state.hand
    v = state.variant
    actions: list[dict[str, Any]] = []
    if state.over:
        return actions
    if phase == BETWEEN_HANDS:
        seats: tuple[int, ...] | list[int] = state.variant.dealers(state.n)
        if state.options.get("shuffler") == "first_out" and state.next_shuffler is not None:
            seats = [state.next_shuffler]
        return [{"type": "shuffle", "seat": s} for s in seats]
    assert h is not None
    actions += call_actions(state)
    if phase == DEAL:
        seat: int | None = state._expected_drawer(h)
        actions += [{"type": "draw", "seat": seat, "card": c} for c in sorted(h.pile) if h.pile[c] > 0]
        return actions
    if phase == EXCHANGE:
        if include_pushes:
            for seat in h.order:
                actions.extend(push_actions(state, seat))
        return actions
    if phase == DRAGON_GIFT:
        seat = h.gift_from
        assert seat is not None
        actions += [
            {"type": "dragon_gift", "seat": seat, "to": t}
            for t in h.order
            if v.is_opponent(h, seat, t) and (h.cards[t] or state.options.get("dragon_gift_to_out", True))
        ]
    elif phase == PLAY and h.turn is not None:
        seat = h.turn
        for combo in plays_for(state, seat):
            event = play_event(seat, combo)
            if combo.kind == DOG_LEAD:
                actions += _dog_events(state, h, event)
            else:
                actions.extend(_with_wishes(state, event))
        if may_pass(state, seat):
            actions.append({"type": "pass", "seat": seat})
    for seat_bombs in family_bombs_out_of_turn(state).values():
        actions.extend(seat_bombs)
    return actions


def _dog_events(state: GameState, h: Hand, event: dict[str, Any]) -> list[dict[str, Any]]:
    choices = getattr(state.variant, "dog_choices", None)
    if choices is None:
        return [event]
    targets = choices(h, event["seat"])
    return [{**event, "to": t} for t in targets] if targets else [event]


__all__ = [
    "legal_actions",
    "bombs_out_of_turn",
    "family_legal_actions",
    "family_bombs_out_of_turn",
    "plays_for",
    "may_pass",
    "push_actions",
    "call_actions",
    "play_event",
]
