"""A tournament round played online (issue 34, item 6): each table's game is an online table for
its seated players.

The TD publishes a round online (`publish_round`): the round's games are made as for scored tables
(services.make_round_games: the same game, seats and, in a duplicate tournament, the first board),
and each game gets an online table (games/online) with a seat link per seated player. Nothing is
copied: the online table plays the table's own game, so the table's result is that game's record
folded (issue 31), sent, confirmed and counted in the standings as any table game's result is.

The deal: a duplicate table's hands are its round's boards (duplicate_boards), never the online
table's own shuffle; `BoardDeals` is the online table's deal source for those games
(games/online/tournament_deal.py, registered in TournamentsConfig.ready). The other systems'
tables shuffle online, each its own deal, as tables of cards do.

Who gets a seat's link: the TD (the round page), the table (its code's page) and each seated
player who is a club member (their /me/ page, `my_seats`). The table's page among the club's online
tables shows the links to the TD only, and a duplicate table is watched only by those who may read
its game (games.holds: its boards stay at its tables until the round is over).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games import holds, ids
from games import selectors as game_selectors
from games.models import Game
from games.online.models import OnlineSeat, OnlineTable
from games.online.services import new_secret
from games.services import InvalidInput
from games.tournaments import duplicate_boards, services
from games.tournaments.models import TableGame


def publish_round(*, tournament_id: int, round_number: int, user) -> list[OnlineTable]:
    """Every table of the round played online: its game (made now if it has none, its boards dealt
    by the online table) gets an online table with a seat link per seated player. A table already online keeps its table and links;
    a TD's act (services.make_round_games checks the scorer or admin role)."""
    with transaction.atomic():
        # the online table deals each board (its first eight cards before the Grand Tichu decisions)
        links = services.make_round_games(
            tournament_id=tournament_id, round_number=round_number, user=user, deal_first_board=False
        )
        tables = [_online_table(link, user) for link in links]
    return tables


def _online_table(link: TableGame, user) -> OnlineTable:
    game = Game.objects.select_related("club").get(pk=link.game_id)
    table = OnlineTable.objects.filter(game=game).first()
    if table is not None:
        return table
    if game.status != Game.Status.ACTIVE:
        raise InvalidInput(
            _("table %(table)s's game is over: it is not played online") % {"table": link.table}, code="game_over"
        )
    table = OnlineTable.objects.create(club=game.club, game=game, created_by=user)
    OnlineSeat.objects.bulk_create(
        OnlineSeat(table=table, seat=s.seat, player=s.player, secret=new_secret())
        for s in game.seats.select_related("player").order_by("seat")
    )
    return table


def round_tables(tournament, round_number: int) -> dict[int, OnlineTable]:
    """{table number: its online table} of the round's tables played online (newest games)."""
    links = TableGame.objects.filter(tournament=tournament, round=round_number).order_by("table", "id")
    newest = {link.table: link.game_id for link in links}
    by_game = {t.game_id: t for t in OnlineTable.objects.filter(game_id__in=newest.values())}
    return {number: by_game[game] for number, game in newest.items() if game in by_game}


def of_game(game_id: int) -> OnlineTable | None:
    """The online table that plays a tournament table's game, or None (scored at the table)."""
    if not ids.in_range(game_id) or not TableGame.objects.filter(game_id=game_id).exists():
        return None
    return OnlineTable.objects.filter(game_id=game_id).first()


def is_tournament_table(table: OnlineTable) -> bool:
    return TableGame.objects.filter(game_id=table.game_id).exists()


def may_hand_out(table: OnlineTable, user) -> bool:
    """Whether `user` may see every seat link of `table` on the club's online pages: any member
    for a club's own table; for a tournament's, the TD only (a player's link is theirs)."""
    if not is_tournament_table(table):
        return game_selectors.membership_role(user, table.club) is not None
    return game_selectors.can_write(user, table.club)


def may_watch(table: OnlineTable, user) -> bool:
    """A member watches a tournament's table only if they may read its game (games.holds: a
    duplicate board stays at its tables until every table has played it)."""
    game = Game.objects.select_related("club").get(pk=table.game_id)
    return not holds.game_held(game, user)


@dataclass(frozen=True)
class MySeat:
    """A signed-in player's seat at a tournament's online table (their /me/ page)."""

    tournament: str
    round: int
    table: int
    seat: int
    secret: str


def my_seats(user) -> list[MySeat]:
    """The seats of `user`'s roster players at tournament tables played online whose game is still
    on: the link is theirs to open without a table code."""
    if user is None or not user.is_authenticated:
        return []
    seats = (
        OnlineSeat.objects.filter(player__user=user, table__game__status=Game.Status.ACTIVE, bot="")
        .select_related("table")
        .order_by("-table__created_at", "seat")
    )
    found = {s.table.game_id: s for s in seats}
    links = TableGame.objects.filter(game_id__in=found).select_related("tournament")
    return [
        MySeat(link.tournament.name, link.round, link.table, found[link.game_id].seat, found[link.game_id].secret)
        for link in links.order_by("-round", "table")
    ]


class BoardDeals:
    """The online table's deal source for a duplicate tournament's tables: the next board, the
    same events a scored table's "deal" action appends (duplicate_boards.next_board_events)."""

    def next_hand(self, game: Game) -> tuple[list[dict], list[dict]] | None:
        meta = (game.header or {}).get("meta") if isinstance(game.header, dict) else None
        if not isinstance(meta, dict) or not meta.get("tournament"):
            return None  # not a table's game: no query
        link = TableGame.objects.filter(game_id=game.pk).select_related("tournament").first()
        if link is None or not duplicate_boards.is_duplicate(link.tournament):
            return None
        board = duplicate_boards.next_board_events(link.tournament, link, game)
        return board.now, board.later


BOARD_DEALS = BoardDeals()
