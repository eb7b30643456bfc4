"""The one interface every game implements, and the register of the games that implement it.

A game (the Tichu family's four variants, Tien Zi Que) is a :class:`Game`: an object that declares
the facts other layers need (:class:`GameInfo`: seats, sides, the target, the events that start a
hand, what a result line holds, the options) and answers for its own states (a new state, its JSON,
its legal actions, its card faces and typed words, whose hands a seat sees). The engine's generic
modules (``record``, ``legal``, ``entry``, ``faces``, ``wording``, ``visibility``, ``bot``) ask the
game of a variant or of a state here and never test a game's name or state class; a new game is a
package that implements :class:`Game` and calls :func:`register` (docs/architecture.md).

This module imports no game: the games import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .errors import EngineError
from .options import Option, Preset
from .schema import Schema


@dataclass(frozen=True)
class SheetFacts:
    """What the score-sheet form of the entry page asks in a game: whether a hand can be recorded
    from the sheet at all (``enabled``), the calls, the card points, how many of one team going
    out first end the hand at once (``sweep``, 0: never), and whether the dealer is named."""

    enabled: bool
    calls: bool
    points: bool
    sweep: int
    dealer: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled,
            "calls": self.calls,
            "points": self.points,
            "sweep": self.sweep,
            "dealer": self.dealer,
        }


@dataclass(frozen=True)
class GameInfo:
    name: str  # the record's ``variant``
    label: str  # the game's name in words: "Tichu", "Threechu", ...
    players_text: str  # "4 players", "3 players and a dummy", ...
    seat_counts: tuple[int, ...]
    #: fixed partnerships, seats by team; None when each plays for themselves or the teams change
    #: from hand to hand (Threechu's dealer plays with the dummy)
    teams: tuple[tuple[int, ...], ...] | None
    team_size: int  # players per side
    dummy_seat: int | None  # a seat without a player of its own (Threechu)
    #: seats keep their place at the table for the whole game (compass positions make sense)
    fixed_seating: bool
    options: tuple[Option, ...]
    presets: tuple[Preset, ...]
    hand_starts: frozenset[str]  # the events that start a hand (a round in Tien Zi Que)
    hand_word: str  # "hand" or "round"
    has_calls: bool
    has_wish: bool
    sheet: SheetFacts
    deck: tuple[str, ...]  # every card code of the game
    #: the points that end a game under the default options (option ``target_score``), or None
    #: where the game ends otherwise (Tien Zi Que: the players' rounds)
    target: int | None = None
    #: the table a page draws and the entry it offers: ``tricks`` (the Tichu family's trick-taking
    #: table, entered event by event or from the score sheet) or ``rounds`` (Tien Zi Que's
    #: draw-and-discard table, entered on its own page or by a round's score line)
    board: str = "tricks"
    #: the events of chance whose cards the site puts in order (any order of exactly those cards is
    #: legal; the engine has no randomness): their type and the fields that hold the cards. An
    #: online table (games/engine/online.py) shuffles them; the Tichu family's deal has its own
    #: path there (the Grand Tichu decisions cut it in two), so it declares none.
    chance_events: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the engine's online table serves it (online.py: the site deals the cards, each seat is
    #: asked for its own actions, the engine's bot plays the seats given to it)
    online: bool = False
    #: a hand can be scored by its finishing order alone (Grand Seigneur's ``scoring: ranks``:
    #: :func:`~.registry.finishing_order_points`)
    rank_scoring: bool = False
    #: the spread (standard deviation) of one hand's score difference between two sides, as the
    #: engine's random bots play the game: the ratings' hand spread (docs/ratings.md)
    hand_spread: float = 200.0
    #: the options that end a game after a number of hands and at a target score (None: the game
    #: has no such option): what a tournament sets for a round of its tables
    hands_option: str | None = None
    target_option: str | None = None

    @property
    def full_label(self) -> str:
        """``Tichu (4 players)``."""
        return f"{self.label} ({self.players_text})"

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def preset(self, name: str) -> Preset:
        for p in self.presets:
            if p.name == name:
                return p
        raise KeyError(name)


class GameName(Protocol):
    """What every state's ``variant`` names: the record's variant and the game's name in words."""

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str: ...


class PlayState(Protocol):
    """What every game's fold state offers (``GameState``, ``TienZiQueState``)."""

    n: int
    players: list[str]
    options: dict[str, Any]
    history: list[dict[str, Any]]
    over: bool
    winner: int | None
    events_applied: int
    _starts: ClassVar[frozenset[str]]  # the events that start a hand (a round)

    @property
    def variant(self) -> GameName: ...  # its ``name`` is the record's variant, its ``label`` the game's name

    @property
    def is_over(self) -> bool: ...

    @property
    def phase(self) -> str: ...

    @property
    def turn(self) -> int | None: ...

    def apply(self, event: dict[str, Any]) -> None: ...

    def apply_each(self, events: Iterable[dict[str, Any]], start: int) -> None: ...

    def copy(self) -> "PlayState": ...


