"""A Tien Zi Que round recorded by its score line (the ``round_result`` event), as a club scorer
writes it: who started the round, who made Mah-jong and how (a Pung or a Chow), and either the
winner's five score-pile cards (the engine scores them by the book's table) or the points alone.

The book scores only the winner, from the five cards of their score pile (docs/tien-zi-que.md
4.5). With the pile, the points are the engine's count (a ``points`` given too must agree).
With the points alone, the engine checks that some five-card pile could score them: the set of
reachable totals (:func:`reachable_points`), read over any edition's deck, since which card
bears which colour is not in the book. A drawn round (no ``winner``) exists only under the option
``exhausted_stock_draws``. Every refusal is ``result_invalid`` with ``params["field"]`` naming
the field a form should point at.
"""

from __future__ import annotations

import functools
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

from ..errors import EngineError
from .cards import FACE_COUNTS, FACES, JOKER, JOKER_CODE, PILE_SIZE, describe, face, is_card, is_coin, sort_cards
from .scoring import SCORING, score_pile

#: How a Mah-jong was made: the fifth combination by a Pung (a card from the stock: +1,
#: Pioche gagnante) or by a Chow (a discarded card).
WON_BY = ("pung", "chow")
#: The lines that depend on the cards' colours (all one colour, or five different ones).
COLOUR_LINES = frozenset({"colour", "white_hand", "five_elements"})


def _points(name: str) -> int:
    """A line's fixed points in the book's table (Caractères, which varies, is not asked here)."""
    points = SCORING[name][0]
    assert points is not None
    return points


DRAW_POINT = _points("winning_draw")


def _refuse(field: str, rule: str, message: str, **params: Any) -> EngineError:
    """A refused score line: ``field`` the form's field it points at, ``rule`` its words."""
    return EngineError(
        "result_invalid", f"round_result: {message}", params={"field": field, "rule": f"tzq_{rule}", **params}
    )


def _colour_bonuses(faces: tuple[str, ...]) -> set[int]:
    """The colour lines a pile of these faces can score with some edition's deck (the book fixes
    only that the four coin series have four different colours and a Tien Zi Que is black).

    - none: always possible (two cards of one colour beside a third of another);
    - one colour (Couleur +3 in blue, red or green; Jeu Blanc +4 in white): no Tien Zi Que (it is
      black) and no coin number twice (a colour is one series);
    - five colours (Cinq Éléments +4): at most one Tien Zi Que and at most four coins (the series
      have four colours between them)."""
    bonuses = {0}
    coins = [f for f in faces if f.startswith("C")]
    if JOKER not in faces and len(set(coins)) == len(coins):
        bonuses |= {_points("colour"), _points("white_hand")}
    if faces.count(JOKER) <= 1 and len(coins) <= 4:
        bonuses.add(_points("five_elements"))
    return bonuses


def _partitions(n: int, largest: int) -> list[tuple[int, ...]]:
    """The ways to split ``n`` coins into groups of one number (at most ``largest`` per group)."""
    if n == 0:
        return [()]
    return [(k, *rest) for k in range(min(n, largest), 0, -1) for rest in _partitions(n - k, k)]


def _pile_shapes() -> list[tuple[str, ...]]:
    """One pile by faces for each way the faces can score: which numbers the coins bear matters
    only for identical cards (a group of one number) and for Fier Dragon (five consecutive), so the
    coins are the groups of a partition on spread-out numbers, plus 1-2-3-4-5 for five different."""
    honours = [f for f in FACES if not f.startswith("C")]  # the winds, the Red Dragon, the Tien Zi Que
    shapes = []
    for k in range(PILE_SIZE + 1):
        for chosen in combinations_with_replacement(honours, k):
            if any(n > FACE_COUNTS[f] for f, n in Counter(chosen).items()):
                continue
            coins = PILE_SIZE - k
            for groups in _partitions(coins, FACE_COUNTS["C1"]):
                spread = [f"C{2 * i + 1}" for i, size in enumerate(groups) for _ in range(size)]
                shapes.append((*chosen, *spread))
            if coins == PILE_SIZE:
                shapes.append(tuple(f"C{n}" for n in range(1, PILE_SIZE + 1)))
    return shapes


@functools.lru_cache(maxsize=1)
def _base_totals() -> tuple[tuple[int, frozenset[int]], ...]:
    """For every way a pile can score by its faces: the points of the lines that do not depend on
    colours (the book's table, by :func:`score_pile`), and the colour bonuses it can add."""
    out = []
    for faces in _pile_shapes():
        cards = [JOKER_CODE if f == JOKER else f + "w" for f in faces]
        _, lines = score_pile(cards)
        base = sum(line["points"] for line in lines if line["name"] not in COLOUR_LINES)
        out.append((base, frozenset(_colour_bonuses(faces))))
    return tuple(out)


@functools.lru_cache(maxsize=4)
def reachable_points(by: str, min_points: int = 0) -> frozenset[int]:
    """Every total a winner's round can score: a five-card score pile's points (at least
    ``min_points``, the optional rule, which does not count the winning draw) plus the Pioche
    gagnante point for a Mah-jong made by a Pung."""
    extra = DRAW_POINT if by == "pung" else 0
    return frozenset(
        base + bonus + extra for base, bonuses in _base_totals() for bonus in bonuses if base + bonus >= min_points
    )


