"""The points of a winner's score pile (the book's table)."""

from __future__ import annotations

from typing import Any, Iterable

from .cards import FACES, PILE_SIZE, WINDS, colour, face, is_coin, is_honour, is_joker, number, sort_cards

SCORING = {  # name -> (points, the book's French name)
    "colour": (3, "Couleur"),
    "white_hand": (4, "Jeu Blanc"),
    "five_elements": (4, "Cinq Éléments"),
    "sparrow_emperor": (6, "Empereur des Moineaux"),
    "proud_dragon": (6, "Fier Dragon"),
    "pair": (2, "Paire"),
    "three_of_a_kind": (5, "Brelan"),
    "four_of_a_kind": (10, "Carré"),
    "characters": (None, "Caractères"),
    "wind_rose": (12, "Rose des vents"),
    "honours": (16, "Honneurs"),
    "supreme_honours": (20, "Honneurs suprêmes"),
    "winning_draw": (1, "Pioche gagnante"),
}
CHARACTER_POINTS = {1: 1, 2: 3, 3: 5, 4: 9}
SAME_FACE = {2: "pair", 3: "three_of_a_kind", 4: "four_of_a_kind"}


def score_pile(cards: list[str], winning_draw: bool = False) -> tuple[int, list[dict[str, Any]]]:
    """The points of a winner's score pile, and the lines of the table that make them.

    A Tien Zi Que is a black card that stands for nothing: it counts only for Cinq Éléments (as
    black) and Empereur des Moineaux. ``winning_draw``: the Mah-jong came by a Pung (the card
    was drawn from the stock).
    """
    lines: list[dict[str, Any]] = []

    def add(name: str, used: Iterable[str], points: int | None = None) -> None:
        lines.append(
            {
                "name": name,
                "label": SCORING[name][1],
                "points": SCORING[name][0] if points is None else points,
                "cards": sort_cards(used),
            }
        )

    cols = {colour(c) for c in cards}
    if len(cards) == PILE_SIZE and len(cols) == 1:
        (only,) = cols
        if only in "brg":
            add("colour", cards)
        elif only == "w":
            add("white_hand", cards)
    if len(cards) == PILE_SIZE and len(cols) == 5:
        add("five_elements", cards)
    jokers = [c for c in cards if is_joker(c)]
    if len(jokers) >= 3:
        add("sparrow_emperor", jokers)
    if len(cards) == PILE_SIZE and all(is_coin(c) for c in cards):
        nums = sorted(number(c) for c in cards)
        if all(b - a == 1 for a, b in zip(nums, nums[1:])):
            add("proud_dragon", cards)
    groups: dict[str, list[str]] = {}
    for c in cards:
        if not is_joker(c):
            groups.setdefault(face(c), []).append(c)
    for f in sorted(groups, key=FACES.index):
        same = groups[f]
        if len(same) in SAME_FACE:
            add(SAME_FACE[len(same)], same)
    honours = [c for c in cards if is_honour(c)]
    types = {face(c) for c in honours}
    if len(types) == 5:
        add("supreme_honours", honours)
    elif len(honours) == PILE_SIZE:
        add("honours", honours)
    elif set(WINDS) <= types:
        add("wind_rose", [c for c in honours if face(c) in WINDS])
    elif types:
        add("characters", honours, CHARACTER_POINTS[len(types)])
    if winning_draw:
        add("winning_draw", [])
    return sum(line["points"] for line in lines), lines
