"""Storage for online tables: the table (its game, the hand's undealt cards), its seats.

Nothing here repeats the record: the hands, the trick, whose turn it is are folded from the
game's events (games.snapshots). A table holds only what the record cannot: the cards of the
hand in deal not given out yet (secret until dealt), the Grand Tichu decisions that let the deal
go on, and the seats' secrets.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Club, Game, Player


class OnlineTable(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="online_tables")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="online_table")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The second part of the hand's deal (`deal` events, engine.deal_events), held until every
    # seat that may call Grand Tichu has decided; empty when nothing waits.
    pending_deal = models.JSONField(default=list, blank=True)
    # The seats that decided not to call Grand Tichu on the hand whose first deal ended at
    # `decided_at_seq` (a call is an event of the record; a "no" is not).
    declined = models.JSONField(default=list, blank=True)
    decided_at_seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]


class OnlineSeat(models.Model):
    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # The seat's link: whoever opens /online/seat/<secret>/ plays this seat (like a table code;
    # 128 bits from `secrets`).
    secret = models.CharField(max_length=64, unique=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    # The engine's bot plays this seat (its policy's name, services.BOT_POLICIES), "" a person.
    # The record says so too (meta.bots: services.bot_marks), for every reader of the game.
    bot = models.CharField(max_length=20, blank=True, default="")
    # The member who took this seat over (games.online.replacement): their /me/ page lists it even
    # when the roster player it plays as is not linked to their account. Null: nobody took it.
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="online_seat_unique")]


class OnlineSettings(models.Model):
    """A club's settings of its online tables (a row only once the club has changed one; no row
    reads as the defaults). Carried by the club's archive with the club."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="online_settings")
    # The turn clock: seconds a seat has for each action, counted from the table's last stored
    # event; 0 is off (games.online.turn_clock: when it runs out, the engine's bot plays that one
    # action for the seat).
    turn_seconds = models.PositiveIntegerField(default=0)
    # Watching on a delay: a watcher sees the table as it stood this many events ago (the seats
    # see the present); 0 is live. Counted in events, not seconds: a position so many events back
    # is fixed by the record alone, needs no clock, and a slow table is not shown whole.
    watch_delay_events = models.PositiveIntegerField(default=0)
