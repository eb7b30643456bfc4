"""The Tichu family's hand in play (:class:`Hand`) and the phases of its fold, as ``state`` reports them."""

from __future__ import annotations

from typing import Any

from .cards import rank_code
from .combos import Combination
from .event_fields import pile_of

# Phases, as ``state`` reports them.
BETWEEN_HANDS = "between_hands"
DEAL = "deal"
EXCHANGE = "exchange"
PLAY = "play"
DRAGON_GIFT = "dragon_gift"
GAME_OVER = "game_over"

HAND_STARTS = frozenset({"shuffle", "hand_result"})


#: a Hand's fields (its __slots__), in the order a pickled Hand lists them (Hand.__reduce__)
HAND_FIELDS = (
    "number",
    "shuffler",
    "order",
    "teams",
    "team_of",
    "sizes",
    "cards",
    "received",
    "pile",
    "last_drawer",
    "calls",
    "played",
    "pushes",
    "out",
    "won",
    "trick",
    "log",
    "passed",
    "closed",
    "turn",
    "wish",
    "gift_from",
    "dealt",
    "options",
    "ranks",
    "after",
    "pushers",
)


class Hand:
    """One hand being played card by card."""

    __slots__ = HAND_FIELDS

    def __init__(
        self,
        number: int,
        shuffler: int,
        order: tuple[int, ...],
        teams: tuple[tuple[int, ...], ...],
        sizes: list[int],
        deck: tuple[str, ...],
    ) -> None:
        n = len(sizes)
        self.number = number
        self.shuffler = shuffler
        self.order = order
        # per seat, the other seats in order of play after it, then the seat itself: next_holder
        # walks it instead of finding the seat's place in ``order`` and counting round each time
        self.after = {s: order[i + 1 :] + order[: i + 1] for i, s in enumerate(order)}
        self.teams = teams
        team_of = [0] * n
        for t, seats in enumerate(teams):
            for s in seats:
                team_of[s] = t
        self.team_of = team_of
        self.sizes = sizes
        self.cards: list[list[str]] = [[] for _ in range(n)]
        self.received = [0] * n
        # cards not yet drawn or dealt: card -> count, a plain dict (a Counter's item assignment
        # goes through Python-level slots: a deal's counting cost several times more), the deck's
        # cards only, in the deck's order (Counter's order: bots deal from it)
        self.pile = dict(pile_of(deck))
        self.last_drawer: int | None = None
        self.calls: dict[int, str] = {}
        self.played: set[int] = set()
        self.pushes: dict[int, dict[int, list[str]]] = {}
        self.out: list[int] = []
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, Combination]] = []
        # plays and passes of the current trick, for display, as the fold keeps them: a pass as
        # its seat, a play as (seat, combination, wish named, in turn); trick_log() writes them
        self.log: list[int | tuple[int, Combination, int | None, bool]] = []
        self.passed: set[int] = set()
        self.closed = False  # every other player passed: the trick waits for its collection
        self.turn: int | None = None
        self.wish: int | None = None
        self.gift_from: int | None = None
        self.dealt = False
        self.options: dict[str, Any] = {}  # the game's options, for variant hooks (read only)
        # Grand Seigneur: the previous hand's finishing order (Great Lord first, Wretch last),
        # which gives this hand's ranks; empty in the first hand and in the other variants
        self.ranks: tuple[int, ...] = ()
        self.pushers: int | None = None  # how many seats give cards at the exchange, once asked

    def copy(self) -> "Hand":
        # made by __init__ with no deck, then every field set: the compiled build's Hand (a native
        # class, mypyc_build.py) cannot be made by Hand.__new__ without its __init__
        h = Hand(self.number, self.shuffler, self.order, self.teams, self.sizes, ())
        h.number, h.shuffler, h.order, h.teams = self.number, self.shuffler, self.order, self.teams
        h.team_of, h.sizes = self.team_of, self.sizes
        h.cards = [list(c) for c in self.cards]
        h.received = list(self.received)
        h.pile = dict(self.pile)
        h.last_drawer = self.last_drawer
        h.calls = dict(self.calls)
        h.played = set(self.played)
        h.pushes = {s: {t: list(c) for t, c in p.items()} for s, p in self.pushes.items()}
        h.out = list(self.out)
        h.won = [list(c) for c in self.won]
        h.trick = list(self.trick)
        h.log = list(self.log)
        h.passed = set(self.passed)
        h.closed, h.turn, h.wish, h.gift_from, h.dealt = self.closed, self.turn, self.wish, self.gift_from, self.dealt
        h.options, h.ranks, h.after, h.pushers = self.options, self.ranks, self.after, self.pushers
        return h

    def __reduce__(self) -> tuple[Any, tuple[tuple[Any, ...]]]:
        # pickled as its fields (the snapshot cache), rebuilt through __init__ by _hand_of_fields:
        # the compiled build's Hand (a native class, mypyc_build.py) cannot be made without it
        return _hand_of_fields, (tuple(getattr(self, name) for name in HAND_FIELDS),)

    # --- seats in order of play --------------------------------------------------------------

    def holders_count(self) -> int:
        # every play that empties a hand asks: compiled, a loop costs less than sum(map(bool, ...))
        count = 0
        for cards in self.cards:
            if cards:
                count += 1
        return count

    def next_holder(self, seat: int, include_self: bool = False, skip: set[int] | None = None) -> int:
        """The first seat in order of play after ``seat`` (or ``seat`` itself) that holds cards."""
        cards = self.cards
        if include_self and cards[seat] and (skip is None or seat not in skip):
            return seat
        for s in self.after[seat]:
            if cards[s] and (skip is None or s not in skip):
                return s
        return seat

    def trick_log(self) -> list[dict[str, Any]]:
        """The plays and passes of the current trick as the state's JSON shows them (``trick_log``):
        written here, when asked, from what the fold keeps (a dict per play and pass cost the
        fold more than the rest of a pass's bookkeeping)."""
        out: list[dict[str, Any]] = []
        for item in self.log:
            if item.__class__ is int:
                out.append({"seat": item, "pass": True})
                continue
            seat, combo, wish, in_turn = item  # type: ignore[misc]
            entry: dict[str, Any] = {"seat": seat, "cards": list(combo.cards), "combination": combo.kind}
            if combo.phoenix is not None:
                entry["phoenix"] = rank_code(combo.phoenix)
            if wish is not None:
                entry["wish"] = rank_code(wish)
            if not in_turn:
                entry["out_of_turn"] = True
            out.append(entry)
        return out

    @property
    def top(self) -> tuple[int, Combination] | None:
        return self.trick[-1] if self.trick else None


def _hand_of_fields(values: tuple[Any, ...]) -> Hand:
    """The Hand of a pickle (:meth:`Hand.__reduce__`)."""
    fields = dict(zip(HAND_FIELDS, values))
    h = Hand(fields["number"], fields["shuffler"], fields["order"], fields["teams"], fields["sizes"], ())
    for name, value in fields.items():
        setattr(h, name, value)
    return h
