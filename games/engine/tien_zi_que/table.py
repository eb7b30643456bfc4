"""A Tien Zi Que game's table: the stand-in variant, the phases, the events that start a round,
and :class:`Round`, the cards of the round in play (hands, stock, discards, score piles)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import NAME


class TienZiQueVariant:
    """A stand-in for :class:`~.variants.Variant`: what generic code reads off ``state.variant``."""

    name = NAME
    label = "Tien Zi Que"
    players = 2
    has_calls = False
    has_wish = False

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


VARIANT = TienZiQueVariant()


BETWEEN_ROUNDS = "between_rounds"
ACTION = "action"  # the player to act draws or makes a Chow (or reshuffles an empty stock first)
DRAWN = "drawn"  # the player has drawn: discards one card or makes a Pung
RESHUFFLE = "reshuffle"  # a combination's refill found the stock short: a reshuffle comes next
GAME_OVER = "game_over"

ROUND_STARTS = frozenset({"round_start", "round_result"})  # a round_result is a whole round
TICHU_ONLY = frozenset(
    {"shuffle", "deal", "grand_tichu", "tichu", "push", "play", "pass", "dragon_gift", "penalty", "hand_result"}
)


class Round:
    """One round being played."""

    __slots__ = (
        "number",
        "starter",
        "hands",
        "stock",
        "discard",
        "chowable",
        "piles",
        "combos",
        "active",
        "stage",
        "drawn_card",
        "last_discards",
        "turns",
        "reshuffles",
    )

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
