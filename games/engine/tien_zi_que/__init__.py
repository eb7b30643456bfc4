"""Tien Zi Que (seed 004): a two-player game of its own, folded like the Tichu family.

The package mirrors the Tichu modules: ``cards``, ``combos``, ``scoring``, ``options``, ``state``
(the fold, its legal actions and JSON) and ``bot``.

Pure rules: no Django, no I/O, no randomness. The shuffles are done by whoever writes the record
(a scorer, or the seeded bot :func:`random_tzq_record`) and recorded as events: ``round_start``
carries the deal and the order of the stock, ``reshuffle`` the new stock order.

Card codes (docs/tien-zi-que.md): a face then a colour letter. Faces ``C1``..``C9`` (coins),
``E`` ``S`` ``W`` ``N`` (winds), ``D`` (Red Dragon), ``J`` (the Tien Zi Que joker); colours
``w`` white, ``b`` blue, ``k`` black, ``r`` red, ``g`` green. Which card bears which colour is not
in the book: the deck is data (option ``deck``, or the first ``round_start``), never guessed here.

:class:`TienZiQueState` checks every event fully before it changes anything: a refused event
raises :class:`EngineError` and leaves the state as it was.
"""

from __future__ import annotations

from .bot import random_deck, random_tzq_record
from .cards import (
    CARD_GRAMMAR,
    COLOUR_ORDER,
    COLOURS,
    DECK_SIZE,
    FACE_NAMES,
    FACES,
    HAND_SIZE,
    HONOURS,
    JOKER,
    JOKER_CODE,
    NAME,
    PILE_SIZE,
    WINDS,
    card_name,
    colour,
    deck_problems,
    describe,
    face,
    is_card,
    parse_card,
    sort_cards,
)
from .combos import combination_kind
from .options import TZQ_OPTIONS
from .scoring import SCORING, score_pile
from .state import EVENT_TYPES, TienZiQueState
from .table import (
    ACTION,
    BETWEEN_ROUNDS,
    DRAWN,
    GAME_OVER,
    RESHUFFLE,
    ROUND_STARTS,
    VARIANT,
    Round,
    TienZiQueVariant,
)

__all__ = [
    "ACTION",
    "BETWEEN_ROUNDS",
    "CARD_GRAMMAR",
    "COLOURS",
    "COLOUR_ORDER",
    "DECK_SIZE",
    "DRAWN",
    "EVENT_TYPES",
    "FACES",
    "FACE_NAMES",
    "GAME_OVER",
    "HAND_SIZE",
    "HONOURS",
    "JOKER",
    "JOKER_CODE",
    "NAME",
    "PILE_SIZE",
    "RESHUFFLE",
    "ROUND_STARTS",
    "Round",
    "SCORING",
    "TZQ_OPTIONS",
    "TienZiQueState",
    "TienZiQueVariant",
    "VARIANT",
    "WINDS",
    "card_name",
    "colour",
    "combination_kind",
    "deck_problems",
    "describe",
    "face",
    "is_card",
    "parse_card",
    "random_deck",
    "random_tzq_record",
    "score_pile",
    "sort_cards",
]
