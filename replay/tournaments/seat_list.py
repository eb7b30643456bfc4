"""The seat list by player name (issue 33, item 4): each player's table and seat (North, East,
South, West) in a round, for the print page, the PDF and the projector. Who sits where is
games.tournaments.seating's (the order the tables' games are made with)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.tournaments import at_the_table, seating


def seat_word(letter: str | None) -> str:
    words = {
        "N": pgettext("place at the table", "North"),
        "E": pgettext("place at the table", "East"),
        "S": pgettext("place at the table", "South"),
        "W": pgettext("place at the table", "West"),
    }
    return words.get(letter or "", _("bye"))


def seat_rows(state, round_number: int) -> list[dict]:
    """[{"player" (roster id or name), "name", "table" (or "–" on a bye), "seat" (N/E/S/W or ""),
    "sits" (the seat in words), "partner"}], by name."""
    return [
        {
            "player": row["player"],
            "name": row["name"],
            "table": row["table"] or "–",
            "seat": row["seat"] or "",
            "sits": seat_word(row["seat"]),
            "partner": row["partner"] or "",
        }
        for row in seating.seat_list(state, round_number, at_the_table.player_names(state))
    ]
