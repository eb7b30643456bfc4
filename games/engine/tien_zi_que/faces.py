"""What Tien Zi Que's cards show (docs/tien-zi-que.md section 1): the face big, the colour letter
of the code under it (colour is never the only cue), and the words of its cards and scoring
table that the engine's catalogue translates (wording.py's ``TERMS``)."""

from __future__ import annotations

from .cards import COLOURS, FACE_NAMES, FACES, card_name, is_card

#: what the card shows big
FACE_SHORT = {
    **{f"C{n}": str(n) for n in range(1, 10)},
    "E": "E",
    "S": "S",
    "W": "W",
    "N": "N",
    "D": "Drg",
    "J": "TZQ",
}
FACE_CLASS = {
    **{f"C{n}": "tz-coin" for n in range(1, 10)},
    "E": "tz-wind",
    "S": "tz-wind",
    "W": "tz-wind",
    "N": "tz-wind",
    "D": "tz-dragon",
    "J": "tz-joker",
}

#: every card code of the game (face and colour), in the order a page lists them
DECK: tuple[str, ...] = tuple(f + c for f in FACES for c in COLOURS if is_card(f + c))


def card_face(code: str) -> dict[str, str] | None:
    """What a card shows: ``rank`` text, ``suit`` mark, a CSS ``cls`` and its ``name``; None for a
    code that is not one of the game's cards."""
    if not is_card(code):
        return None
    f, c = code[:-1], code[-1]
    mark = "●" if f.startswith("C") else ""
    return {"rank": FACE_SHORT[f], "suit": mark + c, "cls": f"tz {FACE_CLASS[f]} tc-{c}", "name": card_name(code)}


#: the kinds of combination (combos.combination_kind: the French book's Triplon and Suite), the
#: ``kind`` of the state JSON's combinations
_COMBINATIONS = {"triplet": "triplet", "sequence": "sequence"}
#: the lines of the scoring table (scoring.SCORING, whose ``label`` in the state's JSON stays the
#: French book's name), by the ``name`` a score sheet's line carries
_SCORING = {
    "colour": "Colour", "white_hand": "White Hand", "five_elements": "Five Elements",
    "sparrow_emperor": "Sparrow Emperor", "proud_dragon": "Proud Dragon", "pair": "Pair",
    "three_of_a_kind": "Three of a Kind", "four_of_a_kind": "Four of a Kind", "characters": "Characters",
    "wind_rose": "Wind Rose", "honours": "Honours", "supreme_honours": "Supreme Honours",
    "winning_draw": "Winning Draw",
}  # fmt: skip
#: the faces whose short text is a language's (FACE_SHORT): the winds' letters (French E S O N,
#: German O S W N: docs/glossary.md), the Dragon's and the Tien Zi Que's. The numbers are numbers;
#: a card's code in a record stays ``Ew``, ``Ww``, whatever the face shows.
_SHORT_WORDS = ("E", "S", "W", "N", "D", "J")


def terms() -> dict[str, str]:
    """The game's words (English): ``tzq_face:`` ``tzq_colour:`` ``tzq_card``, ``tzq_face_short:``
    (what a card shows), ``tzq_combination:`` and ``tzq_scoring:`` (a scoring line's name)."""
    out: dict[str, str] = {}
    for face, face_name in FACE_NAMES.items():
        out[f"tzq_face:{face}"] = face_name
    for colour, colour_name in COLOURS.items():
        out[f"tzq_colour:{colour}"] = colour_name
    out["tzq_card"] = "{words:tzq_face} ({words:tzq_colour})"
    for face in _SHORT_WORDS:
        out[f"tzq_face_short:{face}"] = FACE_SHORT[face]
    for kind, kind_name in _COMBINATIONS.items():
        out[f"tzq_combination:{kind}"] = kind_name
    for line, line_name in _SCORING.items():
        out[f"tzq_scoring:{line}"] = line_name
    return out
