"""The base of the Tichu family's fold: the state's fields, its phase and turn, and the hand an
event needs; each phase's events are handled in a module of their own (``deal_phase``,
``exchange_phase``, ``play_phase``, ``trick_phase``, ``hand_end``), joined in :class:`~.state.GameState`.
"""

from __future__ import annotations

from typing import Any

from .combos import Combination
from .errors import EngineError
from .event_fold import EventFold
from .hand import BETWEEN_HANDS, DEAL, DRAGON_GIFT, EXCHANGE, GAME_OVER, PLAY, Hand
from .interpreted import interpreted_class
from .variants import Variant


@interpreted_class
class FamilyFold(EventFold):
    """What every phase of the fold reads: the state's fields (:class:`~.state.GameState` declares
    them in its ``__slots__``), its phase and turn, and the hand an event needs."""

    __slots__ = ()

    variant: Variant
    options: dict[str, Any]
    players: list[str]
    n: int
    rules: Any
    totals: list[int]
    hand: Hand | None
    next_shuffler: int | None

    # Each is defined by one phase's module, all joined in GameState, which comes before this class
    # in the order its methods are looked up in: these are never called.
    def _start_play(self, h: Hand) -> None:  # pragma: no cover
        raise NotImplementedError

    def _collect(self, h: Hand, winner: int) -> None:  # pragma: no cover
        raise NotImplementedError

    def _close_trick(self, h: Hand) -> None:  # pragma: no cover
        raise NotImplementedError

    def _finish_hand(self, h: Hand) -> None:  # pragma: no cover
        raise NotImplementedError

    def _wish_lets_through(
        self, h: Hand, seat: int, cards: list[str] | None, top: Combination | None
    ) -> bool:  # pragma: no cover
        raise NotImplementedError

    def _can_fulfil_wish(self, h: Hand, seat: int, top: Combination | None) -> bool:  # pragma: no cover
        raise NotImplementedError

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
