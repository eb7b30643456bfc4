"""Another member takes a seat for the rest of the game.

A club member takes a seat nobody has opened yet or the bot plays (its player left); the table's
host (the member who opened it) may also take a seat whose player has simply gone quiet. The seat
gets a new secret link (the old one opens nothing more: whoever held it plays no longer), the
taker's roster player (and the taker, `taken_by`: their /me/ lists the seat), and is joined at
once. The record says who played it from which event on (`meta.seats_taken`, record_marks; a bot
that held the seat gets its mark's `to`); the record's `players` keep the name of who sat down
first, as a score sheet keeps its names. A member plays one seat of a table, not two.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import selectors
from games.models import Game, Player
from games.services import InvalidInput, WriteForbidden
from games.services.players import players_for_names

from .models import OnlineSeat, OnlineTable
from .record_marks import with_seat_taken
from .services import _advance, all_joined, new_secret, save_header


def may_take(seat: OnlineSeat, table: OnlineTable, user) -> bool:
    """Whether `user` (a member of the table's club) may take `seat` now: an empty seat or the
    bot's is any member's to take; a person's joined seat only the host's."""
    if seat.bot or seat.joined_at is None:
        return True
    return table.created_by_id is not None and table.created_by_id == getattr(user, "pk", None)


def roster_player(club, user) -> Player:
    """The member's player on the club's roster: the one linked to the account, else a roster
    entry named by the account's username (joining the roster as a new game's names do)."""
    own = Player.objects.filter(club=club, user=user).order_by("pk").first()
    return own or players_for_names(club=club, names=[user.get_username()])[0]


def take_seat(*, seat: OnlineSeat, user) -> OnlineSeat:
    """`user` plays `seat` from the next event on; the seat's new link is its `secret`."""
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update(of=("self",)).select_related("club").get(pk=seat.table_id)
        if selectors.membership_role(user, table.club) is None:
            raise WriteForbidden(_("taking a seat needs membership of club “%(club)s”") % {"club": table.club.slug})
        seat = OnlineSeat.objects.select_related("player").get(pk=seat.pk)
        game = Game.objects.select_for_update().get(pk=table.game_id)
        if game.status != Game.Status.ACTIVE:
            raise InvalidInput(_("the game is over"), code="game_over")
        if not may_take(seat, table, user):
            raise InvalidInput(
                _("this seat is played by its player: only the table's host may take it over"), code="seat_taken"
            )
        player = roster_player(table.club, user)
        if OnlineSeat.objects.filter(table=table, player=player, bot="").exclude(pk=seat.pk).exists():
            raise InvalidInput(_("you already play a seat of this table"), code="already_seated")
        seat.player, seat.bot, seat.secret, seat.taken_by = player, "", new_secret(), user
        seat.joined_at = timezone.now()
        seat.save(update_fields=["player", "bot", "secret", "taken_by", "joined_at"])
        save_header(game, with_seat_taken(game.header, seat.seat, game.seq, player.name))
        if all_joined(table):
            _advance(table)  # the last empty seat taken: the table deals
    return seat
