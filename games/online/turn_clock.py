"""The turn clock: a club's seconds per action at its online tables (OnlineSettings.turn_seconds,
0 off), and what happens when they run out.

The rule (docs/online.md, said on the seat's page before it happens): a seat the table waits for
has `turn_seconds` from the table's last stored event (its `recorded_at`); when they have run out,
the engine's bot plays that one action for the seat, with the bot's own policy (the table's
`BOT_POLICY`): its play or pass, its Dragon gift, its exchange; a Grand Tichu it has not decided is
a "no" (a bot calls none). The record marks the event as the bot's (`meta.bots` with `to` and
`why: "clock"`: record_marks). The seat stays its player's: the clock starts again from that event.
Bombs out of turn are nobody's turn and run no clock.

No process holds a timer: the clock is read from the stored events' times on the next request to
the table (any seat's poll or action, a watcher's poll; `enforce`), and a poll waits no longer than
the clock has left. Two requests that find the same turn run out both try: the first takes the
table's row lock and plays; the second, let in after it, finds the table moved on (a new last
event, its clock fresh) and plays nothing. A table nobody looks at waits, which harms nobody.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, selectors, snapshots
from games.models import Club, Event, Game, Membership
from games.services import InvalidInput, SeqConflict, WriteForbidden, append_events

from .models import OnlineSeat, OnlineSettings, OnlineTable
from .record_marks import with_clock_move
from .services import BOT_POLICY, TableDealer, _advance, all_joined, bot_seats, save_header, undecided

_bot_chance = secrets.SystemRandom()
#: the shortest and longest clock a club may set (seconds per action)
MIN_SECONDS, MAX_SECONDS = 10, 3600
#: the state's phase while the hand's exchange is made (engine.state_json's "phase")
_EXCHANGE = "exchange"


@dataclass(frozen=True)
class Clock:
    """The clock running now: the seats the table waits for, and when their time runs out."""

    seats: tuple[int, ...]
    seconds: int
    deadline: dt.datetime

    def left(self, now: dt.datetime) -> float:
        return max(0.0, (self.deadline - now).total_seconds())

    def as_json(self, now: dt.datetime) -> dict:
        return {"seats": list(self.seats), "seconds": self.seconds, "left": round(self.left(now), 1)}


def turn_seconds(club_id: int) -> int:
    """The club's seconds per action, 0 when its tables run no clock."""
    return OnlineSettings.objects.filter(club_id=club_id).values_list("turn_seconds", flat=True).first() or 0


def set_turn_seconds(*, club: Club, seconds: int, user) -> OnlineSettings:
    """The club's admin sets its tables' turn clock: 0 (off) or MIN_SECONDS to MAX_SECONDS."""
    if selectors.membership_role(user, club) != Membership.Role.ADMIN:
        raise WriteForbidden(_("the turn clock is set by an admin of club “%(club)s”") % {"club": club.slug})
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not (seconds == 0 or MIN_SECONDS <= seconds <= MAX_SECONDS)
    ):
        raise InvalidInput(
            _("the turn clock is 0 (off) or from %(min)d to %(max)d seconds")
            % {"min": MIN_SECONDS, "max": MAX_SECONDS},
            code="invalid",
        )
    row, _created = OnlineSettings.objects.update_or_create(club=club, defaults={"turn_seconds": seconds})
    return row


def waiting_seats(table: OnlineTable, state) -> tuple[int, ...]:
    """The seats held by a person that the table waits for now: an undecided Grand Tichu, an
    exchange owed, the turn (or the Dragon's gift) of a seat the person plays for."""
    bots = bot_seats(table)
    persons = [s for s in OnlineSeat.objects.filter(table=table).values_list("seat", flat=True) if s not in bots]
    deciding = undecided(table, state)
    if deciding:
        return tuple(deciding)
    if table.pending_deal:
        return ()
    owing = [p for p in persons if any(engine.push_due(state, c) for c in engine.seats_played_by(state, p))]
    if owing:
        return tuple(owing)
    doc = engine.state_json(state)
    target = doc.get("gift_from") if doc.get("gift_from") is not None else doc.get("turn")
    if target is None:
        return ()
    return tuple(p for p in persons if target in engine.seats_played_by(state, p))


