"""The end of a hand: its score line written (played out, a penalty, or from the score sheet)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from .errors import EngineError
from .event_fields import seat_of
from .family_fold import FamilyFold
from .hand import DRAGON_GIFT, PLAY, Hand
from .interpreted import interpreted_class


@interpreted_class
class HandEnd(FamilyFold):
    """The ``penalty`` and ``hand_result`` events, and a hand scored."""

    __slots__ = ()

    def _on_penalty(self, event: dict[str, Any]) -> None:
        h = self._require_hand("penalty", PLAY, DRAGON_GIFT)
        seat = seat_of(event, self.n)
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
            if call == "grand_tichu" and self.variant.grand_tichu_limit(probe, s) is None:
                raise EngineError(
                    "not_in_variant",
                    f"seat {s} may not call Grand Tichu in {self.variant.name}",
                    params={"rule": "grand_tichu_seat", "seat": s, "variant": self.variant.name},
                )
            if call == "tichu" and not self.variant.may_call(probe, s):
                raise EngineError(
                    "not_in_variant",
                    f"seat {s} may not call Tichu in {self.variant.name}",
                    params={"rule": "tichu_seat", "seat": s, "variant": self.variant.name},
                )
        line.update(kind="hand_result", calls={str(s): c for s, c in sorted(calls.items())})
        if "dealer" in event:
            line["shuffler"] = event["dealer"]
        self._write_line(None, line)