class Game(Protocol):
    """A game the engine plays: its declared facts and the answers only it can give."""

    @property
    def info(self) -> GameInfo: ...

    @property
    def schema(self) -> Schema: ...  # the fields of each of its event types (schema.py)

    #: lower-cased typed word -> card code (the entry page's words; empty: codes are typed exactly)
    @property
    def card_words(self) -> Mapping[str, str]: ...

    def new_state(self, options: dict[str, Any] | None, players: list[str]) -> PlayState: ...

    def seat_names(self, players: Sequence[str], lang: str | None = None) -> list[str]: ...

    def hands_seen(self, seat: int, shuffler: int | None) -> frozenset[int]:
        """The seats whose hands the player at ``seat`` sees while a hand shuffled by ``shuffler``
        is in play (its own; Threechu's dealer the dummy's too)."""
        ...

    def random_record(
        self, seed: int, options: dict[str, Any] | None, players: list[str] | None, **kwargs: Any
    ) -> dict[str, Any]: ...

    def state_json(self, state: Any) -> dict[str, Any]: ...

    def score_json(self, state: Any) -> dict[str, Any]: ...

    def legal_actions(self, state: Any, include_pushes: bool = True) -> list[dict[str, Any]]: ...

    def bombs_out_of_turn(self, state: Any) -> dict[int, list[dict[str, Any]]]: ...

    def deal_facts(self, state: Any, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        """During a deal card by card: the cards left, who still receives how many (else None)."""
        ...

    def push_facts(self, state: Any) -> dict[str, dict[str, int]] | None:
        """During an exchange: who still pushes how many cards to whom (else None)."""
        ...

    def entry_extra(self, state: Any) -> dict[str, Any]:
        """What an entry form shows beyond every game's facts (Tien Zi Que's ``round_sheet``)."""
        ...

    def card_code(self, word: str) -> str | None:
        """The card a typed word names in this game, or None."""
        ...

    def own_card_face(self, code: str) -> dict[str, str] | None:
        """What one of the game's own cards (beyond the Tichu deck) shows, or None."""
        ...

    def own_card_term(self, code: str) -> tuple[str, dict[str, Any], str | None] | None:
        """One of the game's own cards in words: (its name's term, the slots, the term of its
        short face or None), or None for a card not its own."""
        ...

    def terms(self) -> dict[str, str]:
        """The game's own words (English), added to the engine's ``TERMS``."""
        ...

    def refusal_words(self) -> dict[str, str]:
        """The game's own refusals in words, keyed ``<code>:<rule>``, added to ``REFUSAL_WORDS``."""
        ...

    def sweep_of(self, out: list[int], team_of: list[int]) -> int | None:
        """The team whose players went out first together and so ended the hand at once, or None."""
        ...

    def finishing_order_points(self, out: list[int], seats: int) -> list[int] | None:
        """Each seat's points for a hand scored by its finishing order alone, or None where the
        game has no such scoring."""
        ...


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make a game known to the engine under its ``info.name`` (in the order pages list them)."""
    _GAMES[game.info.name] = game
    return game


def registered() -> tuple[Game, ...]:
    return tuple(_GAMES.values())


def unknown_variant(name: object) -> EngineError:
    """The refusal of a variant the engine does not know (a record's, a new game's)."""
    names = ", ".join(_GAMES)
    return EngineError(
        "malformed",
        f"unknown variant {name!r}: expected one of {names}",
        params={"rule": "unknown_variant", "given": repr(name), "variants": names},
    )


def game_for(name: object) -> Game:
    """The game called ``name``; EngineError("malformed") for a name the engine does not know."""
    game = find_game(name)
    if game is None:
        raise unknown_variant(name)
    return game


def find_game(name: object) -> Game | None:
    """The game called ``name``, or None."""
    return _GAMES.get(name) if isinstance(name, str) else None


def own_card(code: str) -> tuple[Game, dict[str, str]] | None:
    """The game whose own cards (beyond the Tichu deck) hold ``code``, and what it shows."""
    for game in _GAMES.values():
        face = game.own_card_face(code)
        if face is not None:
            return game, face
    return None


def game_of(state: Any) -> Game:
    """The game a fold state belongs to (by its variant's name)."""
    return _GAMES[state.variant.name]