def _last_event_at(game: Game) -> dt.datetime | None:
    return Event.objects.filter(game_id=game.pk, seq=game.seq).values_list("recorded_at", flat=True).first()


def clock_of(table: OnlineTable, game: Game, state, seconds: int | None = None) -> Clock | None:
    """The clock running at `table` now, or None (no clock set, the game over or not dealt yet,
    nobody waited for)."""
    seconds = turn_seconds(table.club_id) if seconds is None else seconds
    if not seconds or game.status != Game.Status.ACTIVE or not game.seq or not all_joined(table):
        return None
    seats = waiting_seats(table, state)
    started = _last_event_at(game)
    if not seats or started is None:
        return None
    return Clock(seats=seats, seconds=seconds, deadline=started + dt.timedelta(seconds=seconds))


def clock_json(table: OnlineTable, game: Game, state) -> dict | None:
    """The clock as a page shows it: the seats it runs for, its seconds, the seconds left."""
    clock = clock_of(table, game, state)
    return clock.as_json(timezone.now()) if clock is not None else None


def read_clock(table_id: int) -> Clock | None:
    """The clock of the table as stored now (no lock: what a page shows)."""
    table = OnlineTable.objects.get(pk=table_id)
    seconds = turn_seconds(table.club_id)
    if not seconds:
        return None
    game = Game.objects.get(pk=table.game_id)
    return clock_of(table, game, snapshots.state_at(game, game.seq), seconds)


def enforce(table_id: int, now: dt.datetime | None = None) -> bool:
    """Play the run-out turn of the table, once: True when the bot played (or said no) for a
    seat. Called by every request to the table; nothing happens before the deadline."""
    now = now or timezone.now()
    clock = read_clock(table_id)
    if clock is None or now < clock.deadline:
        return False
    with transaction.atomic():
        # the same lock as a seat's action (services.act): one of two racing requests plays
        table = OnlineTable.objects.select_for_update(of=("self",)).select_related("created_by").get(pk=table_id)
        game = Game.objects.get(pk=table.game_id)
        state = snapshots.state_at(game, game.seq)
        clock = clock_of(table, game, state)
        if clock is None or now < clock.deadline:
            return False  # another request played it, or a seat acted meanwhile
        try:
            played = _play_for(table, game, state, clock.seats)
        except SeqConflict:  # another writer got in first (the row lock makes it rare): nothing to play
            return False
        _advance(table)
    return played


def _play_for(table: OnlineTable, game: Game, state, seats: tuple[int, ...]) -> bool:
    """The bot's one action for each of `seats` whose time ran out; False when the bot has none
    to offer (a game it does not play): the table then waits for the seat, as without a clock."""
    deciding = undecided(table, state)
    if deciding:  # a Grand Tichu not decided in time: no (a bot calls none; no event says no)
        table.declined = sorted({*table.declined, *seats})
        table.save(update_fields=["declined"])
        return True
    dealer = TableDealer(table)
    played = False
    for seat in seats:
        state = snapshots.state_at(game, game.seq)
        moves = engine.bot_moves(state, frozenset({seat}), _bot_chance, engine.greedy_policy)
        if engine.state_json(state)["phase"] == _EXCHANGE:  # its exchange, the dummy's too when it deals Threechu
            moves = [m for m in moves[: len(engine.seats_played_by(state, seat))] if m["type"] == "push"]
        else:
            moves = moves[:1]
        for move in moves:
            at = game.seq
            append_events(game=game, events=[move], expected_seq=at, user=dealer)
            game.refresh_from_db()
            save_header(game, with_clock_move(game.header, seat, at, BOT_POLICY))
            played = True
    return played
