"""What a table's phone reads once its game is over (issue 33, item 1): the result with its VP,
and where the table's players sit in the next round, or that the tournament has finished, so that
the table card leads on from one round to the next without a rescan.

Reads only: the VP are the tournament core's (games.tournament.rounds_json), the seats are
games.tournaments.seating's."""

from __future__ import annotations

from typing import Any

from games import tournament as core
from games.models import Player
from games.tournaments import seating, selectors
from games.tournaments.models import TableGame
from games.tournaments.round_clock import ClockView, clock_view


def table_of_game(game_id: int) -> TableGame | None:
    """The tournament table a game is played at (with its tournament), or None."""
    return TableGame.objects.select_related("tournament").filter(game_id=game_id).first()


def round_clock(link: TableGame) -> ClockView | None:
    """The clock of the round the table's game belongs to, while it runs (round_clock.clock_view)."""
    return clock_view(selectors.state_at(link.tournament), link.round)


def player_names(state: core.TournamentState) -> dict[int, str]:
    ids = {p for entry in state.entries.values() for p in entry.players}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))


def table_vp(state: core.TournamentState, round_number: int, table: int) -> list | None:
    """The table's VP (side 0, side 1) as the standings count them, or None without a result."""
    for rnd in core.rounds_json(state)["rounds"]:
        if rnd["round"] == round_number:
            row = next((t for t in rnd["tables"] if t["table"] == table), None)
            return row["result"]["vp"] if row and row.get("result") else None
    return None


def lead_on(link: TableGame) -> dict[str, Any]:
    """After a table's game: its VP, whether the tournament has finished, and once the next round
    is published (its games made), where each of the table's players sits in it."""
    tournament = link.tournament
    state = selectors.state_at(tournament)
    rnd = selectors.round_of(state, link.round)
    table = rnd.tables.get(link.table) if rnd is not None else None
    after = {
        "round": link.round,
        "table": link.table,
        "vp": table_vp(state, link.round, link.table),
        "finished": bool(state.finished),
        "next_round": link.round + 1,
        # the tournament's last planned round: no "round N+1 is not published yet" to wait for
        "last_round": state.planned_rounds is not None and link.round >= state.planned_rounds,
        "published": False,
        "seats": [],
    }
    if table is None or state.finished:
        return after
    nxt = selectors.round_of(state, link.round + 1)
    if nxt is None or not selectors.table_games(tournament, link.round + 1):
        return after
    here = set(seating.table_seats(state, table.sides))
    after["published"] = True
    after["seats"] = [
        row for row in seating.seat_list(state, link.round + 1, player_names(state)) if row["player"] in here
    ]
    return after