def _pile_problem(pile: list[str], deck: Counter | None) -> tuple[str, str, dict[str, Any]] | None:
    """Why these five cards cannot be a score pile of this game (``None``: they can): the rule,
    the message and the parameters of the refusal."""
    have = Counter(pile)
    if deck is not None:
        extra = sort_cards((have - deck).elements())
        if not extra:
            return None
        return "pile_not_in_deck", f"not in the game's deck (or too many): {describe(extra)}", {"cards": extra}
    by_face = Counter(face(c) for c in pile)
    too_many = [f for f, k in by_face.items() if k > FACE_COUNTS[f]]
    if too_many:
        most = FACE_COUNTS[too_many[0]]
        text = f"the deck holds at most {most} cards of that face: {describe(sort_cards(pile))}"
        return "pile_face", text, {"expected": most, "cards": sort_cards(pile)}
    twice = sort_cards(c for c, k in have.items() if is_coin(c) and k > 1)
    if twice:
        text = f"each coin series holds one card of each number: {describe(twice)} appears twice"
        return "pile_twice", text, {"cards": twice}
    return None


def _int_field(event: dict[str, Any], key: str) -> int | None:
    value = event.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineError(
            "malformed",
            f"round_result: {key!r} must be a whole number",
            params={"field": key, "rule": "tzq_whole_number", "key": key},
        )
    return value


def result_line(event: dict[str, Any], options: dict[str, Any], deck: Counter | None) -> dict[str, Any]:
    """Check a ``round_result``'s outcome and give its score-sheet line (without ``round`` and
    ``starter``, which the fold adds). The starter's checks are the fold's, as for a round_start."""
    winner = _int_field(event, "winner")
    points = _int_field(event, "points")
    by = event.get("by")
    pile_raw = event.get("score_pile")
    line: dict[str, Any] = {"out": [], "calls": {}, "turns": None, "combinations": [[], []], "kind": "round_result"}
    if winner is None:
        if not options["exhausted_stock_draws"]:
            raise _refuse(
                "winner",
                "no_draws",
                "a round ends by a Mah-jong: name its winner (a drawn round exists only under the "
                "optional rule exhausted_stock_draws)",
            )
        if points or by is not None or pile_raw is not None:
            raise _refuse("points", "drawn_points", "a drawn round scores no points: no way of winning, no score pile")
        return {**line, "points": [0, 0], "winner": None, "drawn": True, "by": None, "score_pile": [], "scoring": []}
    if winner not in (0, 1):
        raise _refuse("winner", "winner", f"the winner is seat 0 or seat 1, not {winner}", given=winner)
    if by not in WON_BY:
        raise _refuse(
            "by", "by", f"say how the Mah-jong was made: 'pung' (a card drawn) or 'chow' (a discard), not {by!r}"
        )
    minimum = options["min_points"]
    if pile_raw is not None:
        if len(pile_raw) != PILE_SIZE:
            raise _refuse(
                "score_pile",
                "pile_size",
                f"a winner's score pile holds {PILE_SIZE} cards, not {len(pile_raw)}",
                expected=PILE_SIZE,
                given=len(pile_raw),
            )
        bad = [c for c in pile_raw if not is_card(c)]
        if bad:
            raise EngineError(
                "unknown_card",
                f"round_result: {', '.join(repr(c) for c in bad)} not Tien Zi Que card codes",
                params={"field": "score_pile", "rule": "tzq_codes", "codes": ", ".join(map(str, bad))},
            )
        pile = sort_cards(pile_raw)
        problem = _pile_problem(pile, deck)
        if problem:
            rule, text, params = problem
            raise _refuse("score_pile", rule, text, **params)
        own, _ = score_pile(pile)
        if own < minimum:
            raise _refuse(
                "score_pile",
                "pile_min_points",
                f"optional rule min_points: a Mah-jong needs at least {minimum} points from the five "
                f"cards of the score pile; {describe(pile)} scores {own}",
                minimum=minimum,
                cards=pile,
                points=own,
            )
        total, lines = score_pile(pile, winning_draw=by == "pung")
        if points is not None and points != total:
            raise _refuse(
                "points",
                f"pile_points_{by}",
                f"the score pile {describe(pile)} won by a {by.capitalize()} scores {total}, not {points}",
                expected=total,
                cards=pile,
                given=points,
            )
    else:
        if points is None:
            raise _refuse("points", "no_points", "give the winner's points, or the five cards of the score pile")
        reachable = reachable_points(by, minimum)
        if points not in reachable:
            near = sorted(reachable, key=lambda p: (abs(p - points), p))[:2]
            raise _refuse(
                "points",
                f"unreachable_{by}" + ("_min" if minimum else ""),
                f"no score pile won by a {by.capitalize()} scores {points}"
                + (f" with at least {minimum} points from its cards (option min_points)" if minimum else "")
                + f"; the nearest possible: {' or '.join(map(str, sorted(near)))}",
                possible=sorted(reachable),
                given=points,
                minimum=minimum,
                **{f"nearest_{i}": p for i, p in enumerate(sorted(near), 1)},
            )
        total, pile, lines = points, [], []
    scored = [0, 0]
    scored[winner] = total
    return {
        **line,
        "points": scored,
        "winner": winner,
        "drawn": False,
        "out": [winner],
        "by": by,
        "score_pile": pile,
        "scoring": lines,
    }


def sheet_facts(state: Any) -> dict[str, Any] | None:
    """What a score-line form asks now (``None`` unless between rounds): who may start this round,
    whether it may be drawn, the smallest Mah-jong, and the totals a round can score by way of
    winning."""
    if state.over or state.round is not None:
        return None
    starters = (
        [state.next_starter] if state.next_starter is not None else [s for s in (0, 1) if state._starts_left(s) > 0]
    )
    minimum = state.options["min_points"]
    return {
        "round": len(state.history) + 1,
        "rounds": state.options["rounds"],
        "starters": starters,
        "drawn_allowed": bool(state.options["exhausted_stock_draws"]),
        "min_points": minimum,
        "won_by": list(WON_BY),
        "points": {by: sorted(reachable_points(by, minimum)) for by in WON_BY},
    }
