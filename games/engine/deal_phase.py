"""The deal: a shuffle begins a hand; cards are drawn one by one or dealt in packets; the calls."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import CARD_INFO, describe
from .errors import EngineError
from .event_fields import card_list, seat_of
from .family_fold import FamilyFold
from .hand import DEAL, DRAGON_GIFT, EXCHANGE, PLAY, Hand
from .interpreted import interpreted_class


@interpreted_class
class DealPhase(FamilyFold):
    """The events of the deal: ``shuffle``, ``draw``, ``deal``, ``grand_tichu``, ``tichu``."""

    __slots__ = ()

    def _on_shuffle(self, event: dict[str, Any]) -> None:
        seat = seat_of(event, self.n)
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
            seat = seat_of(event, self.n)
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
            seat = seat_of(event, self.n)
        cards = card_list(event)
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
            # a count is never below 0, so a card is missing when its count is 0 (a card not in
            # this deck counts 0); compiled, a loop costs less than map() over a bound method
            missing = [c for c in cards if pile.get(c, 0) < 1]
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
        seat = seat_of(event, self.n)
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
