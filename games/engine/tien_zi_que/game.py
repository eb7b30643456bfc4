"""Tien Zi Que as a game of the engine's one interface (games/engine/game.py): its declared facts
and the answers of its own fold (:class:`~.state.TienZiQueState`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game import GameInfo, SheetFacts
from ..options import PRESET_INFO
from ..schema import TIEN_ZI_QUE, Schema
from . import faces
from .bot import bot_moves, random_deck, random_tzq_record
from .cards import NAME, is_card
from .options import TZQ_OPTIONS
from .refusals import TZQ_REFUSAL_WORDS
from .round_result import sheet_facts
from .state import TienZiQueState
from .table import ROUND_STARTS, VARIANT

INFO = GameInfo(
    name=NAME,
    label=VARIANT.label,
    players_text="2 players",
    seat_counts=(2,),
    teams=None,
    team_size=1,
    dummy_seat=None,
    fixed_seating=True,
    options=TZQ_OPTIONS,
    presets=PRESET_INFO,
    hand_starts=ROUND_STARTS,
    hand_word="round",
    has_calls=False,
    has_wish=False,
    sheet=SheetFacts(enabled=True, calls=False, points=False, sweep=0, dealer=False),  # a round_result
    deck=faces.DECK,
    target=None,  # the game ends when the players' rounds are played
    board="rounds",
    chance_events=(("round_start", ("hands", "stock")), ("reshuffle", ("stock",))),
    online=True,  # at an online table: its deal and reshuffle are chance_events (online.py)
    hand_spread=3.0,  # a round's points (random bots: 2.9)
)


class TienZiQueGame:
    info: GameInfo = INFO
    schema: Schema = TIEN_ZI_QUE
    #: no typed words: the codes are typed exactly (``Dr`` is its red Dragon, not the Tichu Dragon)
    card_words: Mapping[str, str] = {}

    def __repr__(self) -> str:
        return f"<Game {NAME}>"

    def new_state(self, options: dict[str, Any] | None, players: list[str]) -> TienZiQueState:
        return TienZiQueState(options, players)

    def seat_names(self, players: Sequence[str], lang: str | None = None) -> list[str]:
        return list(players)

    def hands_seen(self, seat: int, shuffler: int | None) -> frozenset[int]:
        return frozenset((seat,))

    def random_record(
        self, seed: int, options: dict[str, Any] | None, players: list[str] | None, **kwargs: Any
    ) -> dict[str, Any]:
        return random_tzq_record(seed, options=options, players=players)

    def bot_moves(
        self, state: TienZiQueState, bots: frozenset[int] | set[int], rng: Any, limit: int = 1000
    ) -> list[dict[str, Any]]:
        """The bots' events from ``state`` on (``engine.bot_moves``, an online table's bot seats)."""
        return bot_moves(state, bots, rng, limit)

    def table_options(self, options: dict[str, Any] | None, rng: Any) -> dict[str, Any] | None:
        """The options of a game the site deals itself (``engine.table_options``): without an
        edition's colours (``deck``), colours chosen by ``rng`` (``random_deck``), so that the first
        round can be dealt and the record carries its deck."""
        if options is not None and not isinstance(options, dict):
            return options  # the game's own check refuses it (malformed)
        opts = dict(options or {})
        if opts.get("deck") is None:
            opts["deck"] = random_deck(rng)
        return opts

    def state_json(self, state: TienZiQueState) -> dict[str, Any]:
        return state.state_json()

    def score_json(self, state: TienZiQueState) -> dict[str, Any]:
        return state.score_json()

    def legal_actions(self, state: TienZiQueState, include_pushes: bool = True) -> list[dict[str, Any]]:
        return state.legal_actions()

    def bombs_out_of_turn(self, state: TienZiQueState) -> dict[int, list[dict[str, Any]]]:
        return {}  # no bombs, nothing out of turn

    def deal_facts(self, state: TienZiQueState, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        return None  # the deal is one round_start event

    def push_facts(self, state: TienZiQueState) -> dict[str, dict[str, int]] | None:
        return None  # no exchange

    def entry_extra(self, state: TienZiQueState) -> dict[str, Any]:
        return {"round_sheet": sheet_facts(state)}  # what a round's score line may say now

    def card_code(self, word: str) -> str | None:
        return word if is_card(word) else None

    def own_card_face(self, code: str) -> dict[str, str] | None:
        return faces.card_face(code)

    def own_card_term(self, code: str) -> tuple[str, dict[str, Any], str | None] | None:
        if not is_card(code):
            return None
        return "tzq_card", {"tzq_face": code[:-1], "tzq_colour": code[-1]}, f"tzq_face_short:{code[:-1]}"

    def terms(self) -> dict[str, str]:
        return faces.terms()

    def refusal_words(self) -> dict[str, str]:
        return TZQ_REFUSAL_WORDS  # each under its code and a ``tzq_`` rule

    def sweep_of(self, out: list[int], team_of: list[int]) -> int | None:
        return None  # each plays for themselves

    def finishing_order_points(self, out: list[int], seats: int) -> list[int] | None:
        return None  # rounds score their piles, not an order


GAME = TienZiQueGame()
