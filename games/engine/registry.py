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

from .errors import EngineError
from .family_game import FAMILY_GAMES
from .game import Game, GameInfo, SheetFacts, find_game, game_for, register, registered
from .options import PRESET_INFO, Preset
from .tien_zi_que.game import GAME as TIEN_ZI_QUE_GAME

#: The games the engine plays, registered in the order a page lists them: a new game is a
#: package implementing game.Game, added here (docs/architecture.md "Where a new game goes").
BUILT_IN: tuple[Game, ...] = (*FAMILY_GAMES, TIEN_ZI_QUE_GAME)
for _game in BUILT_IN:
    register(_game)

#: Every game, in the order a page lists them.
GAMES: dict[str, GameInfo] = {game.info.name: game.info for game in registered()}
GAME_NAMES: tuple[str, ...] = tuple(GAMES)
#: The events that start a hand or a round in any game: a replay or a cache keeps a snapshot
#: before each (each game's own list is its state class's, :attr:`GameInfo.hand_starts`).
HAND_START_EVENTS: frozenset[str] = frozenset().union(*(g.hand_starts for g in GAMES.values()))
PRESETS: tuple[Preset, ...] = PRESET_INFO

__all__ = [
    "GAMES",
    "GAME_NAMES",
    "HAND_START_EVENTS",
    "PRESETS",
    "GameInfo",
    "SheetFacts",
    "game_info",
    "game_label",
    "games",
    "seat_positions",
    "seat_labels",
    "sweep_team",
    "finishing_order_points",
]


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
    return game_for(name).sweep_of(list(out), [team_of[s] for s in sorted(team_of)])


def finishing_order_points(name: str, out: Sequence[int], seats: int) -> list[int]:
    """Each seat's points for a hand scored by its finishing order alone, as Grand Seigneur's
    ``scoring: ranks`` option scores it (first out n-1, ..., the Wretch 0); a seat not in ``out``
    scores 0. EngineError("malformed") for a game without that scoring.

    >>> finishing_order_points("grand-seigneur", [2, 0, 1], 3)
    [1, 0, 2]
    """
    game = find_game(name)
    points = game.finishing_order_points(list(out), seats) if game else None
    if points is None:
        raise EngineError(
            "malformed",
            f"{name!r} has no scoring by finishing order",
            params={"rule": "no_rank_scoring", "given": repr(name)},
        )
    return points
