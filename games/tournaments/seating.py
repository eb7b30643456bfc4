"""Who sits where: the seat order of a table's game and the evening's seat list by player.

A table's sides come from the pairing (games.tournament): side 0 plays North/South, side 1
East/West. Its game seats them North, East, South, West (seats 0-3): side 0's first player North,
side 1's first East, side 0's second South, side 1's second West. This module is the one home of
that order: the tables' games are made with it (services.make_round_games) and the seat list
(on a page, the projector and in print) reads it, so the two cannot disagree.
"""

from __future__ import annotations

from typing import Any

from games import tournament as core

#: a game's seats 0-3 as printed on a seat list (the letters are the same in every language of
#: the site: the bridge convention, as on a Bridgemate)
SEAT_LETTERS = ("N", "E", "S", "W")


def side_players(state: core.TournamentState, sides) -> list[list[int]]:
    """The players of each side: a pair's two players, or the two individuals partnered."""
    players = []
    for side in sides:
        ids: list = []
        for entry_id in side:
            ids.extend(state.entries[entry_id].players)
        players.append(ids)
    return players


def table_seats(state: core.TournamentState, sides) -> list[int]:
    """The player ids of a table's game in seat order (North, East, South, West)."""
    players = side_players(state, sides)
    return core.seat_order(players)  # the engine's declared sides: N/S side 0, E/W side 1


def seat_list(state: core.TournamentState, round_number: int, names: dict[int, str]) -> list[dict[str, Any]]:
    """Every seated player of a round, by name: {"player", "name", "table", "seat" (N/E/S/W), "partner"};
    players on a bye are listed with table None. `names`: player id -> name."""
    rnd = next((r for r in state.rounds if r.number == round_number), None)
    if rnd is None:
        return []
    rows = []
    for number, table in sorted(rnd.tables.items()):
        seats = table_seats(state, table.sides)
        for index, player in enumerate(seats):
            rows.append(
                {
                    "player": player,
                    "name": names.get(player, "?"),
                    "table": number,
                    "seat": SEAT_LETTERS[index],
                    "partner": names.get(seats[core.partner_seat(index)], "?"),
                }
            )
    for entry_id in rnd.byes:
        for player in state.entries[entry_id].players:
            rows.append(
                {"player": player, "name": names.get(player, "?"), "table": None, "seat": None, "partner": None}
            )
    return sorted(rows, key=lambda row: (row["name"].casefold(), row["table"] or 0))
