"""Card codes (record-format.md section 2) and their ranks, suits and points.

Normal cards are rank then suit: ``Ts`` is the ten of Swords. The four special cards are spelled
out: ``Mahjong``, ``Dog``, ``Phoenix``, ``Dragon``. Ranks are integers: the Dog 0, the Mahjong 1,
2..14 for 2..A, the Dragon 15. The Phoenix has no fixed rank (``PHOENIX_RANK`` marks it).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

RANK_CODES = "23456789TJQKA"
SUITS = "jspr"  # Jade, Swords, Pagodas, Stars
SUIT_NAMES = {"j": "Jade", "s": "Swords", "p": "Pagodas", "r": "Stars"}

MAHJONG, DOG, PHOENIX, DRAGON = "Mahjong", "Dog", "Phoenix", "Dragon"
SPECIALS = (MAHJONG, DOG, PHOENIX, DRAGON)

DOG_RANK, MAHJONG_RANK, DRAGON_RANK = 0, 1, 15
PHOENIX_RANK = -1

#: rank code ("2".."A") -> rank number, and back
RANK_OF_CODE = {code: i + 2 for i, code in enumerate(RANK_CODES)}
CODE_OF_RANK = {rank: code for code, rank in RANK_OF_CODE.items()}
CODE_OF_RANK[MAHJONG_RANK] = "1"

NORMAL_CARDS = tuple(r + s for r in RANK_CODES for s in SUITS)
#: card code -> (rank, suit or "")
CARD_INFO: dict[str, tuple[int, str]] = {c: (RANK_OF_CODE[c[0]], c[1]) for c in NORMAL_CARDS}
CARD_INFO.update(
    {MAHJONG: (MAHJONG_RANK, ""), DOG: (DOG_RANK, ""), PHOENIX: (PHOENIX_RANK, ""), DRAGON: (DRAGON_RANK, "")}
)

POINTS = {DRAGON: 25, PHOENIX: -25}
for _suit in SUITS:
    POINTS["5" + _suit] = 5
    POINTS["T" + _suit] = 10
    POINTS["K" + _suit] = 10

#: The 56-card Tichu deck, in a fixed order (the order used to sort hands for display).
TICHU_DECK: tuple[str, ...] = (MAHJONG, DOG) + NORMAL_CARDS + (PHOENIX, DRAGON)
_SORT_KEY = {code: i for i, code in enumerate((DOG, MAHJONG) + NORMAL_CARDS + (PHOENIX, DRAGON))}


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in CARD_INFO


def rank(code: str) -> int:
    return CARD_INFO[code][0]


def suit(code: str) -> str:
    return CARD_INFO[code][1]


def card_points(cards: Iterable[str]) -> int:
    """Card points of a pile: K and 10 score 10, 5 scores 5, Dragon 25, Phoenix -25.

    >>> card_points(["Ks", "5j", "Phoenix"])
    -10
    """
    # the end of every hand counts all its cards: a plain loop (compiled, native ints and one
    # dict look-up a card; map/filter over bound methods cost several times more there)
    total = 0
    for c in cards:
        points = POINTS.get(c)
        if points is not None:
            total += points
    return total


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in display order: Dog, Mahjong, 2..A (suit by suit), Phoenix, Dragon."""
    return sorted(cards, key=_SORT_KEY.__getitem__)


def rank_code(value: int) -> str:
    return CODE_OF_RANK[value]


def describe(cards: Iterable[str]) -> str:
    """Cards as text for messages, e.g. ``'Ks Kj'``."""
    return " ".join(cards)


def multiset_contains(have: Iterable[str], want: Iterable[str]) -> bool:
    """Whether the multiset ``have`` contains every card of ``want`` (two decks: repeats allowed)."""
    need = Counter(want)
    got = Counter(have)
    return all(got[c] >= n for c, n in need.items())
