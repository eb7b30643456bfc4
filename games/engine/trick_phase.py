"""The end of a trick: passes, the trick closed and collected, the Dragon trick given away."""

from __future__ import annotations

from typing import Any

from .cards import DRAGON, rank_code
from .errors import EngineError
from .event_fields import seat_of
from .family_fold import FamilyFold
from .hand import DRAGON_GIFT, PLAY, Hand
from .interpreted import interpreted_class


@interpreted_class
class TrickPhase(FamilyFold):
    """The ``pass`` and ``dragon_gift`` events, and a trick closed and collected."""

    __slots__ = ()

    def _on_pass(self, event: dict[str, Any]) -> None:
        h = self._hand_in_play("pass")
        seat = event.get("seat")
        if seat.__class__ is not int or not 0 <= seat < self.n:
            seat = seat_of(event, self.n)
        self._pass(h, seat)

    def _pass(self, h: Hand, seat: int) -> None:
        """The rules of a pass once its seat is read: the one set of checks of both ways in
        (:meth:`_on_pass` and :meth:`_quick_pass`), then the trick goes on or closes."""
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
        top_entry = h.trick[-1] if h.trick else None  # h.top, inline: every pass asks
        if top_entry is None or h.closed:
            raise EngineError(
                "wrong_phase",
                f"seat {seat} leads the trick and cannot pass",
                params={"seat": seat, "rule": "lead_pass"},
            )
        if h.wish is not None and not self._wish_lets_through(h, seat, None, top_entry[1]):
            raise EngineError(
                "wish_not_fulfilled",
                f"seat {seat} holds a {rank_code(h.wish)} and can play it on {top_entry[1].describe()}: it may not pass",
                params={"seat": seat, "wish": rank_code(h.wish), "rule": "pass", "top": list(top_entry[1].cards)},
            )
        # --- every check passed: the trick goes on, or closes (one call less per pass: inline) ---
        owner = top_entry[0]
        passed = h.passed
        passed.add(seat)
        h.log.append(seat)  # a pass: its seat (Hand.trick_log writes the display's entry)
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

    def _quick_pass(self, event: dict[str, Any]) -> None:
        """The usual pass's way in: the seat to act (an int), the hand in play. These tests stand
        for what the field check and :meth:`_on_pass`'s reading of the seat would find; the rules
        are then :meth:`_pass`'s, the same checks as the whole way's. Anything else goes the whole
        way (:meth:`_checked`), which gives every refusal in its order."""
        h = self.hand
        seat = event.get("seat")
        if h is not None and seat == h.turn and seat.__class__ is int and h.dealt and not self.over:
            self._pass(h, seat)
            return
        self._checked("pass", event)

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
        seat = seat_of(event, self.n)
        to = seat_of(event, self.n, "to")
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
