"""Card faces and names, and the words a scorer may type for a card: one home for the pages, the
API and the script of the entry page.

- :func:`card_name`: ``Ts`` -> ``10 of Swords``, ``C7r`` -> ``7 of coins (red)``;
- :func:`card_face`: what a card shows (``rank`` text, ``suit`` mark, a CSS ``cls``, its ``name``);
- :func:`card_code`: a typed word -> the card's code (``ma`` -> ``Mahjong``, ``10s`` -> ``Ts``), for
  the games of the Tichu deck; :data:`CARD_WORDS` is the whole table (the entry page's script
  looks words up in it, lower-cased, so the page and the API read the same words).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .cards import CARD_INFO, DOG, DRAGON, MAHJONG, PHOENIX, SUIT_NAMES, SUITS, TICHU_DECK
from .game import find_game, own_card

RANK_NAMES = {
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
    "1": "1",
}
RANK_SHORT = {"T": "10"}


def with_article(word: str) -> str:
    """``"an 8"``, ``"an Ace"``, ``"a 10"``: the article goes by how the word is spoken (eight,
    eleven and eighteen begin with a vowel sound, as do words spelled with one)."""
    spoken_vowel = word[:1].upper() in "AEIO" or re.match(r"8|1[18](\D|$)", word) is not None
    return ("an " if spoken_vowel else "a ") + word


#: rank code -> the rank with its article, as a wish is told: ``"8"`` -> ``"an 8"``.
RANK_PHRASES = {code: with_article(name) for code, name in RANK_NAMES.items()}
#: suit code -> symbol. Four shapes and four colours: readable without colour too.
SUIT_SYMBOLS = {"j": "◆", "s": "♠", "p": "▲", "r": "★"}
SPECIAL_SHORT = {MAHJONG: "1", DOG: "Dog", PHOENIX: "Phx", DRAGON: "Drg"}
SPECIAL_LONG = {MAHJONG: "Mahjong (1)", DOG: "Dog", PHOENIX: "Phoenix", DRAGON: "Dragon"}


def card_name(code: str) -> str:
    """``Ts`` -> ``10 of Swords``; specials by name; a game's own cards (Tien Zi Que's) as that
    game names them (game.py ``own_card_face``)."""
    if code in SPECIAL_LONG:
        return SPECIAL_LONG[code]
    if code in CARD_INFO and len(code) == 2:
        return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"
    own = own_card(code)
    return own[1]["name"] if own else code


def card_face(code: str) -> dict[str, str]:
    """What a card shows: ``rank`` text, ``suit`` symbol, ``cls`` (CSS class) and ``name``."""
    if code in SPECIAL_SHORT:
        return {"rank": SPECIAL_SHORT[code], "suit": "", "cls": "sp-" + code.lower(), "name": card_name(code)}
    if code in CARD_INFO and len(code) == 2:
        return {
            "rank": RANK_SHORT.get(code[0], code[0]),
            "suit": SUIT_SYMBOLS[code[1]],
            "cls": "su-" + code[1],
            "name": card_name(code),
        }
    own = own_card(code)
    if own:
        return dict(own[1])
    return {"rank": code, "suit": "", "cls": "unknown", "name": code}


def faces(codes: Iterable[str]) -> dict[str, dict[str, str]]:
    return {code: card_face(code) for code in codes}


def card_table() -> dict[str, dict[str, str]]:
    """The faces of the Tichu deck (every game of the family plays with it)."""
    return faces(TICHU_DECK)


def variant_cards(variant: str) -> dict[str, dict[str, str]]:
    """The faces of a game's own cards, beyond the Tichu deck of :func:`card_table`."""
    game = find_game(variant)
    if game is None:
        return {}
    return {code: dict(face) for code in game.info.deck if (face := game.own_card_face(code)) is not None}


def cards_text(cards: Iterable[str]) -> str:
    return ", ".join(card_name(c) for c in cards)


# --- typed words -----------------------------------------------------------------------------------


def _card_words() -> dict[str, str]:
    words: dict[str, str] = {}
    for code in TICHU_DECK:
        words[code.lower()] = code  # the codes themselves, in any case: "ts", "TS", "mahjong"
    for suit in SUITS:
        words["10" + suit] = "T" + suit
    words.update(
        {
            "ma": MAHJONG,
            "mj": MAHJONG,
            "1": MAHJONG,
            "do": DOG,
            "ph": PHOENIX,
            "phx": PHOENIX,
            "dr": DRAGON,
            "drg": DRAGON,
        }
    )
    return words


#: lower-cased word -> Tichu card code: the codes themselves in any case, ``10`` for ``T``, and the
#: short names of the special cards (``ma`` ``mj`` ``1``, ``do``, ``ph`` ``phx``, ``dr`` ``drg``).
CARD_WORDS: dict[str, str] = _card_words()


def card_words(variant: str) -> dict[str, str]:
    """The words a scorer may type for the cards of ``variant`` (lower-cased word -> code): none
    in Tien Zi Que, whose codes are typed exactly (``Dr`` is its red Dragon there)."""
    game = find_game(variant)
    return dict(game.card_words) if game is not None else CARD_WORDS


def card_code(word: Any, variant: str = "nanking") -> str | None:
    """The card a typed word names in ``variant``, or None. Tien Zi Que's codes are exact (``Dr``
    is its red Dragon there, not the Tichu Dragon): only the games of the Tichu deck read words."""
    if not isinstance(word, str):
        return None
    game = find_game(variant)
    return game.card_code(word) if game is not None else CARD_WORDS.get(word.strip().lower())


def canonical_cards(value: Any, variant: str = "nanking") -> Any:
    """``value`` with every word that names a card replaced by the card's code: a word, a list of
    words, or a mapping of lists (a push). Anything else is returned as it is, for the engine to
    refuse with its own message."""
    if isinstance(value, str):
        return card_code(value, variant) or value
    if isinstance(value, list):
        return [canonical_cards(v, variant) for v in value]
    if isinstance(value, dict):
        return {k: canonical_cards(v, variant) for k, v in value.items()}
    return value


#: The event fields that hold cards (record-format.md section 3).
CARD_FIELDS = ("cards", "card")


def canonical_event(event: Any, variant: str) -> Any:
    """An event as typed (``{"type": "play", "cards": ["ph", "10s"]}``) with its cards as codes
    (``["Phoenix", "Ts"]``). The engine itself reads codes only: records stay canonical."""
    game = find_game(variant)
    if not isinstance(event, dict) or (game is not None and not game.card_words):  # codes typed exactly
        return event
    out = dict(event)
    for key in CARD_FIELDS:
        if key in out:
            out[key] = canonical_cards(out[key], variant)
    return out
