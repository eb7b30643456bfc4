"""Brettspielwelt's notation: its card codes, its display order and what that order tells.

BSW writes cards as suit letter + rank (``R10``, ``GB``) and specials as ``Ma Hu Ph Dr``, each
play in descending order with the Phoenix at the rank it stands for. Which cards form which
combination, and which ranks the Phoenix may take, is the engine's (:func:`.combos.readings`);
here is only where BSW puts the cards.
"""

from __future__ import annotations

import functools
from typing import Iterable

from .cards import CARD_INFO, PHOENIX, rank_code
from .combos import readings

__all__ = [
    "BSWFormatError",
    "GT_HEADER",
    "PLAY_HEADER",
    "START_HEADER",
    "TARGET_SCORE",
    "RANK_FROM_BSW",
    "RANK_TO_BSW",
    "bsw_cards",
    "bsw_sorted",
    "card_from_bsw",
    "card_to_bsw",
    "default_phoenix",
    "phoenix_reading",
    "wish_from_bsw",
]

GT_HEADER = "---------------Gr.Tichukarten------------------"
START_HEADER = "---------------Startkarten------------------"
PLAY_HEADER = "---------------Rundenverlauf------------------"
TARGET_SCORE = 1000

SUIT_FROM_BSW = {"G": "j", "S": "s", "B": "p", "R": "r"}
RANK_FROM_BSW = {
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "10": "T",
    "B": "J",
    "D": "Q",
    "K": "K",
    "A": "A",
}
RANK_TO_BSW = {v: k for k, v in RANK_FROM_BSW.items()}
SPECIAL_FROM_BSW = {"Ma": "Mahjong", "Hu": "Dog", "Ph": "Phoenix", "Dr": "Dragon"}

_BSW_CARD: dict[str, str] = dict(SPECIAL_FROM_BSW)
for _s, _suit in SUIT_FROM_BSW.items():
    for _r, _rank in RANK_FROM_BSW.items():
        _BSW_CARD[_s + _r] = _rank + _suit
_CARD_BSW = {v: k for k, v in _BSW_CARD.items()}
# BSW's display order, descending: Dragon, Phoenix (above the Ace unless it has a reading), A..2,
# Mahjong, Dog. The engine's ranks, with the Phoenix's display rank put above the Ace; doubled so
# that every key is an int (Python sorts keys of one type faster than a mix of ints and a float).
_DISPLAY_KEY = {c: -(29 if c == PHOENIX else 2 * CARD_INFO[c][0]) for c in _CARD_BSW}


class BSWFormatError(ValueError):
    """A line the converter cannot read. ``line`` is 1-based (or None). ``rule`` names what was
    wrong and ``params`` what its sentence needs (bsw_words.READER_WORDS says it in each language);
    ``message`` is the same sentence in English."""

    def __init__(self, message: str, line: int | None = None, *, rule: str = "unreadable", **params: object) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message
        self.rule = rule
        self.params = params


def card_from_bsw(code: str) -> str:
    """``'R10'`` -> ``'Tr'``, ``'GB'`` -> ``'Jj'``, ``'Ph'`` -> ``'Phoenix'``."""
    try:
        return _BSW_CARD[code]
    except KeyError:
        raise BSWFormatError(f"unknown BSW card code {code!r}", rule="unknown_card", code=repr(code)) from None


def card_to_bsw(card: str) -> str:
    try:
        return _CARD_BSW[card]
    except KeyError:
        raise ValueError(f"card {card!r} has no BSW code") from None


def bsw_cards(tokens: list[str], lineno: int | None = None) -> list[str]:
    """BSW codes -> card codes; an unknown code is a :class:`BSWFormatError` on ``lineno``."""
    try:
        return [_BSW_CARD[t] for t in tokens]  # compiled, cheaper than map() over a bound __getitem__
    except KeyError as exc:
        code = repr(exc.args[0])
        raise BSWFormatError(f"unknown BSW card code {code}", lineno, rule="unknown_card", code=code) from None


def wish_from_bsw(x: str, lineno: int | None = None) -> str:
    try:
        return RANK_FROM_BSW[x]
    except KeyError:
        raise BSWFormatError(f"unknown wish {x!r}", lineno, rule="unknown_wish", wish=repr(x)) from None


def bsw_sorted(cards: Iterable[str], phoenix: str | None = None) -> list[str]:
    """BSW's display order: descending, Dragon and Phoenix first (the Phoenix at its reading in a
    combination), Mahjong then Dog last. Stable: cards already in BSW order keep their order.
    In a full house of two pairs and the Phoenix, BSW puts the Phoenix before the pair it joins
    (``Ph R8 S8 S5 R5`` = 888+55, ``GK SK Ph B2 G2`` = 222+KK)."""
    cards = list(cards)
    if phoenix is None:
        return sorted(cards, key=_DISPLAY_KEY.__getitem__)
    ph_rank = CARD_INFO[phoenix + "s"][0]
    ph = -2 * ph_rank  # as _DISPLAY_KEY's keys
    shown = sorted(cards, key=lambda c: ph if c == PHOENIX else _DISPLAY_KEY[c])
    others = [CARD_INFO[c][0] for c in shown if c != PHOENIX]
    if len(shown) == 5 and sorted(others.count(r) for r in set(others)) == [2, 2]:
        shown.remove(PHOENIX)
        shown.insert(next(k for k, c in enumerate(shown) if CARD_INFO[c][0] == ph_rank), PHOENIX)
    return shown


def phoenix_reading(cards: list[str], lineno: int | None = None) -> str | None:
    """The rank the Phoenix stands for in a multi-card play written in BSW order; ``None`` for a
    single or no Phoenix. Of the readings the engine allows, the one BSW would write with the
    Phoenix where it stands (or nearest to it: BSW ends a two-pair full house with the Phoenix
    when it joins the lower pair).

    >>> phoenix_reading(["8s", "7p", "6r", "5r", "Phoenix", "3p", "2p", "Mahjong"])
    '4'
    >>> phoenix_reading(["Phoenix", "8r", "8s", "5s", "5r"])
    '8'
    """
    if len(cards) < 2 or PHOENIX not in cards:
        return None
    reading = _reading_where(tuple(cards))
    if reading is None:
        shown = " ".join(card_to_bsw(c) for c in cards)
        raise BSWFormatError("no Phoenix reading for " + shown, lineno, rule="no_phoenix_reading", cards=shown)
    return reading


@functools.lru_cache(maxsize=4096)
def _reading_where(cards: tuple[str, ...]) -> str | None:
    """phoenix_reading's choice, cached: the same plays come back in every log."""
    at = cards.index(PHOENIX)
    ranks = [c.phoenix for c in readings(cards) if c.phoenix is not None]
    if not ranks:
        return None

    def distance(rank: int) -> tuple[int, int]:
        return abs(bsw_sorted(cards, rank_code(rank)).index(PHOENIX) - at), -rank

    return rank_code(min(ranks, key=distance))


def default_phoenix(cards: list[str]) -> str | None:
    """For a multi-card play without a ``phoenix`` field: the highest reading the cards allow
    (what the engine takes when the table does not restrict it)."""
    found = [c for c in readings(cards) if c.phoenix is not None]
    if not found:
        return None
    best = max(found, key=lambda c: (c.rank, c.phoenix))
    return rank_code(best.phoenix)  # type: ignore[arg-type]
