"""Tien Zi Que (seed 004): a two-player game of its own, folded like the Tichu family.

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

import random
import re
from collections import Counter
from itertools import combinations
from typing import Any, Callable, Iterable

from .errors import EngineError
from . import schema
from .fold import EventFold
from .options import _bool, _choice, option, resolve

NAME = "tien-zi-que"

# --- cards ---------------------------------------------------------------------------------------

COLOURS = {"w": "white", "b": "blue", "k": "black", "r": "red", "g": "green"}
COLOUR_ORDER = "wbkrg"  # the book's order: blanc, bleu, noir, rouge, vert
WINDS = ("E", "S", "W", "N")
HONOURS = WINDS + ("D",)
JOKER = "J"
JOKER_CODE = "Jk"  # the book: "une carte TZQ est une carte noire"
FACES = tuple(f"C{n}" for n in range(1, 10)) + HONOURS + (JOKER,)
FACE_NAMES = {**{f"C{n}": f"{n} of coins" for n in range(1, 10)},
              "E": "East", "S": "South", "W": "West", "N": "North", "D": "Red Dragon", "J": "Tien Zi Que"}
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
    m = _CODE.match(code)
    if m is None:
        return None
    if m.group(1) == JOKER and m.group(2) != "k":
        return None
    return m.group(1), m.group(2)


def is_card(code: Any) -> bool:
    return parse_card(code) is not None


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


def sort_cards(cards: Iterable[str]) -> list[str]:
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


CARD_GRAMMAR = ("a face C1-C9 (coins), E S W N (winds), D (Red Dragon) or J (Tien Zi Que) followed by a colour "
                "w b k r g (white, blue, black, red, green); the Tien Zi Que is always black: Jk")


def deck_problems(cards: list[str]) -> list[str]:
    """What keeps ``cards`` from being a Tien Zi Que deck (empty when it is one).

    The book: 12 winds (3 of each), 3 Red Dragons, 36 coins in 4 series numbered 1 to 9 of
    4 different colours (so each colour of a series has each number once), 3 Tien Zi Que.
    """
    problems: list[str] = []
    bad = [c for c in cards if not is_card(c)]
    if bad:
        return [f"{', '.join(repr(c) for c in bad)} not card codes ({CARD_GRAMMAR})"]
    if len(cards) != DECK_SIZE:
        problems.append(f"{len(cards)} cards instead of {DECK_SIZE}")
    faces = Counter(face(c) for c in cards)
    for f, k in FACE_COUNTS.items():
        if faces[f] != k:
            problems.append(f"{faces[f]} {FACE_NAMES[f]} instead of {k}")
    series = {n: sorted((colour(c) for c in cards if face(c) == f"C{n}"), key=COLOUR_ORDER.index)
              for n in range(1, 10)}
    for n, cols in series.items():
        if len(set(cols)) != len(cols):
            problems.append(f"two {n} of coins of the same colour ({''.join(cols)}): the four series have four different colours")
    colour_sets = {tuple(cols) for cols in series.values() if len(cols) == 4}
    if len(colour_sets) > 1:
        problems.append("the coins' colours differ from number to number: each of the four series is one colour "
                        f"({', '.join(''.join(s) for s in sorted(colour_sets))})")
    return problems


# --- combinations --------------------------------------------------------------------------------

def combination_kind(cards: list[str]) -> str | None:
    """``"triplet"`` (Triplon), ``"sequence"`` (Suite), or ``None`` when the three cards are neither.

    At most one Tien Zi Que, standing for any card. A sequence is three coins of consecutive
    numbers (any series, no wrap-around from 9 to 1); a triplet three cards of the same face.
    """
    if len(cards) != 3:
        return None
    real = [c for c in cards if c[0] != JOKER]
    jokers = 3 - len(real)
    if jokers > 1:
        return None
    faces = {c[:-1] for c in real}
    if len(faces) == 1:
        return "triplet"
    if any(c[0] != "C" for c in real):
        return None
    nums = sorted(int(c[1]) for c in real)
    if len(set(nums)) != len(nums):
        return None
    if jokers == 0:
        return "sequence" if nums[2] - nums[0] == 2 else None
    return "sequence" if nums[1] - nums[0] in (1, 2) else None


def _combination_problem(cards: list[str]) -> str:
    if sum(1 for c in cards if is_joker(c)) > 1:
        return f"a combination may hold at most one Tien Zi Que: {describe(cards)}"
    return (f"{describe(cards)} is neither a triplet (three identical cards) nor a sequence "
            "(three coins of consecutive numbers), a Tien Zi Que standing for any one card")


# --- scoring -------------------------------------------------------------------------------------

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
        lines.append({"name": name, "label": SCORING[name][1],
                      "points": SCORING[name][0] if points is None else points, "cards": sort_cards(used)})

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


# --- options -------------------------------------------------------------------------------------

def _deck_value() -> tuple[Callable[[Any], bool], str]:
    return ((lambda v: v is None or (isinstance(v, list) and all(isinstance(c, str) for c in v))),
            "null or a list of the 54 card codes of the deck")


def _even_rounds() -> tuple[Callable[[Any], bool], str]:
    return ((lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 2 and v % 2 == 0),
            "an even integer >= 2 (each player starts as many rounds)")


def _min_points() -> tuple[Callable[[Any], bool], str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0), "an integer >= 0"


TZQ_OPTIONS = (
    option("deck", None, _deck_value(),
           "the 54 cards with their colours (the book does not say which card bears which colour); "
           "null: the first round_start's cards are the deck"),
    option("rounds", 4, _even_rounds(), "rounds in a game (the book: 4, each player starting two)"),
    option("starts", "alternate", _choice("alternate", "free"),
           "alternate: the first player changes every round; free: any order, each player starting half the rounds"),
    option("min_points", 0, _min_points(),
           "optional rule: a Mah-jong needs a score pile worth at least this many points (the book's option: 2)"),
    option("exhausted_stock_draws", False, _bool(),
           "optional rule: a round ends at the end of the turn that empties the stock; without a Mah-jong it is drawn"),
)


class TienZiQueVariant:
    """A stand-in for :class:`~.variants.Variant`: what generic code reads off ``state.variant``."""

    name = NAME
    players = 2
    has_calls = False
    has_wish = False

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


VARIANT = TienZiQueVariant()

# --- the state -----------------------------------------------------------------------------------

BETWEEN_ROUNDS = "between_rounds"
ACTION = "action"  # the player to act draws or makes a Chow (or reshuffles an empty stock first)
DRAWN = "drawn"  # the player has drawn: discards one card or makes a Pung
RESHUFFLE = "reshuffle"  # a combination's refill found the stock short: a reshuffle comes next
GAME_OVER = "game_over"

ROUND_STARTS = frozenset({"round_start"})
TICHU_ONLY = frozenset({"shuffle", "deal", "grand_tichu", "tichu", "push", "play", "pass", "dragon_gift",
                        "penalty", "hand_result"})


class Round:
    """One round being played."""

    __slots__ = ("number", "starter", "hands", "stock", "discard", "chowable", "piles", "combos", "active",
                 "stage", "drawn_card", "last_discards", "turns", "reshuffles")

    def __init__(self, number: int, starter: int, hands: list[list[str]], stock: list[str]) -> None:
        self.number = number
        self.starter = starter
        self.hands = hands
        self.stock = stock  # top first
        self.discard: list[str] = []  # bottom first
        self.chowable: list[str] = []  # the discards the player to act may take for a Chow
        self.piles: list[list[str]] = [[], []]
        self.combos: list[list[dict[str, Any]]] = [[], []]
        self.active = starter
        self.stage = ACTION
        self.drawn_card: str | None = None
        self.last_discards: list[str] = []  # the two cards a combination just sent to the discard pile
        self.turns = 0
        self.reshuffles = 0

    def copy(self) -> "Round":
        r = Round.__new__(Round)
        r.number, r.starter = self.number, self.starter
        r.hands = [list(h) for h in self.hands]
        r.stock = list(self.stock)
        r.discard = list(self.discard)
        r.chowable = list(self.chowable)
        r.piles = [list(p) for p in self.piles]
        r.combos = [list(c) for c in self.combos]  # entries are never changed once written
        r.active, r.stage, r.drawn_card = self.active, self.stage, self.drawn_card
        r.last_discards = list(self.last_discards)
        r.turns, r.reshuffles = self.turns, self.reshuffles
        return r

    def cards(self) -> Counter:
        """Every card of the round, wherever it is (conservation)."""
        c: Counter = Counter()
        for h in self.hands:
            c.update(h)
        c.update(self.stock)
        c.update(self.discard)
        for p in self.piles:
            c.update(p)
        return c


def _seat_of(event: dict[str, Any]) -> int:
    seat = event.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1):
        raise EngineError("malformed", f"{event.get('type')}: 'seat' must be 0 or 1, not {seat!r}")
    return seat


def _card_of(event: dict[str, Any], key: str) -> str:
    card = event.get(key)
    if not isinstance(card, str):
        raise EngineError("malformed", f"{event.get('type')}: {key!r} must be a card code")
    if not is_card(card):
        raise EngineError("unknown_card", f"{card!r} is not a Tien Zi Que card code ({CARD_GRAMMAR})")
    return card


def _cards_of(event: dict[str, Any], key: str, count: int | None = None) -> list[str]:
    cards = event.get(key)
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise EngineError("malformed", f"{event.get('type')}: {key!r} must be a list of card codes")
    if count is not None and len(cards) != count:
        raise EngineError("malformed", f"{event.get('type')}: {key!r} must list {count} cards, not {len(cards)}")
    bad = [c for c in cards if not is_card(c)]
    if bad:
        raise EngineError("unknown_card", f"{', '.join(repr(c) for c in bad)} not Tien Zi Que card codes ({CARD_GRAMMAR})")
    return cards


def _holds(hand: list[str], cards: list[str]) -> bool:
    have = Counter(hand)
    return all(have[c] >= k for c, k in Counter(cards).items())


def _remove(hand: list[str], cards: Iterable[str]) -> None:
    for c in cards:
        hand.remove(c)


def _without(cards: list[str], one: str) -> list[str]:
    rest = list(cards)
    rest.remove(one)
    return rest


class TienZiQueState(EventFold):
    """The state of a Tien Zi Que game after some events: the fold's accumulator.

    >>> g = TienZiQueState({}, ["Ann", "Bob"]); g.phase
    'between_rounds'
    """

    __slots__ = ("variant", "options", "players", "n", "deck", "totals", "history", "round", "over", "winner",
                 "events_applied", "_checkpoints", "_since")

    def __init__(self, options: dict[str, Any] | None, players: list[str]) -> None:
        if not isinstance(players, list) or len(players) != 2:
            count = len(players) if isinstance(players, list) else players
            raise EngineError("malformed", f"tien-zi-que is a game for exactly 2 players, not {count}")
        self.variant = VARIANT
        self.players = list(players)
        self.n = 2
        self.options = resolve(TZQ_OPTIONS, options)
        deck = self.options["deck"]
        if deck is not None:
            problems = deck_problems(deck)
            if problems:
                raise EngineError("malformed", "option 'deck' is not a Tien Zi Que deck: " + "; ".join(problems))
            self.options["deck"] = sort_cards(deck)
        self.deck: Counter | None = Counter(deck) if deck is not None else None
        self.totals = [0, 0]
        self.round: Round | None = None
        self._start_fold()

    def copy(self) -> "TienZiQueState":
        g = TienZiQueState.__new__(TienZiQueState)
        g.variant, g.options, g.players, g.n, g.deck = self.variant, self.options, self.players, self.n, self.deck
        g.totals = list(self.totals)
        g.round = self.round.copy() if self.round else None
        return self._copy_fold_into(g)

    # --- queries ---------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.over:
            return GAME_OVER
        if self.round is None:
            return BETWEEN_ROUNDS
        return self.round.stage

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def turn(self) -> int | None:
        if self.over or self.round is None:
            return None
        return self.round.active

    @property
    def next_starter(self) -> int | None:
        """Who starts the next round under ``starts: alternate`` (``None``: either player)."""
        if self.round is not None or self.over or not self.history:
            return None
        if self.options["starts"] == "alternate":
            return 1 - self.history[-1]["starter"]
        return None

    def _starts_left(self, seat: int) -> int:
        return self.options["rounds"] // 2 - sum(1 for line in self.history if line["starter"] == seat)

    # --- applying events -------------------------------------------------------------------------

    def _unknown_event(self, kind: Any) -> EngineError:
        if kind in TICHU_ONLY:
            return EngineError("not_in_variant", f"{kind} is an event of the Tichu games, not of tien-zi-que "
                                                 "(round_start, draw, discard, pung, chow, reshuffle, undo)")
        return EngineError("malformed", f"unknown event type {kind!r}")

    def _game_over(self, kind: str) -> EngineError:
        return EngineError("game_over", f"the game is over after {len(self.history)} rounds; {kind} is not accepted (an undo is)")

    def _require(self, kind: str, *stages: str) -> Round:
        phase = self.phase
        if phase not in stages:
            if phase == BETWEEN_ROUNDS:
                why = "no round is in progress (a round_start comes first)"
            elif phase == DRAWN:
                why = f"seat {self.turn} has drawn and now discards a card or makes a Pung"
            elif phase == RESHUFFLE:
                why = (f"seat {self.turn}'s hand is short after a combination and the stock is exhausted: "
                       "a reshuffle comes first")
            else:
                why = f"seat {self.turn} is to draw or to make a Chow"
            raise EngineError("wrong_phase", f"{kind} is not accepted now: {why}")
        assert self.round is not None
        return self.round

    def _check_turn(self, r: Round, seat: int, kind: str) -> None:
        if seat != r.active:
            raise EngineError("not_your_turn", f"it is seat {r.active}'s turn, not seat {seat}'s ({kind})")

    # --- round start -----------------------------------------------------------------------------

    def _on_round_start(self, event: dict[str, Any]) -> None:
        seat = _seat_of(event)
        if self.round is not None:
            raise EngineError("wrong_phase", f"round {self.round.number} is in progress: it must end (by a Mah-jong, "
                                             "or a drawn round) before the next round_start")
        hands = event.get("hands")
        if not isinstance(hands, list) or len(hands) != 2:
            raise EngineError("malformed", "round_start: 'hands' must be a list of two hands (seat 0, then seat 1)")
        dealt = [_cards_of({"type": "round_start", "hands": h}, "hands") for h in hands]
        stock = _cards_of(event, "stock")
        for s, h in enumerate(dealt):
            if len(h) != HAND_SIZE:
                raise EngineError("deal_invalid", f"each player is dealt {HAND_SIZE} cards; seat {s} gets {len(h)}")
        if self.next_starter is not None and seat != self.next_starter:
            raise EngineError("not_your_turn", f"seat {self.next_starter} starts round {len(self.history) + 1}: "
                                               "the first player changes every round (option starts: alternate)")
        if self._starts_left(seat) <= 0:
            raise EngineError("not_your_turn", f"seat {seat} has already started {self.options['rounds'] // 2} rounds; "
                                               "each player starts half of them")
        cards = dealt[0] + dealt[1] + stock
        if self.deck is None:
            problems = deck_problems(cards)
            if problems:
                raise EngineError("deal_invalid", "the hands and the stock must be the whole deck: " + "; ".join(problems))
        else:
            have = Counter(cards)
            missing = sort_cards((self.deck - have).elements())
            extra = sort_cards((have - self.deck).elements())
            if missing or extra:
                parts = []
                if missing:
                    parts.append(f"missing {describe(missing)}")
                if extra:
                    parts.append(f"not in the game's deck (or too many): {describe(extra)}")
                raise EngineError("deal_invalid", "the hands and the stock must be the game's deck: " + "; ".join(parts))
        if self.deck is None:
            self.deck = Counter(cards)
        self.round = Round(len(self.history) + 1, seat, [list(h) for h in dealt], list(stock))

    # --- the three actions -----------------------------------------------------------------------

    def _on_draw(self, event: dict[str, Any]) -> None:
        r = self._require("draw", ACTION)
        seat = _seat_of(event)
        self._check_turn(r, seat, "draw")
        if not r.stock:
            raise EngineError("wrong_phase", "the stock is exhausted: a reshuffle of the discard pile comes before the draw")
        if "card" in event:
            card = _card_of(event, "card")
            if card != r.stock[0]:
                raise EngineError("deal_invalid", f"the top card of the stock is {card_name(r.stock[0])}, not {card_name(card)}")
        card = r.stock.pop(0)
        r.hands[seat].append(card)
        r.drawn_card = card
        r.stage = DRAWN

    def _on_discard(self, event: dict[str, Any]) -> None:
        r = self._require("discard", DRAWN)
        seat = _seat_of(event)
        self._check_turn(r, seat, "discard")
        card = _card_of(event, "card")
        if card not in r.hands[seat]:
            raise EngineError("card_not_in_hand", f"seat {seat} does not hold {describe([card])} to discard")
        r.hands[seat].remove(card)
        r.discard.append(card)
        r.chowable = [card]
        r.last_discards = []
        self._end_turn(r)

    def _parse_combination(self, event: dict[str, Any]) -> tuple[list[str], str, str]:
        cards = _cards_of(event, "cards", 3)
        keep = _card_of(event, "keep")
        kind = combination_kind(cards)
        if kind is None:
            raise EngineError("invalid_combination", _combination_problem(cards))
        if keep not in cards:
            raise EngineError("invalid_combination", f"the card kept on the score pile ({describe([keep])}) must be "
                                                     f"one of the combination's cards: {describe(cards)}")
        return cards, keep, kind

    def _on_pung(self, event: dict[str, Any]) -> None:
        r = self._require("pung", DRAWN)
        seat = _seat_of(event)
        self._check_turn(r, seat, "pung")
        cards, keep, kind = self._parse_combination(event)
        if not _holds(r.hands[seat], cards):
            raise EngineError("card_not_in_hand", f"seat {seat} does not hold {describe(cards)} for a Pung "
                                                  f"(hand: {describe(sort_cards(r.hands[seat]))})")
        self._check_mahjong(r, seat, keep, "pung")
        _remove(r.hands[seat], cards)
        self._combine(r, seat, cards, keep, kind, "pung", None)

    def _on_chow(self, event: dict[str, Any]) -> None:
        r = self._require("chow", ACTION)
        seat = _seat_of(event)
        self._check_turn(r, seat, "chow")
        take = _card_of(event, "take")
        cards, keep, kind = self._parse_combination(event)
        if take not in cards:
            raise EngineError("invalid_combination", f"a Chow's combination must hold the discarded card it takes "
                                                     f"({describe([take])}): {describe(cards)}")
        if take not in r.chowable:
            if r.chowable:
                avail = f"only {describe(r.chowable)} may be taken"
            else:
                avail = "no discarded card may be taken now"
            raise EngineError("invalid_combination", f"a Chow takes the last discarded card, or one of the two a "
                                                     f"combination just discarded: {describe([take])} is not one ({avail})")
        if is_joker(take):
            raise EngineError("invalid_combination", "a Tien Zi Que just discarded may not be used to make a combination")
        own = _without(cards, take)
        if not _holds(r.hands[seat], own):
            raise EngineError("card_not_in_hand", f"seat {seat} does not hold {describe(own)} for a Chow with "
                                                  f"{card_name(take)} (hand: {describe(sort_cards(r.hands[seat]))})")
        self._check_mahjong(r, seat, keep, "chow")
        _remove(r.hands[seat], own)
        idx = len(r.discard) - 1 - r.discard[::-1].index(take)
        del r.discard[idx]
        self._combine(r, seat, cards, keep, kind, "chow", take)

    def _check_mahjong(self, r: Round, seat: int, keep: str, action: str) -> None:
        minimum = self.options["min_points"]
        if minimum and len(r.piles[seat]) == PILE_SIZE - 1:
            # the book: "un minimum de deux points à l'aide des cinq cartes de sa Pile de Victoire":
            # the cards' points; the Pioche gagnante point comes from the action and does not count
            pile = r.piles[seat] + [keep]
            points, _ = score_pile(pile)
            if points < minimum:
                raise EngineError("invalid_combination", f"optional rule min_points: a Mah-jong needs at least {minimum} "
                                                         f"points from the five cards of the score pile; "
                                                         f"{describe(sort_cards(pile))} would score {points} "
                                                         "(a winning draw's point does not count)")

    def _combine(self, r: Round, seat: int, cards: list[str], keep: str, kind: str, action: str,
                 take: str | None) -> None:
        rest = _without(cards, keep)
        entry: dict[str, Any] = {"action": action, "kind": kind, "cards": list(cards), "keep": keep}
        if take is not None:
            entry["take"] = take
        r.combos[seat].append(entry)
        r.piles[seat].append(keep)
        r.discard.extend(rest)
        r.drawn_card = None
        if len(r.piles[seat]) == PILE_SIZE:
            self._finish_round(r, seat, action)
            return
        r.chowable = list(rest)
        r.last_discards = list(rest)
        self._refill(r, seat)

    def _refill(self, r: Round, seat: int) -> None:
        need = HAND_SIZE - len(r.hands[seat])
        take = r.stock[:need]
        del r.stock[:need]
        r.hands[seat].extend(take)
        if len(r.hands[seat]) < HAND_SIZE and not self.options["exhausted_stock_draws"]:
            r.stage = RESHUFFLE
            return
        self._end_turn(r)

    def _end_turn(self, r: Round) -> None:
        r.turns += 1
        r.drawn_card = None
        if not r.stock and self.options["exhausted_stock_draws"]:
            self._finish_round(r, None, None)
            return
        r.active = 1 - r.active
        r.stage = ACTION

    # --- the reshuffle ---------------------------------------------------------------------------

    def _on_reshuffle(self, event: dict[str, Any]) -> None:
        r = self._require("reshuffle", ACTION, RESHUFFLE)
        seat = _seat_of(event)
        self._check_turn(r, seat, "reshuffle")
        stock = _cards_of(event, "stock")
        if self.options["exhausted_stock_draws"]:
            raise EngineError("wrong_phase", "option exhausted_stock_draws: the stock is never reshuffled")
        if r.stage == ACTION:
            if r.stock:
                raise EngineError("wrong_phase", f"the stock still holds {len(r.stock)} card(s): it is reshuffled only "
                                                 "once exhausted")
            shuffled = list(r.discard)
            kept: list[str] = []
            what = "the whole discard pile"
        else:
            kept = list(r.last_discards)
            shuffled = list(r.discard)
            for c in kept:
                idx = len(shuffled) - 1 - shuffled[::-1].index(c)
                del shuffled[idx]
            what = f"the discard pile except the two cards the combination just discarded ({describe(kept)})"
        have, want = Counter(stock), Counter(shuffled)
        if have != want:
            missing = sort_cards((want - have).elements())
            extra = sort_cards((have - want).elements())
            parts = []
            if missing:
                parts.append(f"missing {describe(missing)}")
            if extra:
                parts.append(f"not in it: {describe(extra)}")
            raise EngineError("deal_invalid", f"the new stock is {what}, in any order: " + "; ".join(parts))
        r.stock = list(stock)
        r.reshuffles += 1
        if r.stage == ACTION:
            r.discard = []
            r.chowable = []
            return
        r.discard = kept
        self._refill(r, seat)

    # --- round and game end ----------------------------------------------------------------------

    def _finish_round(self, r: Round, winner: int | None, action: str | None) -> None:
        line: dict[str, Any] = {"round": r.number, "starter": r.starter, "points": [0, 0], "winner": winner,
                                "out": [], "calls": {}, "turns": r.turns + (1 if winner is not None else 0)}
        if winner is None:
            line.update(kind="drawn", drawn=True, score_pile=[], scoring=[], by=None)
        else:
            pile = list(r.piles[winner])
            points, lines = score_pile(pile, winning_draw=action == "pung")
            line["points"][winner] = points
            line.update(kind="mahjong", drawn=False, out=[winner], score_pile=pile, scoring=lines, by=action)
        line["combinations"] = [list(c) for c in r.combos]
        self.history.append(line)
        for i, p in enumerate(line["points"]):
            self.totals[i] += p
        self.round = None
        if len(self.history) >= self.options["rounds"]:
            self.over = True
            a, b = self.totals
            self.winner = 0 if a > b else 1 if b > a else None

    # --- what may happen now ---------------------------------------------------------------------

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every event the rules accept now.

        The choices of the player to act are listed in full. The events of chance (``round_start``,
        ``reshuffle``) accept any order of their cards: one representative each is listed, with the
        cards in the current order (none for the first round_start while the deck is not known).
        """
        phase = self.phase
        if phase == GAME_OVER:
            return []
        if phase == BETWEEN_ROUNDS:
            if self.deck is None:
                return []
            cards = sort_cards(self.deck.elements())
            seats = [self.next_starter] if self.next_starter is not None else [s for s in (0, 1) if self._starts_left(s) > 0]
            return [{"type": "round_start", "seat": s, "hands": [cards[:5], cards[5:10]], "stock": cards[10:]}
                    for s in seats]
        r = self.round
        assert r is not None
        seat = r.active
        hand = r.hands[seat]
        out: list[dict[str, Any]] = []
        if phase == RESHUFFLE:
            rest = list(r.discard)
            for c in r.last_discards:
                idx = len(rest) - 1 - rest[::-1].index(c)
                del rest[idx]
            return [{"type": "reshuffle", "seat": seat, "stock": rest}]
        if phase == ACTION:
            if r.stock:
                out.append({"type": "draw", "seat": seat})
            elif not self.options["exhausted_stock_draws"]:
                out.append({"type": "reshuffle", "seat": seat, "stock": list(r.discard)})
            seen: set[tuple] = set()
            for take in dict.fromkeys(r.chowable):
                if is_joker(take):
                    continue
                for pair in combinations(hand, 2):
                    if combination_kind([take, *pair]) is None:
                        continue
                    cards = sort_cards([take, *pair])
                    for keep in dict.fromkeys(cards):
                        key = (take, tuple(cards), keep)
                        if key in seen or not self._mahjong_ok(r, seat, keep, "chow"):
                            continue
                        seen.add(key)
                        out.append({"type": "chow", "seat": seat, "take": take, "cards": cards, "keep": keep})
            return out
        # DRAWN
        for card in sort_cards(dict.fromkeys(hand)):
            out.append({"type": "discard", "seat": seat, "card": card})
        seen_p: set[tuple] = set()
        for triple in combinations(hand, 3):
            if combination_kind(list(triple)) is None:
                continue
            cards = sort_cards(triple)
            for keep in dict.fromkeys(cards):
                key = (tuple(cards), keep)
                if key in seen_p or not self._mahjong_ok(r, seat, keep, "pung"):
                    continue
                seen_p.add(key)
                out.append({"type": "pung", "seat": seat, "cards": cards, "keep": keep})
        return out

    def _mahjong_ok(self, r: Round, seat: int, keep: str, action: str) -> bool:
        try:
            self._check_mahjong(r, seat, keep, action)
        except EngineError:
            return False
        return True

    # --- JSON ------------------------------------------------------------------------------------

    def _sheet(self) -> list[dict[str, Any]]:
        return [dict(line, points=list(line["points"])) for line in self.history]

    def state_json(self) -> dict[str, Any]:
        """The JSON of ``python -m games.engine state`` for a Tien Zi Que record."""
        r = self.round
        out: dict[str, Any] = {
            "ok": True,
            "variant": NAME,
            "players": list(self.players),
            "options": dict(self.options),
            "events": self.events_applied,
            "phase": self.phase,
            "turn": self.turn,
            "round": len(self.history) + (1 if r else 0),
            "hand_number": len(self.history) + (1 if r else 0),  # the generic name (Replay marks)
            "next_starter": self.next_starter,
            "totals": list(self.totals),
            "score_sheet": self._sheet(),
            "complete": self.over,
            "winner": self.winner,
            "deck": sort_cards(self.deck.elements()) if self.deck is not None else None,
            # the Tichu keys of record-format.md section 4, empty in this game
            "trick": [], "wish": None, "calls": {}, "out": [],
        }
        if r is None:
            out.update(starter=None, hands=[[], []], stock_size=0, discard=[], chowable=[], drawn=None,
                       score_piles=[[], []], combinations=[[], []], reshuffles=0)
            return out
        out.update(
            starter=r.starter,
            hands=[sort_cards(h) for h in r.hands],
            stock_size=len(r.stock),
            discard=list(r.discard),
            chowable=list(r.chowable),
            drawn=r.drawn_card,
            score_piles=[list(p) for p in r.piles],
            combinations=[[dict(c) for c in cs] for cs in r.combos],
            reshuffles=r.reshuffles,
        )
        return out

    def score_json(self) -> dict[str, Any]:
        """The JSON of ``python -m games.engine score``: one line per finished round."""
        return {
            "ok": True,
            "variant": NAME,
            "hands": [
                {"points": list(line["points"]), "round": line["round"], "starter": line["starter"],
                 "winner": line["winner"], "drawn": line["drawn"], "by": line["by"], "kind": line["kind"],
                 "out": list(line["out"]), "calls": {}, "score_pile": list(line["score_pile"]),
                 "scoring": [dict(s) for s in line["scoring"]]}
                for line in self.history
            ],
            "totals": list(self.totals),
            "complete": self.over,
            "winner": self.winner,
        }


