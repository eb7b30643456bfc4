"""The game a tournament table plays, as the engine declares it (its public API: ``game_info``,
``sweep_team``): which seats each side holds, the options that set a round's length.

The core pairs sides of two players (two pairs, or two individuals partnered); a table's game
must seat them as fixed partnerships of two against two. The seats of a side are the engine's
(``GameInfo.teams``), never a parity or a seat count written here.
"""

from __future__ import annotations

from typing import Any, TypeVar

from games.engine import GAMES, GameInfo

from .errors import TournamentError

#: the game the core's tables play unless the tournament names another (the record's variant)
TABLE_GAME = "nanking"

T = TypeVar("T")


def table_info(variant: object) -> GameInfo:
    """The engine's facts of a table's game; ``result_invalid`` (rule ``not_tichu``) for a game the
    engine does not know or that is not played by two fixed sides of two players."""
    info = GAMES.get(variant) if isinstance(variant, str) else None
    if info is None or info.teams is None or [len(side) for side in info.teams] != [2, 2]:
        raise TournamentError(
            "result_invalid",
            f"a tournament table plays Tichu ({TABLE_GAME}), not {variant!r}",
            variant=variant,
            rule="not_tichu",
        )
    return info


def table_sides(variant: str = TABLE_GAME) -> tuple[tuple[int, ...], ...]:
    """The seats of each side at a table: side 0's, then side 1's (the engine's declared teams)."""
    teams = table_info(variant).teams
    assert teams is not None  # table_info refuses a game without fixed teams
    return teams


def seat_order(side_players: list[list[T]], variant: str = TABLE_GAME) -> list[T]:
    """The players of a table's two sides in the game's seat order: side s's k-th player sits at
    the k-th seat of that side."""
    sides = table_sides(variant)
    seats: dict[int, T] = {}
    for players, side_seats in zip(side_players, sides):
        for player, seat in zip(players, side_seats):
            seats[seat] = player
    return [seats[s] for s in sorted(seats)]


def partner_seat(seat: int, variant: str = TABLE_GAME) -> int:
    """The seat of ``seat``'s partner at a table."""
    side = next(side for side in table_sides(variant) if seat in side)
    return next(s for s in side if s != seat)


def length_options(hands: int | None, target: int | None, variant: str = TABLE_GAME) -> dict[str, Any]:
    """The game options that end a table's game after ``hands`` hands, else at ``target`` points
    (the options the engine declares for that: ``GameInfo.hands_option``, ``target_option``)."""
    info = table_info(variant)
    if hands is not None and info.hands_option is not None:
        return {info.hands_option: hands}
    if target is not None and info.target_option is not None:
        return {info.target_option: target}
    return {}
