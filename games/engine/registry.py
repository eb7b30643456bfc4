"""The games the engine plays, described for everything outside it: one entry per game.

Pages, the API, the importers and the ratings read a game's facts here (its name and label,
seat counts, teams, options with their kinds and plain-word help, the presets, the events that
start a hand, the cards, what the score-sheet form asks) instead of keeping their own copies or
looking into the engine's modules.

>>> game_info("threechu").label, game_info("threechu").seat_counts
('Threechu', (3,))
>>> sorted(HAND_START_EVENTS)
['hand_result', 'round_result', 'round_start', 'shuffle']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import tien_zi_que as tzq
from .cards import TICHU_DECK
from .errors import EngineError
from .faces import tzq_codes
from .options import PRESET_INFO, Option, Preset
from .state import GameState
from .variants import KNOWN_VARIANTS, Variant, get_variant


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


def _players_text(counts: tuple[int, ...], dummy: bool) -> str:
    text = f"{counts[0]} players" if len(counts) == 1 else f"{min(counts)} to {max(counts)} players"
    return text + (" and a dummy" if dummy else "")


def _family_info(v: Variant) -> GameInfo:
    n = v.seat_counts[0]
    dummy = v.seat_count(["x"] * n) > n
    per_team = v.teams(n, 0) == v.teams(n, None) and len(v.seat_counts) == 1 and not dummy
    teams = v.teams(n, None) if per_team else None
    points = type(v).result_line is Variant.result_line  # Grand Seigneur records the finishing order only
    return GameInfo(
        name=v.name,
        label=v.label,
        players_text=_players_text(v.seat_counts, dummy),
        seat_counts=v.seat_counts,
        teams=teams,
        team_size=len(teams[0]) if teams else 1,
        dummy_seat=n if dummy else None,
        fixed_seating=teams is not None,
        options=v.options,
        presets=PRESET_INFO,
        hand_starts=GameState._starts,
        hand_word="hand",
        has_calls=v.has_calls,
        has_wish=v.has_wish,
        sheet=SheetFacts(
            enabled=True, calls=v.has_calls, points=points, sweep=v.sweep_size if points else 0, dealer=dummy
        ),
        deck=TICHU_DECK,
    )


def _tzq_info() -> GameInfo:
    return GameInfo(
        name=tzq.NAME,
        label=tzq.VARIANT.label,
        players_text="2 players",
        seat_counts=(2,),
        teams=None,
        team_size=1,
        dummy_seat=None,
        fixed_seating=True,
        options=tzq.TZQ_OPTIONS,
        presets=PRESET_INFO,
        hand_starts=tzq.TienZiQueState._starts,
        hand_word="round",
        has_calls=False,
        has_wish=False,
        sheet=SheetFacts(enabled=True, calls=False, points=False, sweep=0, dealer=False),  # a round_result
        deck=tuple(tzq_codes()),
    )


#: Every game, in the order a page lists them.
GAMES: dict[str, GameInfo] = {
    name: (_tzq_info() if name == tzq.NAME else _family_info(get_variant(name))) for name in KNOWN_VARIANTS
}
GAME_NAMES: tuple[str, ...] = tuple(GAMES)
#: The events that start a hand or a round in any game: a replay or a cache keeps a snapshot
#: before each (each game's own list is its state class's, :attr:`GameInfo.hand_starts`).
HAND_START_EVENTS: frozenset[str] = frozenset().union(*(g.hand_starts for g in GAMES.values()))
PRESETS: tuple[Preset, ...] = PRESET_INFO


def games() -> tuple[GameInfo, ...]:
    return tuple(GAMES.values())


def game_info(name: object) -> GameInfo:
    """The game called ``name``; EngineError("malformed") for a name the engine does not know."""
    info = GAMES.get(name) if isinstance(name, str) else None
    if info is None:
        raise EngineError(
            "malformed",
            f"unknown variant {name!r}: expected one of {', '.join(GAME_NAMES)}",
            params={
                "variant": name,
                "expected": list(GAME_NAMES),
                "rule": "unknown_variant",
                "given": repr(name),
                "variants": ", ".join(GAME_NAMES),
            },
        )
    return info


def game_label(name: object) -> str:
    """The game's name in words, or the identifier itself for a game the engine does not know."""
    info = GAMES.get(name) if isinstance(name, str) else None
    return info.label if info else str(name)


# --- table positions -------------------------------------------------------------------------------

#: the compass going counter-clockwise from South (the seat drawn nearest the viewer)
_ROSE = ("South", "South-East", "East", "North-East", "North", "North-West", "West", "South-West")


def seat_positions(name: str, n: int, direction: str = "counter_clockwise") -> list[str | None]:
    """Each seat's place at the table in words, seat 0 at South and the next to play on its right
    (``counter_clockwise``, the books' direction) or on its left (``clockwise``); None for every
    seat when the game has no fixed places (Threechu's dummy sits opposite the dealer, Grand
    Seigneur's players move with their ranks) or the places would not be compass points."""
    info = game_info(name)
    if not info.fixed_seating or n <= 0 or 8 % n and n != 6:
        return [None] * n
    places: tuple[str, ...]
    if n == 6:
        places = ("South", "South-East", "North-East", "North", "North-West", "South-West")
    else:
        places = _ROSE[:: 8 // n]
    if direction == "clockwise":
        places = places[:1] + tuple(reversed(places[1:]))
    return list(places)


def seat_labels(name: str, players: list[str], direction: str = "counter_clockwise") -> list[str]:
    """``["South — Anna", "East — Ben", ...]``: a seat by its place and its player (the name alone
    where the game has no fixed places)."""
    places = seat_positions(name, len(players), direction)
    return [f"{place} — {player}" if place else player for place, player in zip(places, players)]


def sweep_team(name: str, out: Sequence[int]) -> int | None:
    """The team (an index into ``game_info(name).teams``) whose players went out first together and
    so ended the hand at once (Tichu's double victory, Tientsin's triple), or None; None too in a
    game without fixed teams. ``out``: the hand's finishing order, as in the score JSON.

    >>> sweep_team("nanking", [1, 3, 0, 2]), sweep_team("nanking", [2, 1, 0, 3])
    (1, None)
    """
    teams = game_info(name).teams
    if teams is None:
        return None
    team_of = {seat: t for t, seats in enumerate(teams) for seat in seats}
    if any(seat not in team_of for seat in out):
        return None
    return get_variant(name).sweep_of(list(out), [team_of[s] for s in sorted(team_of)])


def finishing_order_points(name: str, out: Sequence[int], seats: int) -> list[int]:
    """Each seat's points for a hand scored by its finishing order alone, as Grand Seigneur's
    ``scoring: ranks`` option scores it (first out n-1, ..., the Wretch 0); a seat not in ``out``
    scores 0. EngineError("malformed") for a game without that scoring.

    >>> finishing_order_points("grand-seigneur", [2, 0, 1], 3)
    [1, 0, 2]
    """
    variant = get_variant(name) if name in KNOWN_VARIANTS and name != tzq.NAME else None
    rank_points = getattr(variant, "_rank_points", None)
    if rank_points is None:
        raise EngineError(
            "malformed",
            f"{name!r} has no scoring by finishing order",
            params={"rule": "no_rank_scoring", "given": repr(name)},
        )
    return rank_points(list(out), seats, {"scoring": "ranks"})
