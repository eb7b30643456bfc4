"""The fold of a Tien Zi Que game: :class:`TienZiQueState`, one handler per event type.

The shuffles are done by whoever writes the record (a scorer, or the seeded bot) and recorded as
events: ``round_start`` carries the deal and the order of the stock, ``reshuffle`` the new stock
order. Every event is checked fully before anything changes: a refused event raises
:class:`EngineError` and leaves the state as it was.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from .. import schema
from ..errors import EngineError
from ..event_fold import EventFold
from ..options import resolve
from . import views
from .cards import HAND_SIZE, PILE_SIZE, card_name, deck_faults, describe, is_joker, sort_cards
from .combos import _combination_problem, combination_kind
from .fields import _card_of, _cards_of, _missing_and_extra, _rest_after, _seat_of, _without
from .options import TZQ_OPTIONS
from .round_result import result_line
from .scoring import score_pile
from .table import (
    ACTION,
    BETWEEN_ROUNDS,
    DRAWN,
    GAME_OVER,
    RESHUFFLE,
    ROUND_STARTS,
    TICHU_ONLY,
    VARIANT,
    Round,
)


class TienZiQueState(EventFold):
    """The state of a Tien Zi Que game after some events: the fold's accumulator.

    >>> g = TienZiQueState({}, ["Ann", "Bob"]); g.phase
    'between_rounds'
    """

    __slots__ = (
        "variant",
        "options",
        "players",
        "n",
        "deck",
        "totals",
        "history",
        "round",
        "over",
        "winner",
        "events_applied",
        "_checkpoints",
        "_since",
    )

    def __init__(self, options: dict[str, Any] | None, players: list[str]) -> None:
        if not isinstance(players, list) or len(players) != 2:
            count = len(players) if isinstance(players, list) else players
            raise EngineError(
                "malformed",
                f"Tien Zi Que is a game for exactly 2 players, not {count}",
                params={"rule": "tzq_players", "given": str(count)},
            )
        self.variant = VARIANT
        self.players = list(players)
        self.n = 2
        self.options = resolve(TZQ_OPTIONS, options)
        deck = self.options["deck"]
        if deck is not None:
            faults = deck_faults(deck)
            if faults:
                raise EngineError(
                    "malformed",
                    "option 'deck' is not a Tien Zi Que deck: " + "; ".join(text for text, _ in faults),
                    params={**faults[0][1], "rule": f"tzq_option_{faults[0][1]['rule']}", "option": "deck"},
                )
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
            return EngineError(
                "not_in_variant",
                f"{kind} is an event of the Tichu games, not of tien-zi-que "
                "(round_start, draw, discard, pung, chow, reshuffle, round_result, undo)",
                params={"rule": "tzq_tichu_event", "event": kind},
            )
        return EngineError(
            "malformed", f"unknown event type {kind!r}", params={"rule": "tzq_event_type", "value": repr(kind)}
        )

    def _game_over(self, kind: str) -> EngineError:
        return EngineError(
            "game_over",
            f"the game is over after {len(self.history)} rounds; {kind} is not accepted (an undo is)",
            params={"rule": "tzq_over", "rounds": len(self.history), "event": kind},
        )

    def _require(self, kind: str, *stages: str) -> Round:
        phase = self.phase
        if phase not in stages:
            if phase == BETWEEN_ROUNDS:
                why = "no round is in progress (a round_start comes first)"
            elif phase == DRAWN:
                why = f"seat {self.turn} has drawn and now discards a card or makes a Pung"
            elif phase == RESHUFFLE:
                why = (
                    f"seat {self.turn}'s hand is short after a combination and the stock is exhausted: "
                    "a reshuffle comes first"
                )
            else:
                why = f"seat {self.turn} is to draw or to make a Chow"
            raise EngineError(
                "wrong_phase",
                f"{kind} is not accepted now: {why}",
                params={"rule": f"tzq_{phase}", "event": kind, "expected_seat": self.turn},
            )
        assert self.round is not None
        return self.round

    def _to_act(self, event: dict[str, Any], kind: str, *stages: str) -> tuple[Round, int]:
        """The round and the seat of an action in one of ``stages``, refused (in this order) in
        another phase, for a seat that is not 0 or 1, for the seat not to act. The usual action
        passes all three in one test; anything else asks each check in turn for its refusal."""
        r = self.round
        seat = event.get("seat")
        if r is None or r.stage not in stages or seat.__class__ is not int or seat != r.active:
            r = self._require(kind, *stages)
            seat = _seat_of(event)
            self._check_turn(r, seat, kind)
        return r, seat

    def _check_turn(self, r: Round, seat: int, kind: str) -> None:
        if seat != r.active:
            raise EngineError(
                "not_your_turn",
                f"it is seat {r.active}'s turn, not seat {seat}'s ({kind})",
                params={"rule": "tzq_turn", "seat": seat, "expected_seat": r.active, "event": kind},
            )

    # --- round start -----------------------------------------------------------------------------

    def _on_round_start(self, event: dict[str, Any]) -> None:
        seat = _seat_of(event)
        if self.round is not None:
            raise EngineError(
                "wrong_phase",
                f"round {self.round.number} is in progress: it must end (by a Mah-jong, "
                "or a drawn round) before the next round_start",
                params={"rule": "tzq_round_on", "round": self.round.number},
            )
        hands = event.get("hands")
        if not isinstance(hands, list) or len(hands) != 2:
            raise EngineError(
                "malformed",
                "round_start: 'hands' must be a list of two hands (seat 0, then seat 1)",
                params={"rule": "tzq_hands"},
            )
        dealt = [_cards_of({"type": "round_start", "hands": h}, "hands") for h in hands]
        stock = _cards_of(event, "stock")
        for s, h in enumerate(dealt):
            if len(h) != HAND_SIZE:
                raise EngineError(
                    "deal_invalid",
                    f"each player is dealt {HAND_SIZE} cards; seat {s} gets {len(h)}",
                    params={"rule": "tzq_hand_size", "seat": s, "expected": HAND_SIZE, "given": len(h)},
                )
        self._check_starter(seat)
        cards = dealt[0] + dealt[1] + stock
        if self.deck is None:
            faults = deck_faults(cards)
            if faults:
                raise EngineError(
                    "deal_invalid",
                    "the hands and the stock must be the whole deck: " + "; ".join(text for text, _ in faults),
                    params={**faults[0][1], "rule": f"tzq_{faults[0][1]['rule']}"},
                )
        else:
            have = Counter(cards)
            # both hold positive counts only: a plain dict's equality is the Counters', at C speed
            if not dict.__eq__(have, self.deck):
                missing = sort_cards((self.deck - have).elements())
                extra = sort_cards((have - self.deck).elements())
                parts = []
                if missing:
                    parts.append(f"missing {describe(missing)}")
                if extra:
                    parts.append(f"not in the game's deck (or too many): {describe(extra)}")
                raise EngineError(
                    "deal_invalid",
                    "the hands and the stock must be the game's deck: " + "; ".join(parts),
                    params=_missing_and_extra("tzq_not_the_deck", missing, extra),
                )
        if self.deck is None:
            self.deck = Counter(cards)
        self.round = Round(len(self.history) + 1, seat, [list(h) for h in dealt], list(stock))

    def _check_starter(self, seat: int) -> None:
        """The starting player of the next round (a round_start, or a round_result)."""
        if self.next_starter is not None and seat != self.next_starter:
            raise EngineError(
                "not_your_turn",
                f"seat {self.next_starter} starts round {len(self.history) + 1}: "
                "the first player changes every round (option starts: alternate)",
                params={
                    "field": "seat",
                    "rule": "tzq_alternate",
                    "seat": seat,
                    "expected_seat": self.next_starter,
                    "round": len(self.history) + 1,
                },
            )
        if self._starts_left(seat) <= 0:
            raise EngineError(
                "not_your_turn",
                f"seat {seat} has already started {self.options['rounds'] // 2} rounds; "
                "each player starts half of them",
                params={"field": "seat", "rule": "tzq_half", "seat": seat, "starts": self.options["rounds"] // 2},
            )

    def _on_round_result(self, event: dict[str, Any]) -> None:
        """A whole round by its score line (round_result.py)."""
        seat = _seat_of(event)
        if self.round is not None:
            raise EngineError(
                "wrong_phase",
                f"round {self.round.number} is being played action by action: it must end (or be undone) "
                "before a round is recorded by its score line",
                params={"rule": "tzq_round_played", "round": self.round.number},
            )
        self._check_starter(seat)
        line = result_line(event, self.options, self.deck)
        self._write_line({"round": len(self.history) + 1, "starter": seat, **line})

    # --- the three actions -----------------------------------------------------------------------

    def _on_draw(self, event: dict[str, Any]) -> None:
        r, seat = self._to_act(event, "draw", ACTION)
        if not r.stock:
            raise EngineError(
                "wrong_phase",
                "the stock is exhausted: a reshuffle of the discard pile comes before the draw",
                params={"rule": "tzq_no_stock"},
            )
        if "card" in event and event["card"] != r.stock[0]:  # the top card named is a card code
            card = _card_of(event, "card")
            raise EngineError(
                "deal_invalid",
                f"the top card of the stock is {card_name(r.stock[0])}, not {card_name(card)}",
                params={"rule": "tzq_top_card", "expected": r.stock[0], "card": card},
            )
        card = r.stock.pop(0)
        r.hands[seat].append(card)
        r.drawn_card = card
        r.stage = DRAWN

    def _on_discard(self, event: dict[str, Any]) -> None:
        r, seat = self._to_act(event, "discard", DRAWN)
        card = event.get("card")
        if card not in r.hands[seat]:  # a card held is a card code: asked of any other only
            card = _card_of(event, "card")
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe([card])} to discard",
                params={"rule": "tzq_discard", "seat": seat, "card": card},
            )
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
            text, params = _combination_problem(cards)
            raise EngineError("invalid_combination", text, params=params)
        if keep not in cards:
            raise EngineError(
                "invalid_combination",
                f"the card kept on the score pile ({describe([keep])}) must be "
                f"one of the combination's cards: {describe(cards)}",
                params={"rule": "tzq_keep", "keep": keep, "cards": cards},
            )
        return cards, keep, kind

    def _on_pung(self, event: dict[str, Any]) -> None:
        r, seat = self._to_act(event, "pung", DRAWN)
        cards, keep, kind = self._parse_combination(event)
        rest = _rest_after(r.hands[seat], cards)
        if rest is None:
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe(cards)} for a Pung (hand: {describe(sort_cards(r.hands[seat]))})",
                params={"rule": "tzq_pung", "seat": seat, "cards": cards, "hand": sort_cards(r.hands[seat])},
            )
        self._check_mahjong(r, seat, keep, "pung")
        r.hands[seat] = rest
        self._combine(r, seat, cards, keep, kind, "pung", None)

    def _on_chow(self, event: dict[str, Any]) -> None:
        r, seat = self._to_act(event, "chow", ACTION)
        take = _card_of(event, "take")
        cards, keep, kind = self._parse_combination(event)
        if take not in cards:
            raise EngineError(
                "invalid_combination",
                f"a Chow's combination must hold the discarded card it takes ({describe([take])}): {describe(cards)}",
                params={"rule": "tzq_take_in", "take": take, "cards": cards},
            )
        if take not in r.chowable:
            if r.chowable:
                avail = f"only {describe(r.chowable)} may be taken"
            else:
                avail = "no discarded card may be taken now"
            raise EngineError(
                "invalid_combination",
                f"a Chow takes the last discarded card, or one of the two a "
                f"combination just discarded: {describe([take])} is not one ({avail})",
                params={
                    "rule": "tzq_take" if r.chowable else "tzq_take_none",
                    "take": take,
                    "available": list(r.chowable),
                },
            )
        if is_joker(take):
            raise EngineError(
                "invalid_combination",
                "a Tien Zi Que just discarded may not be used to make a combination",
                params={"rule": "tzq_take_joker", "take": take},
            )
        own = _without(cards, take)
        rest = _rest_after(r.hands[seat], own)
        if rest is None:
            raise EngineError(
                "card_not_in_hand",
                f"seat {seat} does not hold {describe(own)} for a Chow with "
                f"{card_name(take)} (hand: {describe(sort_cards(r.hands[seat]))})",
                params={
                    "rule": "tzq_chow",
                    "seat": seat,
                    "cards": own,
                    "take": take,
                    "hand": sort_cards(r.hands[seat]),
                },
            )
        self._check_mahjong(r, seat, keep, "chow")
        r.hands[seat] = rest
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
                raise EngineError(
                    "invalid_combination",
                    f"optional rule min_points: a Mah-jong needs at least {minimum} "
                    f"points from the five cards of the score pile; "
                    f"{describe(sort_cards(pile))} would score {points} "
                    "(a winning draw's point does not count)",
                    params={"rule": "tzq_min_points", "minimum": minimum, "cards": sort_cards(pile), "points": points},
                )

    def _combine(
        self, r: Round, seat: int, cards: list[str], keep: str, kind: str, action: str, take: str | None
    ) -> None:
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
        r, seat = self._to_act(event, "reshuffle", ACTION, RESHUFFLE)
        stock = _cards_of(event, "stock")
        if self.options["exhausted_stock_draws"]:
            raise EngineError(
                "wrong_phase",
                "option exhausted_stock_draws: the stock is never reshuffled",
                params={"rule": "tzq_never_reshuffled"},
            )
        if r.stage == ACTION:
            if r.stock:
                raise EngineError(
                    "wrong_phase",
                    f"the stock still holds {len(r.stock)} card(s): it is reshuffled only once exhausted",
                    params={"rule": "tzq_stock_left", "given": len(r.stock)},
                )
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
            raise EngineError(
                "deal_invalid",
                f"the new stock is {what}, in any order: " + "; ".join(parts),
                params={
                    **_missing_and_extra("tzq_new_stock" if kept else "tzq_new_stock_all", missing, extra),
                    "kept": kept,
                },
            )
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
        line: dict[str, Any] = {
            "round": r.number,
            "starter": r.starter,
            "points": [0, 0],
            "winner": winner,
            "out": [],
            "calls": {},
            "turns": r.turns + (1 if winner is not None else 0),
        }
        if winner is None:
            line.update(kind="drawn", drawn=True, score_pile=[], scoring=[], by=None)
        else:
            pile = list(r.piles[winner])
            points, lines = score_pile(pile, winning_draw=action == "pung")
            line["points"][winner] = points
            line.update(kind="mahjong", drawn=False, out=[winner], score_pile=pile, scoring=lines, by=action)
        line["combinations"] = [list(c) for c in r.combos]
        self._write_line(line)

    def _write_line(self, line: dict[str, Any]) -> None:
        """A finished round's line on the score sheet; the game ends after its last round."""
        self.history.append(line)
        for i, p in enumerate(line["points"]):
            self.totals[i] += p
        self.round = None
        if len(self.history) >= self.options["rounds"]:
            self.over = True
            a, b = self.totals
            self.winner = 0 if a > b else 1 if b > a else None

    # --- what may happen now, and the JSON (views.py) --------------------------------------------

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every event the rules accept now (:func:`.views.legal_actions`)."""
        return views.legal_actions(self)

    def state_json(self) -> dict[str, Any]:
        return views.state_json(self)

    def score_json(self) -> dict[str, Any]:
        return views.score_json(self)


_HANDLERS: dict[str, Callable[[TienZiQueState, dict[str, Any]], None]] = {
    "round_start": TienZiQueState._on_round_start,
    "draw": TienZiQueState._on_draw,
    "discard": TienZiQueState._on_discard,
    "pung": TienZiQueState._on_pung,
    "chow": TienZiQueState._on_chow,
    "reshuffle": TienZiQueState._on_reshuffle,
    "round_result": TienZiQueState._on_round_result,
}
EVENT_TYPES = frozenset(_HANDLERS) | {"undo"}


TienZiQueState._handlers = _HANDLERS
TienZiQueState._schemas = schema.TIEN_ZI_QUE
TienZiQueState._starts = ROUND_STARTS
TienZiQueState._build_dispatch()
