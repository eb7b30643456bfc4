"""The fold: a game's state, and how each event changes it.

:class:`GameState` is mutable for speed, but every ``apply`` checks the whole event before it
changes anything: a refused event raises :class:`EngineError` and leaves the state as it was.
Rules that differ between games are asked of the :class:`~.variants.Variant`; this module holds
none of them as numbers.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from types import SimpleNamespace
from typing import Any, Callable

from . import schema
from .cards import (
    CARD_INFO,
    DRAGON,
    MAHJONG,
    PHOENIX,
    RANK_OF_CODE,
    describe,
    rank_code,
)
from .combos import DOG_LEAD, Combination, beats, can_play_rank, contains_rank, on_table, readings, readings_of
from .corrections import AFTER_END, on_hand_corrected
from .errors import EngineError
from .event_fold import EventFold
from .options import resolve
from .variants import Variant, get_variant

# Phases, as ``state`` reports them.
BETWEEN_HANDS = "between_hands"
DEAL = "deal"
EXCHANGE = "exchange"
PLAY = "play"
DRAGON_GIFT = "dragon_gift"
GAME_OVER = "game_over"

HAND_STARTS = frozenset({"shuffle", "hand_result"})


class Hand:
    """One hand being played card by card."""

    __slots__ = (
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
        self.pile = dict(_pile_of(deck))
        self.last_drawer: int | None = None
        self.calls: dict[int, str] = {}
        self.played: set[int] = set()
        self.pushes: dict[int, dict[int, list[str]]] = {}
        self.out: list[int] = []
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, Combination]] = []
        self.log: list[dict[str, Any]] = []  # plays and passes of the current trick, for display
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
        h = Hand.__new__(Hand)
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

    # --- seats in order of play --------------------------------------------------------------

    def holders_count(self) -> int:
        return sum(map(bool, self.cards))  # at C speed: every play that empties a hand asks

    def next_holder(self, seat: int, include_self: bool = False, skip: set[int] | None = None) -> int:
        """The first seat in order of play after ``seat`` (or ``seat`` itself) that holds cards."""
        cards = self.cards
        if include_self and cards[seat] and (skip is None or seat not in skip):
            return seat
        for s in self.after[seat]:
            if cards[s] and (skip is None or s not in skip):
                return s
        return seat

    @property
    def top(self) -> tuple[int, Combination] | None:
        return self.trick[-1] if self.trick else None


def _seat_of(event: dict[str, Any], n: int, key: str = "seat") -> int:
    seat = event.get(key)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must be a seat from 0 to {n - 1}, not {seat!r}",
            params={"rule": "seat", "event": event.get("type"), "field": key, "last": n - 1, "value": repr(seat)},
        )
    return seat


#: every card code, for the quick test of a play's cards
_CODES = frozenset(CARD_INFO)


def _card_list(event: dict[str, Any], key: str = "cards") -> list[str]:
    cards = event.get(key)
    if cards.__class__ is list and cards:
        try:
            if _CODES.issuperset(cards):  # the usual case, at C speed; else the refusals below
                return cards
        except TypeError:  # an unhashable element: refused below
            pass
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must be a non-empty list of card codes",
            params={"rule": "card_list", "event": event.get("type"), "field": key},
        )
    for c in cards:
        if c not in CARD_INFO:
            raise EngineError(
                "unknown_card",
                f"{c!r} is not a card code (ranks 2-9 T J Q K A with a suit j s p r, or Mahjong, Dog, Phoenix, Dragon)",
                params={"rule": "card_code", "code": repr(c)},
            )
    return cards


def _rank_field(event: dict[str, Any], key: str) -> int | None:
    value = event.get(key)
    if value is None:
        return None
    if value not in RANK_OF_CODE:
        raise EngineError(
            "malformed",
            f"{event.get('type')}: {key!r} must name a rank 2-9, T, J, Q, K or A, not {value!r}",
            params={"rule": "rank", "event": event.get("type"), "field": key, "value": repr(value)},
        )
    return RANK_OF_CODE[value]


#: a push's target keys as the quick way takes them: a seat number's plain text (another
#: spelling, say "02", goes the whole way, which reads it with int())
_TARGET_OF_KEY = {str(s): s for s in range(16)}

_ZEROS = itertools.repeat(0)  # dict.get's default for every card (never exhausted)


@functools.lru_cache(maxsize=64)
def _pile_of(deck: tuple[str, ...]) -> dict[str, int]:
    """A deck's cards and their counts, in the deck's order (every hand copies it: never change it)."""
    return dict(Counter(deck))


def _holds(hand_cards: list[str], cards: list[str]) -> bool:
    distinct = set(cards)
    if len(distinct) == len(cards):  # the usual case: no card twice (one deck), a set test at C speed
        return distinct.issubset(hand_cards)
    need = Counter(cards)
    have = Counter(hand_cards)
    return all(have[c] >= k for c, k in need.items())


def _remove(hand_cards: list[str], cards: list[str]) -> None:
    for c in cards:
        hand_cards.remove(c)


class GameState(EventFold):
    """The state of a game after some events: the fold's accumulator.

    >>> g = GameState("nanking", {}, ["Ann", "Bob", "Cid", "Dee"])
    >>> g.apply({"type": "shuffle", "seat": 0}); g.phase
    'deal'
    """

    __slots__ = (
        "variant",
        "options",
        "players",
        "n",
        "rules",
        "totals",
        "history",
        "hand",
        "next_shuffler",
        "over",
        "winner",
        "events_applied",
        "_checkpoints",
        "_since",
    )

    def __init__(self, variant: str | Variant, options: dict[str, Any] | None, players: list[str]) -> None:
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        self.variant.check_players(players)
        self.players = list(players)
        self.n = self.variant.seat_count(players)
        self.options = self.variant.finish_options(resolve(self.variant.options, options), self.n)
        self.variant.check_options(self.options, self.n)
        self.rules = self.variant.combo_rules_for(self.options)
        self.totals = [0] * self.variant.score_columns(self.n)
        self.hand: Hand | None = None
        self.next_shuffler: int | None = None
        self._start_fold()

    def copy(self) -> "GameState":
        g = GameState.__new__(GameState)
        g.variant, g.options, g.players, g.n, g.rules = self.variant, self.options, self.players, self.n, self.rules
        g.totals = list(self.totals)
        g.hand = self.hand.copy() if self.hand else None
        g.next_shuffler = self.next_shuffler
        return self._copy_fold_into(g)

    # --- queries -----------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.over:
            return GAME_OVER
        h = self.hand
        if h is None:
            return BETWEEN_HANDS
        if not h.dealt:
            return DEAL
        if h.turn is None and h.gift_from is None and len(h.pushes) < self._pushers_count(h):
            return EXCHANGE
        if h.gift_from is not None:
            return DRAGON_GIFT
        return PLAY

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def turn(self) -> int | None:
        h = self.hand
        if h is None or self.over:
            return None
        if h.gift_from is not None:
            return h.gift_from
        return h.turn

    def _pushers_count(self, h: Hand) -> int:
        # the exchange's givers follow from the hand's seating, teams, ranks and options, all
        # fixed when the hand begins: counted once per hand (the phase asks it at every event)
        if h.pushers is None:
            h.pushers = sum(1 for s in range(self.n) if self.variant.push_targets(h, s))
        return h.pushers

    # --- applying events ---------------------------------------------------------------------

    # --- the deal ----------------------------------------------------------------------------

    def _hand_in_play(self, kind: str) -> Hand:
        """The hand, in its play or Dragon gift phase (the phase of most events): the test of
        :attr:`phase` that settles it at once, else :meth:`_require_hand`'s answer or refusal."""
        h = self.hand
        if h is not None and h.dealt and (h.turn is not None or h.gift_from is not None) and not self.over:
            return h
        return self._require_hand(kind, PLAY, DRAGON_GIFT)

    def _require_hand(self, kind: str, *phases: str) -> Hand:
        phase = self.phase
        if phase not in phases:
            raise EngineError(
                "wrong_phase",
                f"{kind} is not accepted now: the game is in its {phase.replace('_', ' ')} phase",
                params={"event": kind, "phase": phase},
            )
        assert self.hand is not None
        return self.hand

    def _on_shuffle(self, event: dict[str, Any]) -> None:
        seat = _seat_of(event, self.n)
        if self.hand is not None:
            if self.hand.gift_from is not None:  # record-format.md: an owed gift comes before anything else
                raise EngineError(
                    "gift_required",
                    f"seat {self.hand.gift_from} must first give the Dragon trick to an opponent",
                    params={"seat": self.hand.gift_from},
                )
            raise EngineError(
                "wrong_phase",
                f"a hand is in progress ({self.phase.replace('_', ' ')} phase): it must end before the next shuffle",
                params={"rule": "hand_in_progress", "phase": self.phase},
            )
        if (
            self.options.get("shuffler", "first_out") == "first_out"
            and self.next_shuffler is not None
            and seat != self.next_shuffler
        ):
            raise EngineError(
                "not_your_turn",
                f"seat {self.next_shuffler} shuffles this hand ({self.variant.shuffler_rule}), not seat {seat}",
                params={
                    "seat": seat,
                    "expected_seat": self.next_shuffler,
                    "rule": "shuffle",
                    "shuffler_rule": self.variant.name,
                },
            )
        v = self.variant
        v.check_shuffler(self.n, seat)
        # a previous hand's whole finishing order ranks the players (Grand Seigneur seats by it)
        ranks = tuple(self.history[-1]["out"]) if self.history and len(self.history[-1]["out"]) == self.n else ()
        order, teams = v.layout(self.n, seat, ranks, self.options)
        deck = v.deck(self.options)
        sizes = v.hand_sizes(self.n, seat, order, len(deck))
        hand = Hand(len(self.history) + 1, seat, order, teams, sizes, deck)
        hand.options, hand.ranks = self.options, ranks
        self.hand = hand

    def _expected_drawer(self, h: Hand) -> int:
        order = h.order
        start = order.index(h.shuffler) if h.last_drawer is None else order.index(h.last_drawer) + 1
        for k in range(len(order)):
            s = order[(start + k) % len(order)]
            if h.received[s] < h.sizes[s]:
                return s
        return -1

    def _on_draw(self, event: dict[str, Any]) -> None:
        h = self.hand
        if h is None or h.dealt or self.over:
            h = self._require_hand("draw", DEAL)
        seat = event.get("seat")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            seat = _seat_of(event, self.n)
        card = event.get("card")
        if not isinstance(card, str):
            raise EngineError("malformed", "draw: 'card' must be a card code", params={"rule": "draw_card"})
        if card not in CARD_INFO:
            raise EngineError(
                "unknown_card", f"{card!r} is not a card code", params={"rule": "not_card_code", "code": repr(card)}
            )
        expected = self._expected_drawer(h)
        if seat != expected:
            raise EngineError(
                "draw_out_of_order",
                f"seat {expected} draws next, not seat {seat}",
                params={"seat": seat, "expected_seat": expected},
            )
        if h.pile.get(card, 0) <= 0:  # a card not in this deck (say the Dog without option dog) too
            raise EngineError(
                "deal_invalid",
                f"{card} is not in the pile: it has already been taken",
                params={"rule": "taken", "card": card},
            )
        h.pile[card] -= 1
        h.cards[seat].append(card)
        h.received[seat] += 1
        h.last_drawer = seat
        self._after_deal(h)

    def _on_deal(self, event: dict[str, Any]) -> None:
        h = self.hand
        if h is None or h.dealt or self.over:  # the deal phase is exactly: a hand, not dealt, not over
            h = self._require_hand("deal", DEAL)
        seat = event.get("seat")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            seat = _seat_of(event, self.n)
        cards = _card_list(event)
        if h.received[seat] + len(cards) > h.sizes[seat]:
            raise EngineError(
                "deal_invalid",
                f"seat {seat} receives {h.sizes[seat]} cards in all; it has {h.received[seat]} and cannot take {len(cards)} more",
                params={
                    "rule": "too_many",
                    "seat": seat,
                    "size": h.sizes[seat],
                    "received": h.received[seat],
                    "given": len(cards),
                },
            )
        pile = h.pile
        if len(set(cards)) == len(cards):  # the usual case: no card twice (the same list as below)
            # each card's count in the pile, at C speed; the cards missing only when one is
            # (a card not in this deck counts 0)
            missing = [c for c in cards if pile.get(c, 0) < 1] if min(map(pile.get, cards, _ZEROS)) < 1 else []
        else:
            missing = [c for c, k in Counter(cards).items() if pile.get(c, 0) < k]
        if missing:
            raise EngineError(
                "deal_invalid",
                f"{describe(missing)} not in the pile: already dealt",
                params={"rule": "dealt", "cards": missing},
            )
        for c in cards:
            pile[c] -= 1
        h.cards[seat].extend(cards)
        h.received[seat] += len(cards)
        h.last_drawer = seat
        self._after_deal(h)

    def _after_deal(self, h: Hand) -> None:
        assert h.last_drawer is not None  # a card was just drawn or dealt
        if h.received[h.last_drawer] == h.sizes[h.last_drawer] and h.received == h.sizes:
            h.dealt = True
            if self._pushers_count(h) == 0:
                self._start_play(h)

    def _caller(self, kind: str, event: dict[str, Any]) -> tuple[Hand, int]:
        """The hand and seat of a call, once the checks common to both calls pass."""
        h = self._require_hand(kind, DEAL, EXCHANGE, PLAY, DRAGON_GIFT)
        seat = _seat_of(event, self.n)
        if not self.variant.has_calls:
            raise EngineError(
                "not_in_variant",
                f"there are no calls in {self.variant.name}",
                params={"rule": "no_calls", "variant": self.variant.name},
            )
        if seat in h.calls:
            raise EngineError(
                "already_called",
                f"seat {seat} has already called {h.calls[seat].replace('_', ' ')} this hand",
                params={"seat": seat, "call": h.calls[seat]},
            )
        if h.gift_from is not None and self.variant.hand_over(h):
            raise EngineError(
                "call_too_late",
                "the hand is over: only the gift of its last Dragon trick remains",
                params={"rule": "hand_over"},
            )
        return h, seat

    def _on_grand_tichu(self, event: dict[str, Any]) -> None:
        h, seat = self._caller("grand_tichu", event)
        limit = self.variant.grand_tichu_limit(h, seat)
        if limit is None:
            if not self.options.get("grand_tichu", True):
                raise EngineError(
                    "not_in_variant",
                    "there is no Grand Tichu in this game (option grand_tichu)",
                    params={"rule": "no_grand_tichu", "option": "grand_tichu"},
                )
            raise EngineError(
                "not_in_variant",
                f"seat {seat} may not call Grand Tichu in {self.variant.name}",
                params={"rule": "grand_tichu_seat", "seat": seat, "variant": self.variant.name},
            )
        if h.received[seat] > limit:
            raise EngineError(
                "call_too_late",
                f"Grand Tichu is called before the {limit + 1}th card; seat {seat} has {h.received[seat]}",
                params={"rule": "grand_tichu", "seat": seat, "limit": limit, "received": h.received[seat]},
            )
        h.calls[seat] = "grand_tichu"

    def _on_tichu(self, event: dict[str, Any]) -> None:
        h, seat = self._caller("tichu", event)
        if not self.variant.may_call(h, seat):
            raise EngineError(
                "not_in_variant",
                f"seat {seat} may not call Tichu in {self.variant.name}",
                params={"rule": "tichu_seat", "seat": seat, "variant": self.variant.name},
            )
        if seat in h.played:
            raise EngineError(
                "call_too_late",
                f"Tichu is called before one's first card; seat {seat} has played",
                params={"rule": "tichu_played", "seat": seat},
            )
        # record-format.md: legal until the seat plays its first card, during the draw too.
        h.calls[seat] = "tichu"

    # --- the exchange ------------------------------------------------------------------------

    def _on_push(self, event: dict[str, Any]) -> None:
        h = self._require_hand("push", EXCHANGE)
        seat = _seat_of(event, self.n)
        if seat in h.pushes:
            raise EngineError(
                "push_invalid", f"seat {seat} has already pushed its cards", params={"rule": "pushed", "seat": seat}
            )
        targets = self.variant.push_targets(h, seat)
        raw = event.get("cards")
        if not isinstance(raw, dict):
            raise EngineError(
                "malformed", "push: 'cards' must be an object from target seat to card", params={"rule": "push_cards"}
            )
        given: dict[int, list[str]] = {}
        for key, value in raw.items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit()):
                raise EngineError(
                    "push_invalid",
                    f"push: target {key!r} is not a seat number",
                    params={"rule": "push_target", "target": repr(key)},
                )
            if value.__class__ is str and value in CARD_INFO:  # the usual gift, one card: what the checks below pass
                given[int(key)] = [value]
                continue
            cards = [value] if isinstance(value, str) else value
            if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
                raise EngineError(
                    "malformed",
                    f"push: the cards for seat {key} must be a card code or a list of them",
                    params={"rule": "push_gift", "target": key},
                )
            for c in cards:
                if c not in CARD_INFO:
                    raise EngineError(
                        "unknown_card", f"{c!r} is not a card code", params={"rule": "not_card_code", "code": repr(c)}
                    )
            given[int(key)] = list(cards)
        if not targets:
            raise EngineError(
                "push_invalid", f"seat {seat} gives no cards at this exchange", params={"rule": "no_push", "seat": seat}
            )
        if set(given) != set(targets):
            raise EngineError(
                "push_invalid",
                f"seat {seat} pushes to seats {', '.join(map(str, targets))}, not to {', '.join(map(str, sorted(given))) or 'nobody'}",
                params={
                    "rule": "push_targets" if given else "push_targets_none",
                    "seat": seat,
                    "targets": ", ".join(map(str, targets)),
                    "given": ", ".join(map(str, sorted(given))),
                },
            )
        counts = self.variant.push_counts(h, seat)
        for t, cards in given.items():
            if len(cards) != counts[t]:
                raise EngineError(
                    "push_invalid",
                    f"seat {seat} gives exactly {counts[t]} card{'s' if counts[t] > 1 else ''} to seat {t}, not {len(cards)}",
                    params={
                        "rule": "push_count" if counts[t] > 1 else "push_count_one",
                        "seat": seat,
                        "to": t,
                        "expected": counts[t],
                        "given": len(cards),
                    },
                )
        all_cards = [c for cards in given.values() for c in cards]
        if not _holds(h.cards[seat], all_cards):
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe(all_cards)}",
                params={"seat": seat, "cards": all_cards},
            )
        self.variant.check_push(h, seat, given)
        self._pushed(h, seat, given, all_cards)

    def _pushed(self, h: Hand, seat: int, given: dict[int, list[str]], all_cards: list[str]) -> None:
        """A push that every check let through: the cards leave the seat's hand, and once every
        pusher has given, each target takes its gifts and the play begins."""
        _remove(h.cards[seat], all_cards)
        h.pushes[seat] = given
        if len(h.pushes) == self._pushers_count(h):
            for _pusher, gifts in sorted(h.pushes.items()):
                for target, cards in gifts.items():
                    h.cards[target].extend(cards)
            self._start_play(h)

    def _quick_push(self, event: dict[str, Any]) -> None:
        """The usual push, accepted at once: in the exchange, a seat in range that has not pushed,
        one card to each of its targets (a variant that gives one card each and checks nothing more:
        all but Grand Seigneur's tribute), each target written as the seat number's plain text, the
        cards distinct and held. Each test is one of :meth:`_on_push`'s checks passed (the field
        check's too: an int seat, an object of strings), so the state after it is ``_on_push``'s;
        anything else goes the whole way (:meth:`_checked`), which gives every refusal."""
        h = self.hand
        seat = event.get("seat")
        raw = event.get("cards")
        v = self.variant
        if (
            h is not None
            and seat.__class__ is int
            and raw.__class__ is dict
            and h.dealt
            and h.turn is None
            and h.gift_from is None
            and not self.over
            and h.pushers is not None
            and len(h.pushes) < h.pushers  # with the three tests before: the exchange phase
            and 0 <= seat < self.n
            and seat not in h.pushes
            and v.__class__.push_counts is Variant.push_counts  # one card to each target
            and v.__class__.check_push is Variant.check_push
        ):
            targets = v.push_targets(h, seat)
            given: dict[int, list[str]] | None = {}
            for key, card in raw.items():
                target = _TARGET_OF_KEY.get(key)
                if target is None or card.__class__ is not str or card not in CARD_INFO:
                    given = None
                    break
                given[target] = [card]  # type: ignore[index]
            if given is not None and targets and set(given) == set(targets):
                all_cards = [*raw.values()]
                distinct = set(all_cards)
                if len(distinct) == len(all_cards) and distinct.issubset(h.cards[seat]):
                    self._pushed(h, seat, given, all_cards)
                    return
        self._checked("push", event)

    def _start_play(self, h: Hand) -> None:
        h.turn = self.variant.first_leader(h)

    # --- play --------------------------------------------------------------------------------

    def _on_play(self, event: dict[str, Any]) -> None:
        """A play, checked step by step before anything changes: the cards and what they can be
        read as, the call on the table this beats (or the bomb played out of turn), the wish,
        the Dog's lead; then the cards go on the table and the turn moves on."""
        h = self._hand_in_play("play")
        seat = event.get("seat")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            seat = _seat_of(event, self.n)
        cards = _card_list(event)
        wish = event.get("wish")
        if wish is not None:
            wish = _rank_field(event, "wish")
        stand_in = event.get("phoenix")
        if stand_in is not None:
            stand_in = _rank_field(event, "phoenix")
        to = event.get("to")
        if to is not None:
            to = _seat_of(event, self.n, "to")
        options = self._play_readings(h, seat, cards, stand_in)
        self._check_wish_named(cards, wish)
        in_turn = h.gift_from is None and seat == h.turn
        top_entry = h.top
        top = top_entry[1] if top_entry else None
        leading = in_turn and (top is None or h.closed)
        combo = self._played_combination(h, cards, options, top, in_turn, leading)
        self._check_wish_fulfilled(h, seat, cards, combo, top, in_turn, leading)
        dog_target = self.variant.dog_lead(h, seat, to) if combo.kind == DOG_LEAD else None
        if combo.kind != DOG_LEAD and to is not None:
            raise EngineError("malformed", "play: 'to' goes only with the Dog", params={"rule": "to_without_dog"})
        # --- every check passed: change the state ---
        self._put_on_table(h, seat, cards, combo, wish, in_turn, leading)
        self._after_play(h, seat, combo, dog_target)

    def _quick_play(self, event: dict[str, Any]) -> None:
        """The usual play, accepted at once: in turn, no field but its seat and cards, no wish
        named, no Mahjong, Dog or lone Phoenix, cards held once each, one reading, led or beating
        the top, and a wish standing fulfilled or not binding (:meth:`_wish_lets_through`). Each
        of these tests is one of :meth:`_on_play`'s checks passed (the field check's too: an int
        seat, a list of card codes), so the state after it is ``_on_play``'s. Anything else goes
        the whole way (:meth:`_checked`), which gives every refusal;
        tests/engine/test_quick_handlers.py folds games both ways."""
        h = self.hand
        seat = event.get("seat")
        cards = event.get("cards")
        if (
            h is not None
            and seat == h.turn
            and seat.__class__ is int
            and cards.__class__ is list
            and len(event) == 3  # type, seat and cards: no wish, phoenix or to
            and h.gift_from is None
            and h.dealt
            and not self.over
        ):
            try:
                distinct: set[str] | None = set(cards)
            except TypeError:  # an unhashable element
                distinct = None
            if (
                distinct is not None
                and _CODES.issuperset(distinct)
                and MAHJONG not in distinct
                and len(distinct) == len(cards)
                and distinct.issubset(h.cards[seat])
            ):
                options = readings_of(tuple(cards), self.rules)
                if len(options) == 1:
                    combo = options[0]
                    if combo.kind != DOG_LEAD and (len(cards) > 1 or cards[0] != PHOENIX):
                        top = h.trick[-1][1] if h.trick else None
                        leading = top is None or h.closed
                        if (leading or beats(combo, top, self.rules)) and (
                            h.wish is None or self._wish_lets_through(h, seat, cards, None if leading else top)
                        ):
                            self._put_on_table(h, seat, cards, combo, None, True, leading)
                            self._after_play(h, seat, combo, None)
                            return
        self._checked("play", event)

    def _wish_lets_through(self, h: Hand, seat: int, cards: list[str] | None, top: Combination | None) -> bool:
        """For the quick ways, while a wish stands: whether the seat to act may play ``cards``
        (``None``: pass) on ``top`` (``None``: leading) as far as the wish goes. True when the
        cards fulfil it, the seat is exempt, or it cannot fulfil it (:meth:`_can_fulfil_wish`,
        as :meth:`_check_wish_fulfilled` and :meth:`_on_pass` ask); False sends the event the
        whole way, which refuses it (or accepts a bomb played before its turn). Lawful records
        fold many events under a standing wish, and the whole way costs them several calls more."""
        assert h.wish is not None
        if cards is not None and contains_rank(cards, h.wish):
            return True
        return self.variant.wish_exempt(h, seat) or not self._can_fulfil_wish(h, seat, top)

    def _play_readings(self, h: Hand, seat: int, cards: list[str], stand_in: int | None) -> list[Combination]:
        """What the seat's cards can be read as (the Phoenix as the play names it)."""
        if not h.cards[seat]:
            raise EngineError(
                "not_your_turn", f"seat {seat} is out and holds no cards", params={"seat": seat, "rule": "out"}
            )
        if not _holds(h.cards[seat], cards):
            missing = list((Counter(cards) - Counter(h.cards[seat])).elements())
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe(missing)}",
                params={"seat": seat, "cards": missing},
            )
        options = readings(cards, self.rules)
        if not options:
            raise EngineError(
                "invalid_combination", f"{describe(cards)} is not a combination", params={"cards": list(cards)}
            )
        if stand_in is not None:
            if PHOENIX not in cards or len(cards) == 1:
                raise EngineError(
                    "invalid_combination",
                    f"'phoenix' reads the Phoenix in a combination; {describe(cards)} has none to read",
                    params={"rule": "no_phoenix", "cards": list(cards)},
                )
            options = [c for c in options if c.phoenix == stand_in]
            if not options:
                raise EngineError(
                    "invalid_combination",
                    f"the Phoenix cannot stand for {rank_code(stand_in)} in {describe(cards)}",
                    params={"rule": "phoenix_rank", "phoenix": rank_code(stand_in), "cards": list(cards)},
                )
        return options

    def _check_wish_named(self, cards: list[str], wish: int | None) -> None:
        """A wish goes with the Mahjong only, and must go with it under option wish_required."""
        v = self.variant
        if wish is not None:
            if not v.has_wish:
                raise EngineError(
                    "not_in_variant", f"there is no wish in {v.label}", params={"rule": "no_wish", "variant": v.name}
                )
            if MAHJONG not in cards:
                raise EngineError(
                    "invalid_combination",
                    "a wish is made only with the Mahjong",
                    params={"rule": "wish_without_mahjong"},
                )
        elif MAHJONG in cards and self.options.get("wish_required") and v.has_wish:
            raise EngineError(
                "invalid_combination",
                "the Mahjong's player must name a wish (option wish_required)",
                params={"rule": "wish_required", "option": "wish_required"},
            )

    def _played_combination(
        self,
        h: Hand,
        cards: list[str],
        options: list[Combination],
        top: Combination | None,
        in_turn: bool,
        leading: bool,
    ) -> Combination:
        """The reading that goes on the table: a bomb out of turn that beats the top, the highest
        reading of a lead, or the highest reading that beats the top."""
        if not in_turn:
            combo = self._bomb_out_of_turn(h, cards, options, top)
        elif leading:
            combo = on_table(max(options, key=lambda c: c.rank), None)
        else:
            assert top is not None
            legal = [c for c in (on_table(c, top) for c in options) if beats(c, top, self.rules)]
            if not legal:
                if options[0].kind == DOG_LEAD:
                    raise EngineError(
                        "does_not_beat",
                        "the Dog can only be led, never played on a combination",
                        params={"rule": "dog"},
                    )
                raise EngineError(
                    "does_not_beat",
                    f"{describe(cards)} does not beat {top.describe()}",
                    params={"cards": list(cards), "top": list(top.cards)},
                )
            combo = max(legal, key=lambda c: c.rank)
        if combo.kind == DOG_LEAD and not leading:
            raise EngineError("does_not_beat", "the Dog can only be led", params={"rule": "dog"})
        return combo

    def _bomb_out_of_turn(
        self, h: Hand, cards: list[str], options: list[Combination], top: Combination | None
    ) -> Combination:
        bombs = [c for c in options if c.is_bomb]
        if not bombs:
            if h.gift_from is not None:
                raise EngineError(
                    "gift_required",
                    f"seat {h.gift_from} must first give the Dragon trick to an opponent",
                    params={"seat": h.gift_from},
                )
            raise EngineError(
                "not_your_turn",
                f"seat {h.turn} is to play; out of turn only a bomb may be played, and {describe(cards)} is not one",
                params={"expected_seat": h.turn, "cards": list(cards), "rule": "out_of_turn"},
            )
        if h.gift_from is not None and self.variant.hand_over(h):
            raise EngineError(
                "bomb_not_allowed",
                "the hand is over: its last trick is ended at once and only the Dragon gift remains",
                params={"rule": "hand_over"},
            )
        if top is None:
            raise EngineError(
                "bomb_not_allowed",
                f"a bomb out of turn is played on a combination on the table; nothing lies there now (seat {h.turn} leads)",
                params={"expected_seat": h.turn, "rule": "nothing_to_bomb"},
            )
        combo = bombs[0]
        if not beats(combo, top, self.rules):
            raise EngineError(
                "does_not_beat",
                f"{combo.describe()} does not beat {top.describe()}",
                params={"cards": list(cards), "top": list(top.cards)},
            )
        return combo

    def _check_wish_fulfilled(
        self,
        h: Hand,
        seat: int,
        cards: list[str],
        combo: Combination,
        top: Combination | None,
        in_turn: bool,
        leading: bool,
    ) -> None:
        """The wish binds the seat to act when it can fulfil it. A bomb on the table's combination by
        the seat to act may have been played "before its turn" (001 FAQ, the K-bomb example): like
        any bomb out of turn it need not fulfil the wish. Leading, or playing anything else, the
        wish binds."""
        bomb_before_turn = in_turn and not leading and combo.is_bomb
        if in_turn and not bomb_before_turn and h.wish is not None and not self.variant.wish_exempt(h, seat):
            if not contains_rank(cards, h.wish) and self._can_fulfil_wish(h, seat, None if leading else top):
                raise EngineError(
                    "wish_not_fulfilled",
                    f"seat {seat} holds a {rank_code(h.wish)} and can play it: the wish must be fulfilled ({describe(cards)} has no {rank_code(h.wish)})",
                    params={"seat": seat, "wish": rank_code(h.wish), "cards": list(cards)},
                )

    def _put_on_table(
        self, h: Hand, seat: int, cards: list[str], combo: Combination, wish: int | None, in_turn: bool, leading: bool
    ) -> None:
        """The cards leave the hand for the trick (a closed trick is collected first), the trick
        log and the wish follow."""
        if leading and h.closed:
            self._collect(h, h.trick[-1][0])
        if not in_turn and h.gift_from is not None:
            h.gift_from = None  # the Dragon was bombed: it did not win the trick
        h.closed = False
        hand_cards = h.cards[seat]
        for c in cards:  # _remove's loop, inline: every play takes this way
            hand_cards.remove(c)
        h.played.add(seat)
        h.trick.append((seat, combo))
        entry: dict[str, Any] = {"seat": seat, "cards": list(cards), "combination": combo.kind}
        if combo.phoenix is not None:
            entry["phoenix"] = rank_code(combo.phoenix)
        if wish is not None:
            entry["wish"] = rank_code(wish)
        if not in_turn:
            entry["out_of_turn"] = True
        h.log.append(entry)
        if h.wish is not None and contains_rank(cards, h.wish):
            h.wish = None
        if wish is not None:
            h.wish = wish
        if h.passed and not self.options.get("pass_is_final"):  # a new empty set only when it held passes
            h.passed = set()
        if not hand_cards:
            h.out.append(seat)

    def _after_play(self, h: Hand, seat: int, combo: Combination, dog_target: int | None) -> None:
        """Who acts next: the Dog's lead, the end of the hand (the last Dragon trick still to be
        given away), or the next holder in order of play (the trick closes when it comes back)."""
        v = self.variant
        if combo.kind == DOG_LEAD:
            self._collect(h, seat)
            assert dog_target is not None
            h.turn = h.next_holder(dog_target, include_self=True)
            if v.hand_over(h):
                self._finish_hand(h)
            return
        # A play is accepted only while the hand is not over, and it takes cards from this seat
        # alone: while the seat still holds cards, who holds cards and who is out are as before.
        if not h.cards[seat] and v.hand_over(h):
            swept = v.sweep(h) is not None
            if (
                not swept
                and combo.cards == (DRAGON,)
                and v.has_dragon_gift
                and not self.options.get("keep_last_dragon_trick")
            ):
                h.closed, h.turn, h.gift_from = True, None, seat  # the last trick is still given away
                return
            if not swept:
                self._collect(h, seat)
            self._finish_hand(h)
            return
        if self.options.get("pass_is_final"):
            h.turn = h.next_holder(seat, skip=h.passed)
        else:  # next_holder(seat) inline (h.after[seat] ends with the seat itself): one call less per play
            cards = h.cards
            for s in h.after[seat]:
                if cards[s]:
                    h.turn = s
                    break
            else:
                h.turn = seat
        if h.turn == seat:
            self._close_trick(h)

    def _can_fulfil_wish(self, h: Hand, seat: int, top: Combination | None) -> bool:
        """Whether the seat holds the wished rank and could lawfully play it now."""
        assert h.wish is not None
        if not contains_rank(h.cards[seat], h.wish):
            return False
        if top is None:
            return True
        return can_play_rank(h.cards[seat], top, self.rules, h.wish)

    def _on_pass(self, event: dict[str, Any]) -> None:
        h = self._hand_in_play("pass")
        seat = event.get("seat")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            seat = _seat_of(event, self.n)
        if h.gift_from is not None:
            raise EngineError(
                "gift_required",
                f"seat {h.gift_from} must first give the Dragon trick to an opponent",
                params={"seat": h.gift_from},
            )
        if seat != h.turn:
            raise EngineError(
                "not_your_turn",
                f"seat {h.turn} is to play, not seat {seat}",
                params={"seat": seat, "expected_seat": h.turn},
            )
        top_entry = h.top
        if top_entry is None or h.closed:
            raise EngineError(
                "wrong_phase",
                f"seat {seat} leads the trick and cannot pass",
                params={"seat": seat, "rule": "lead_pass"},
            )
        if (
            h.wish is not None
            and not self.variant.wish_exempt(h, seat)
            and self._can_fulfil_wish(h, seat, top_entry[1])
        ):
            raise EngineError(
                "wish_not_fulfilled",
                f"seat {seat} holds a {rank_code(h.wish)} and can play it on {top_entry[1].describe()}: it may not pass",
                params={"seat": seat, "wish": rank_code(h.wish), "rule": "pass", "top": list(top_entry[1].cards)},
            )
        self._pass_accepted(h, seat, top_entry[0])

    def _quick_pass(self, event: dict[str, Any]) -> None:
        """The usual pass, accepted at once: in turn, on a trick still open, no gift owed, a wish
        standing not binding (:meth:`_wish_lets_through`). Each test is one of :meth:`_on_pass`'s
        checks passed (the field check's too: an int seat); anything else goes the whole way
        (:meth:`_checked`), which gives every refusal."""
        h = self.hand
        seat = event.get("seat")
        if (
            h is not None
            and seat == h.turn
            and seat.__class__ is int
            and h.gift_from is None
            and h.trick
            and not h.closed
            and h.dealt
            and not self.over
            and (h.wish is None or self._wish_lets_through(h, seat, None, h.trick[-1][1]))
        ):
            self._pass_accepted(h, seat, h.trick[-1][0])
            return
        self._checked("pass", event)

    def _pass_accepted(self, h: Hand, seat: int, owner: int) -> None:
        """A pass that every check let through: the trick goes on, or closes."""
        passed = h.passed
        passed.add(seat)
        h.log.append({"seat": seat, "pass": True})
        cards = h.cards
        # One walk in order of play after the passer (h.after[seat]: every seat, the passer last)
        # answers both questions: whether someone still has to answer the trick, and who holds
        # cards first after the passer (next_holder(seat), whom the turn goes to). One call less
        # per pass: most events of a record are passes.
        first = None
        for s in h.after[seat]:
            if cards[s]:
                if first is None:
                    first = s
                if s != owner and s not in passed:  # someone still to answer the trick
                    h.turn = h.next_holder(seat, skip=passed) if self.options.get("pass_is_final") else first
                    return
        self._close_trick(h)

    def _close_trick(self, h: Hand) -> None:
        """Every other player has passed: the trick is won. It stays on the table (a bomb may still
        take it) until the next lead, or until its Dragon is given away."""
        owner, combo = h.trick[-1]
        h.closed = True
        if combo.cards == (DRAGON,) and self.variant.has_dragon_gift:
            h.turn, h.gift_from = None, owner
        else:
            h.turn = h.next_holder(owner, include_self=True)

    def _collect(self, h: Hand, winner: int) -> None:
        for _, combo in h.trick:
            h.won[winner].extend(combo.cards)
        h.trick = []
        h.log = []
        h.passed = set()
        h.closed = False

    def _on_dragon_gift(self, event: dict[str, Any]) -> None:
        h = self._require_hand("dragon_gift", PLAY, DRAGON_GIFT)
        seat = _seat_of(event, self.n)
        to = _seat_of(event, self.n, "to")
        if h.gift_from is None:
            raise EngineError("gift_invalid", "there is no Dragon trick to give away now", params={"rule": "no_gift"})
        if seat != h.gift_from:
            raise EngineError(
                "not_your_turn",
                f"seat {h.gift_from} won the trick with the Dragon and gives it, not seat {seat}",
                params={"seat": seat, "expected_seat": h.gift_from, "rule": "gift"},
            )
        if not self.variant.is_opponent(h, seat, to):
            raise EngineError(
                "gift_invalid",
                f"the Dragon trick goes to an opponent; seat {to} is not an opponent of seat {seat}",
                params={"seat": seat, "to": to, "rule": "not_opponent"},
            )
        if not h.cards[to] and not self.options.get("dragon_gift_to_out", True):
            raise EngineError(
                "gift_invalid",
                f"seat {to} is out; the Dragon trick goes to an opponent still playing (option dragon_gift_to_out)",
                params={"rule": "to_out", "to": to, "option": "dragon_gift_to_out"},
            )
        h.gift_from = None
        self._collect(h, to)
        if self.variant.hand_over(h):
            self._finish_hand(h)
            return
        h.turn = h.next_holder(seat, include_self=True)

    def _on_penalty(self, event: dict[str, Any]) -> None:
        h = self._require_hand("penalty", PLAY, DRAGON_GIFT)
        seat = _seat_of(event, self.n)
        reason = event.get("reason")
        if not isinstance(reason, str) or not reason:
            raise EngineError(
                "malformed",
                "penalty: 'reason' must name the breach, e.g. 'missed_wish'",
                params={"rule": "penalty_reason"},
            )
        # The penalty is the missed wish's (score_penalty), whatever the reason's wording: none for
        # a variant without a wish, nor for a seat that need not fulfil one (Threechu's dummy).
        if not self.variant.has_wish or self.variant.wish_exempt(h, seat):
            raise EngineError(
                "not_in_variant",
                f"seat {seat} need not fulfil a wish in {self.variant.name}, so no missed-wish penalty",
                params={"rule": "no_penalty", "seat": seat, "variant": self.variant.name},
            )
        line = self.variant.score_penalty(h, seat, self.options)
        line.update(kind="penalty", penalty={"seat": seat, "reason": reason})
        self._write_line(h, line)

    def _finish_hand(self, h: Hand) -> None:
        line = self.variant.score_hand(h, self.options)
        line["kind"] = "cards"
        self._write_line(h, line)

    def _write_line(self, h: Hand | None, line: dict[str, Any]) -> None:
        if h is not None:
            line["calls"] = {str(s): c for s, c in sorted(h.calls.items())}
            line["shuffler"] = h.shuffler
        self.history.append(line)
        for i, p in enumerate(line["points"]):
            self.totals[i] += p
        self.hand = None
        self.next_shuffler = self.variant.next_shuffler(line, self.options)
        self.over, self.winner = self.variant.game_result(self.totals, len(self.history), self.options)

    def _on_hand_result(self, event: dict[str, Any]) -> None:
        if self.hand is not None:
            raise EngineError(
                "wrong_phase",
                f"a hand is in progress ({self.phase.replace('_', ' ')} phase): a hand result replaces a whole hand",
                params={"rule": "result_in_hand", "phase": self.phase},
            )
        calls_raw = event.get("calls", {})
        out = event.get("out")
        if not isinstance(calls_raw, dict):
            raise EngineError(
                "malformed",
                "hand_result: 'calls' must be an object from seat to 'tichu' or 'grand_tichu'",
                params={"rule": "result_calls"},
            )
        calls: dict[int, str] = {}
        for key, call in calls_raw.items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < self.n):
                raise EngineError(
                    "result_invalid",
                    f"hand_result: {key!r} is not a seat",
                    params={"rule": "result_seat", "key": repr(key)},
                )
            if call not in ("tichu", "grand_tichu"):
                raise EngineError(
                    "result_invalid",
                    f"hand_result: seat {key} called {call!r}; a call is 'tichu' or 'grand_tichu'",
                    params={"rule": "result_call", "seat": int(key), "call": repr(call)},
                )
            calls[int(key)] = call
        if calls and not self.variant.has_calls:
            raise EngineError(
                "not_in_variant",
                f"there are no calls in {self.variant.name}",
                params={"rule": "no_calls", "variant": self.variant.name},
            )
        if not isinstance(out, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in out):
            raise EngineError(
                "malformed",
                "hand_result: 'out' must be a list of seats in finishing order",
                params={"rule": "result_out"},
            )
        if any(not 0 <= s < self.n for s in out) or len(set(out)) != len(out) or len(out) > self.n:
            raise EngineError(
                "result_invalid",
                f"hand_result: 'out' {out} must list distinct seats from 0 to {self.n - 1}",
                params={"rule": "result_out_seats", "out": str(out), "last": self.n - 1},
            )
        line = self.variant.result_line(self.n, event, calls, out, self.options)
        # a score-sheet line obeys the call rules of a hand played card by card (Threechu: neither
        # the dealer nor the dummy may call Grand Tichu)
        probe = SimpleNamespace(shuffler=event.get("dealer"), options=self.options)
        for s, call in sorted(calls.items()):
            if call == "grand_tichu" and self.variant.grand_tichu_limit(probe, s) is None:  # type: ignore[arg-type]
                raise EngineError(
                    "not_in_variant",
                    f"seat {s} may not call Grand Tichu in {self.variant.name}",
                    params={"rule": "grand_tichu_seat", "seat": s, "variant": self.variant.name},
                )
            if call == "tichu" and not self.variant.may_call(probe, s):  # type: ignore[arg-type]
                raise EngineError(
                    "not_in_variant",
                    f"seat {s} may not call Tichu in {self.variant.name}",
                    params={"rule": "tichu_seat", "seat": s, "variant": self.variant.name},
                )
        line.update(kind="hand_result", calls={str(s): c for s, c in sorted(calls.items())})
        if "dealer" in event:
            line["shuffler"] = event["dealer"]
        self._write_line(None, line)


_HANDLERS: dict[str, Callable[[GameState, dict[str, Any]], None]] = {
    "shuffle": GameState._on_shuffle,
    "draw": GameState._on_draw,
    "deal": GameState._on_deal,
    "grand_tichu": GameState._on_grand_tichu,
    "tichu": GameState._on_tichu,
    "push": GameState._on_push,
    "play": GameState._on_play,
    "pass": GameState._on_pass,
    "dragon_gift": GameState._on_dragon_gift,
    "penalty": GameState._on_penalty,
    "hand_result": GameState._on_hand_result,
    "hand_corrected": on_hand_corrected,  # a finished hand's correction (corrections.py)
}
EVENT_TYPES = frozenset(_HANDLERS) | {"undo"}

__all__ = ["GameState", "Hand", "EVENT_TYPES"]
GameState._handlers = _HANDLERS
GameState._schemas = schema.FAMILY
GameState._starts = HAND_STARTS
GameState._after_end = AFTER_END
GameState._quick = {"play": GameState._quick_play, "pass": GameState._quick_pass, "push": GameState._quick_push}
GameState._build_dispatch()
