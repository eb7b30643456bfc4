"""The fold: a game's state, and how each event changes it.

:class:`GameState` is mutable for speed, but every ``apply`` checks the whole event before it
changes anything: a refused event raises :class:`EngineError` and leaves the state as it was.
Rules that differ between games are asked of the :class:`~.variants.Variant`; this module holds
none of them as numbers.
"""

from __future__ import annotations

from typing import Any, Callable

from . import schema
from .corrections import AFTER_END, on_hand_corrected
from .deal_phase import DealPhase
from .exchange_phase import ExchangePhase
from .hand import BETWEEN_HANDS, DEAL, DRAGON_GIFT, EXCHANGE, GAME_OVER, HAND_STARTS, PLAY, Hand
from .hand_end import HandEnd
from .interpreted import interpreted_class
from .options import resolve
from .play_phase import PlayPhase
from .trick_phase import TrickPhase
from .variants import Variant, get_variant


@interpreted_class
class GameState(DealPhase, ExchangePhase, PlayPhase, TrickPhase, HandEnd):
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

__all__ = [
    "GameState",
    "Hand",
    "EVENT_TYPES",
    "BETWEEN_HANDS",
    "DEAL",
    "EXCHANGE",
    "PLAY",
    "DRAGON_GIFT",
    "GAME_OVER",
    "HAND_STARTS",
]
GameState._handlers = _HANDLERS
GameState._schemas = schema.FAMILY
GameState._starts = HAND_STARTS
GameState._after_end = AFTER_END
GameState._quick = {"play": GameState._quick_play, "pass": GameState._quick_pass, "push": GameState._quick_push}
GameState._build_dispatch()