_HANDLERS: dict[str, Callable[[TienZiQueState, dict[str, Any]], None]] = {
    "round_start": TienZiQueState._on_round_start,
    "draw": TienZiQueState._on_draw,
    "discard": TienZiQueState._on_discard,
    "pung": TienZiQueState._on_pung,
    "chow": TienZiQueState._on_chow,
    "reshuffle": TienZiQueState._on_reshuffle,
}
EVENT_TYPES = frozenset(_HANDLERS) | {"undo"}


# --- the seeded bot ------------------------------------------------------------------------------

def random_deck(rng: random.Random) -> list[str]:
    """A deck with colours chosen by ``rng``: four coin series of four different colours, each
    honour any colour, the Tien Zi Que black. (An example edition for tests and demos; a real
    record names its own deck.)"""
    series = rng.sample(COLOUR_ORDER, 4)
    cards = [f"C{n}{c}" for c in series for n in range(1, 10)]
    cards += [f"{h}{rng.choice(COLOUR_ORDER)}" for h in HONOURS for _ in range(3)]
    cards += [JOKER_CODE] * 3
    return sort_cards(cards)


def random_tzq_record(seed: int, options: dict[str, Any] | None = None, players: list[str] | None = None,
                      combine_rate: float = 0.85, max_events: int = 50_000) -> dict[str, Any]:
    """A complete bot-played Tien Zi Que game as a record (the same seed gives the same record).

    The bot shuffles with ``random.Random(seed)`` and records the outcome in ``round_start`` and
    ``reshuffle``. Without a ``deck`` option it picks one (:func:`random_deck`) and writes it into
    the record's options. It makes a combination when it can with probability ``combine_rate``.
    A random player may never reach a high ``min_points`` (a round only ends by a Mah-jong unless
    ``exhausted_stock_draws``): past ``max_events`` events it gives up with RuntimeError.
    """
    from .record import FORMAT

    rng = random.Random(seed)
    players = list(players or ["Ann", "Bob"])
    opts = dict(options or {})
    if opts.get("deck") is None:
        opts["deck"] = random_deck(rng)
    state = TienZiQueState(opts, players)
    events: list[dict[str, Any]] = []

    def do(event: dict[str, Any]) -> None:
        state.apply(event)
        events.append(event)

    while not state.over:
        if len(events) > max_events:
            raise RuntimeError(f"seed {seed}: no end after {max_events} events")
        phase = state.phase
        if phase == BETWEEN_ROUNDS:
            seat = state.next_starter
            if seat is None:
                seat = rng.choice([s for s in (0, 1) if state._starts_left(s) > 0])
            assert state.deck is not None
            cards = sort_cards(state.deck.elements())
            rng.shuffle(cards)
            first, second = cards[0:10:2], cards[1:10:2]  # dealt one at a time, the starter first
            hands = [first, second] if seat == 0 else [second, first]
            do({"type": "round_start", "seat": seat, "hands": hands, "stock": cards[10:]})
            continue
        actions = state.legal_actions()
        reshuffles = [a for a in actions if a["type"] == "reshuffle"]
        combos = [a for a in actions if a["type"] in ("pung", "chow")]
        if combos and rng.random() < combine_rate:
            do(rng.choice(combos))
        elif phase == RESHUFFLE or (reshuffles and not combos) or (reshuffles and rng.random() < 0.5):
            event = reshuffles[0]
            stock = list(event["stock"])
            rng.shuffle(stock)
            do({"type": "reshuffle", "seat": event["seat"], "stock": stock})
        else:
            others = [a for a in actions if a["type"] in ("draw", "discard")]
            choice = rng.choice(others or combos or actions)
            if choice["type"] == "draw":
                r = state.round
                assert r is not None
                choice = {**choice, "card": r.stock[0]}
            do(choice)
    return {"format": FORMAT, "variant": NAME, "options": opts, "players": players, "events": events}


__all__ = ["TienZiQueState", "EVENT_TYPES", "TZQ_OPTIONS", "combination_kind", "score_pile", "deck_problems",
           "random_tzq_record", "random_deck", "parse_card", "card_name", "sort_cards"]

TienZiQueState._handlers = _HANDLERS
TienZiQueState._schemas = schema.TIEN_ZI_QUE
TienZiQueState._starts = ROUND_STARTS
