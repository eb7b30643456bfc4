"""Hands of the family variants (Tientsin, Threechu, Grand Seigneur) set up with chosen cards.

``dealt(variant, names, options, wanted)`` shuffles, deals and runs a constructed exchange so that
every seat ends the exchange holding exactly its ``wanted`` cards (filled up from the rest of the
deck in a fixed order); ``deal_only`` stops after the deal (Grand Seigneur's tribute). Refusals
are checked with ``tests.engine.table.refuse``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from games.engine import GameState

SIX = ["A", "B", "C", "D", "E", "F"]
THREE = ["Ann", "Bob", "Cid"]


def players(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def play(state: GameState, seat: int, *cards: str, **extra: Any) -> None:
    state.apply({"type": "play", "seat": seat, "cards": list(cards), **extra})


def pass_(state: GameState, *seats: int) -> None:
    for seat in seats:
        state.apply({"type": "pass", "seat": seat})


def _started(variant: str, names: list[str], options: dict | None, shuffler: int, history: Iterable[dict]) -> GameState:
    state = GameState(variant, options, names)
    for event in history:
        state.apply(event)
    state.apply({"type": "shuffle", "seat": shuffler})
    return state


def _final_hands(state: GameState, wanted: dict[int, list[str]], keep: Iterable[str] = ()) -> dict[int, list[str]]:
    """Each seat's wanted cards, filled up to its hand size from the rest of the deck in a fixed
    order (cards in ``keep`` stay in the pile)."""
    h = state.hand
    rest = Counter(h.pile)
    for cards in wanted.values():
        rest.subtract(cards)
    rest.subtract(Counter(keep))
    assert all(v >= 0 for v in rest.values()), "a wanted card is not in the deck"
    pile = sorted(rest.elements())
    final = {}
    for seat in range(state.n):
        cards = list(wanted.get(seat, []))
        assert len(cards) <= h.sizes[seat], (seat, cards)
        need = h.sizes[seat] - len(cards)
        final[seat] = cards + pile[:need]
        pile = pile[need:]
    return final


def dealt(
    variant: str,
    names: list[str],
    options: dict | None,
    wanted: dict[int, list[str]],
    shuffler: int = 0,
    history: Iterable[dict] = (),
    before_deal: Iterable[dict] = (),
    keep: Iterable[str] = (),
) -> GameState:
    """A hand after the deal (``deal`` events) and a constructed exchange: card ``final[t][k]``
    is what seat t receives from its k-th pusher. ``before_deal`` events (calls) go in after the
    shuffle."""
    state = _started(variant, names, options, shuffler, history)
    h = state.hand
    final = _final_hands(state, wanted, keep)
    pre = {s: list(c) for s, c in final.items()}
    pushes: dict[int, dict[str, str]] = {}
    taken = {s: 0 for s in final}
    for giver in h.order:
        for target in state.variant.push_targets(h, giver):
            card = final[target][-1 - taken[target]]
            taken[target] += 1
            pre[target].remove(card)
            pre[giver].append(card)
            pushes.setdefault(giver, {})[str(target)] = card
    for event in before_deal:
        state.apply(event)
    for seat in h.order:
        if pre[seat]:
            state.apply({"type": "deal", "seat": seat, "cards": pre[seat]})
    for giver, cards in pushes.items():
        state.apply({"type": "push", "seat": giver, "cards": cards})
    for seat, cards in final.items():
        assert Counter(state.hand.cards[seat]) == Counter(cards), seat
    return state


def deal_only(
    variant: str,
    names: list[str],
    options: dict | None,
    wanted: dict[int, list[str]],
    shuffler: int,
    history: Iterable[dict] = (),
    keep: Iterable[str] = (),
) -> GameState:
    """A hand after the deal only (no pushes): for Grand Seigneur's tribute."""
    state = _started(variant, names, options, shuffler, history)
    final = _final_hands(state, wanted, keep)
    for seat in state.hand.order:
        if final[seat]:
            state.apply({"type": "deal", "seat": seat, "cards": final[seat]})
    return state
