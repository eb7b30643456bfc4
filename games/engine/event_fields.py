"""Reading a Tichu-family event's fields for the fold: a seat, a list of card codes, a rank, each
refused with its own words when it is not one (the field types were checked before: schema.py),
and the card counting of a hand (a pile's counts, whether a hand holds some cards).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from .cards import CARD_INFO, RANK_OF_CODE
from .errors import EngineError


def seat_of(event: dict[str, Any], n: int, key: str = "seat") -> int:
    seat = event.get(key)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must be a seat from 0 to {n - 1}, not {seat!r}",
            params={"rule": "seat", "event": event.get("type"), "field": key, "last": n - 1, "value": repr(seat)},
        )
    return seat


#: every card code, for the quick test of a play's cards
CARD_CODES = frozenset(CARD_INFO)


def card_list(event: dict[str, Any], key: str = "cards") -> list[str]:
    cards = event.get(key)
    if cards.__class__ is list and cards:
        try:
            if CARD_CODES.issuperset(cards):  # the usual case, at C speed; else the refusals below
                return cards
        except TypeError:  # an unhashable element: refused below
            pass
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must be a non-empty list of card codes",
            params={"rule": "card_list", "event": event.get("type"), "field": key},
        )
    for c in cards:
        if c not in CARD_INFO:
            raise EngineError(
                "unknown_card",
                f"{c!r} is not a card code (ranks 2-9 T J Q K A with a suit j s p r, or Mahjong, Dog, Phoenix, Dragon)",
                params={"rule": "card_code", "code": repr(c)},
            )
    return cards


def rank_field(event: dict[str, Any], key: str) -> int | None:
    value = event.get(key)
    if value is None:
        return None
    if value not in RANK_OF_CODE:
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must name a rank 2-9, T, J, Q, K or A, not {value!r}",
            params={"rule": "rank", "event": event.get("type"), "field": key, "value": repr(value)},
        )
    return RANK_OF_CODE[value]


#: a push's target keys as the quick way takes them: a seat number's plain text (another
#: spelling, say "02", goes the whole way, which reads it with int())
TARGET_OF_KEY = {str(s): s for s in range(16)}


@functools.lru_cache(maxsize=64)
def pile_of(deck: tuple[str, ...]) -> dict[str, int]:
    """A deck's cards and their counts, in the deck's order (every hand copies it: never change it)."""
    return dict(Counter(deck))


def holds(hand_cards: list[str], cards: list[str]) -> bool:
    distinct = set(cards)
    if len(distinct) == len(cards):  # the usual case: no card twice (one deck), a set test at C speed
        return distinct.issubset(hand_cards)
    need = Counter(cards)
    have = Counter(hand_cards)
    return all(have[c] >= k for c, k in need.items())


def remove_cards(hand_cards: list[str], cards: list[str]) -> None:
    for c in cards:
        hand_cards.remove(c)
