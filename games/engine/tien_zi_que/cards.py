"""Tien Zi Que's cards (docs/tien-zi-que.md section 1): codes, faces, colours, names, the deck.

A code is a face then a colour letter. Faces ``C1``..``C9`` (coins), ``E`` ``S`` ``W`` ``N``
(winds), ``D`` (Red Dragon), ``J`` (the Tien Zi Que joker); colours ``w`` white, ``b`` blue,
``k`` black, ``r`` red, ``g`` green. Which card bears which colour is not in the book: the deck
is data (option ``deck``, or the first ``round_start``), never guessed here.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any, Iterable

NAME = "tien-zi-que"

COLOURS = {"w": "white", "b": "blue", "k": "black", "r": "red", "g": "green"}
COLOUR_ORDER = "wbkrg"  # the book's order: blanc, bleu, noir, rouge, vert
WINDS = ("E", "S", "W", "N")
HONOURS = WINDS + ("D",)
JOKER = "J"
JOKER_CODE = "Jk"  # the book: "une carte TZQ est une carte noire"
FACES = tuple(f"C{n}" for n in range(1, 10)) + HONOURS + (JOKER,)
FACE_NAMES = {
    **{f"C{n}": f"{n} of coins" for n in range(1, 10)},
    "E": "East",
    "S": "South",
    "W": "West",
    "N": "North",
    "D": "Red Dragon",
    "J": "Tien Zi Que",
}
_CODE = re.compile(r"^(C[1-9]|[ESWNDJ])([wbkrg])$")
#: how many of each face a deck holds
FACE_COUNTS = {**{f"C{n}": 4 for n in range(1, 10)}, **{h: 3 for h in HONOURS}, JOKER: 3}
DECK_SIZE = 54
HAND_SIZE = 5
PILE_SIZE = 5  # combinations to Mah-jong, and cards on a finished score pile


def parse_card(code: Any) -> tuple[str, str] | None:
    """``"C7r"`` -> ``("C7", "r")``; ``None`` for anything that is not a card code of this game."""
    if not isinstance(code, str):
        return None
    return _parse_code(code)


@functools.lru_cache(maxsize=1024)
def _parse_code(code: str) -> tuple[str, str] | None:
    # every event names cards, and a game has 54 codes: the fold's hot path (bench/engine.py)
    m = _CODE.match(code)
    if m is None:
        return None
    if m.group(1) == JOKER and m.group(2) != "k":
        return None
    return m.group(1), m.group(2)


#: every card code of the game (the regular expression's and the Joker rule's answer, once)
CODES = frozenset(f + c for f in FACES for c in COLOUR_ORDER if _parse_code(f + c) is not None)


#: each card code's :func:`card_key`
_CARD_KEYS: dict[str, tuple[int, int]] = {}


def is_card(code: Any) -> bool:
    # a set lookup: the events' cards are checked one by one on the fold's hot path; only a
    # str (or a subclass) can equal a code, and an unhashable value is no card either
    try:
        return code in CODES
    except TypeError:
        return False


def are_cards(codes: Iterable[Any]) -> bool:
    """Whether every one of ``codes`` is a card code (:func:`is_card` of each), at C speed."""
    try:
        return CODES.issuperset(codes)
    except TypeError:  # an unhashable value is no card
        return False


def face(code: str) -> str:
    return code[:-1]


def colour(code: str) -> str:
    return code[-1]


def is_joker(code: str) -> bool:
    return code[0] == JOKER


def is_coin(code: str) -> bool:
    return code[0] == "C"


def is_honour(code: str) -> bool:
    return code[0] in HONOURS


def number(code: str) -> int:
    return int(code[1])


def card_key(code: str) -> tuple[int, int]:
    return FACES.index(face(code)), COLOUR_ORDER.index(colour(code))


_CARD_KEYS.update((code, card_key(code)) for code in CODES)


def sort_cards(cards: Iterable[str]) -> list[str]:
    cards = list(cards)
    try:
        return sorted(cards, key=_CARD_KEYS.__getitem__)  # every code's key, computed once
    except (KeyError, TypeError):  # not a card code: card_key's own answer
        return sorted(cards, key=card_key)


def card_name(code: str) -> str:
    """``C7r`` -> ``7 of coins (red)``, ``Ew`` -> ``East (white)``."""
    p = parse_card(code)
    if p is None:
        return repr(code)
    return f"{FACE_NAMES[p[0]]} ({COLOURS[p[1]]})"


def describe(cards: Iterable[str]) -> str:
    cards = list(cards)
    return ", ".join(f"{c} ({card_name(c)})" for c in cards) if cards else "no card"


CARD_GRAMMAR = (
    "a face C1-C9 (coins), E S W N (winds), D (Red Dragon) or J (Tien Zi Que) followed by a colour "
    "w b k r g (white, blue, black, red, green); the Tien Zi Que is always black: Jk"
)


def deck_problems(cards: list[str]) -> list[str]:
    """What keeps ``cards`` from being a Tien Zi Que deck (empty when it is one).

    The book: 12 winds (3 of each), 3 Red Dragons, 36 coins in 4 series numbered 1 to 9 of
    4 different colours (so each colour of a series has each number once), 3 Tien Zi Que.
    """
    return [text for text, _params in deck_faults(cards)]


def deck_faults(cards: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """:func:`deck_problems` each with the parameters a refusal words it by (``rule``
    ``deck_size``, ``deck_face``, ``deck_series``, ``deck_colours``, ``deck_codes``)."""
    if not are_cards(cards):
        return _deck_faults(cards)
    # checked at every game's start and every round's: for card codes the answer depends on the
    # multiset only
    return list(_deck_faults_of(tuple(sorted(cards))))


@functools.lru_cache(maxsize=256)
def _deck_faults_of(cards: tuple[str, ...]) -> tuple[tuple[str, dict[str, Any]], ...]:
    return tuple(_deck_faults(list(cards)))


def _deck_faults(cards: list[str]) -> list[tuple[str, dict[str, Any]]]:
    problems: list[tuple[str, dict[str, Any]]] = []
    bad = [c for c in cards if not is_card(c)]
    if bad:
        return [
            (
                f"{', '.join(repr(c) for c in bad)} not card codes ({CARD_GRAMMAR})",
                {"rule": "deck_codes", "codes": ", ".join(map(str, bad))},
            )
        ]
    if len(cards) != DECK_SIZE:
        problems.append(
            (
                f"{len(cards)} cards instead of {DECK_SIZE}",
                {"rule": "deck_size", "given": len(cards), "expected": DECK_SIZE},
            )
        )
    faces = Counter(face(c) for c in cards)
    for f, k in FACE_COUNTS.items():
        if faces[f] != k:
            problems.append(
                (
                    f"{faces[f]} {FACE_NAMES[f]} instead of {k}",
                    {"rule": "deck_face", "tzq_face": f, "given": faces[f], "expected": k},
                )
            )
    series = {n: sorted((colour(c) for c in cards if face(c) == f"C{n}"), key=COLOUR_ORDER.index) for n in range(1, 10)}
    for n, cols in series.items():
        if len(set(cols)) != len(cols):
            problems.append(
                (
                    f"two {n} of coins of the same colour ({''.join(cols)}): the four series have four different colours",
                    {"rule": "deck_series", "tzq_face": f"C{n}"},
                )
            )
    colour_sets = {tuple(cols) for cols in series.values() if len(cols) == 4}
    if len(colour_sets) > 1:
        problems.append(
            (
                "the coins' colours differ from number to number: each of the four series is one colour "
                f"({', '.join(''.join(s) for s in sorted(colour_sets))})",
                {"rule": "deck_colours"},
            )
        )
    return problems
