"""Reads of an online table: a seat by its link, and what that seat's page shows.

A seat's view is the game's state as the visibility rule lets that seat see it
(games.visibility.seat_sight, masked by the engine): its own hand, the table's plays, calls, card
counts and trick, whose turn it is; and the engine's legal actions of that seat at this moment.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games import engine, snapshots, visibility
from games import selectors as game_selectors
from games.models import Game

from . import watch_delay
from .models import OnlineSeat, OnlineTable
from .services import all_joined, bot_seats, undecided
from .turn_clock import clock_json

MAX_SECRET = 64


def club_tables(club, user, limit: int) -> list[OnlineTable]:
    """The club's online tables that `user` may see listed, the newest first (the club's tables
    page): a duplicate board's table in play is listed to its TD only (games.holds, through
    games.selectors.unlisted_game_ids, as every list of games)."""
    tables = OnlineTable.objects.filter(club=club).select_related("game")
    held = game_selectors.unlisted_game_ids(user)
    return list((tables.exclude(game_id__in=held) if held else tables)[:limit])


def table_of(club, pk: int) -> OnlineTable | None:
    """The club's online table `pk`, or None."""
    return OnlineTable.objects.select_related("game").filter(club=club, pk=pk).first()


def table_seat(table: OnlineTable, seat: int) -> OnlineSeat | None:
    return OnlineSeat.objects.filter(table=table, seat=seat).first()


def seat_by_secret(secret: str) -> OnlineSeat | None:
    if not isinstance(secret, str) or not 0 < len(secret) <= MAX_SECRET:
        return None
    return OnlineSeat.objects.select_related("table__game__club", "player").filter(secret=secret).first()


def held_seats(user) -> list[OnlineSeat]:
    """The seats `user` holds at online tables whose game is still played, the newest table first:
    their roster player's (`Player.user`) or the seat they took over (`taken_by`), not one handed
    to the bot. Their /me/ page links each by its secret: the list is only ever the holder's."""
    if user is None or not user.is_authenticated or getattr(user, "pk", None) is None:
        return []
    return list(
        OnlineSeat.objects.filter(Q(player__user_id=user.pk) | Q(taken_by_id=user.pk), bot="")
        .filter(table__game__status=Game.Status.ACTIVE)
        .select_related("player", "table__club", "table__game")
        .order_by("-table__created_at", "-table_id", "seat")
    )


def table_seats(table: OnlineTable) -> list[OnlineSeat]:
    return list(table.seats.select_related("player").order_by("seat"))


def replay_open(game: Game, user) -> bool:
    """Whether the page may offer `user` the game's replay: once the game is over, if the replay
    would open for them (games.selectors.may_read: a members-only club's game, or a duplicate
    board held at its tables until its round closes, is not there for a seat link without an
    account, which reads no more than a visitor)."""
    return game.status != Game.Status.ACTIVE and game_selectors.may_read(user, game.pk)


def watch_view(table: OnlineTable, user=None) -> dict[str, Any]:
    """What a club member watching the table sees (games.visibility.watcher_sight): the table's
    plays, calls, counts and trick, whose turn it is; no hand while it is in play, no action.

    On the club's delay (games.online.watch_delay) the table as it stood that many events ago,
    masked as a watcher saw it then: its `seq` is that position's, and nothing of the present
    (the turn clock, the Grand Tichu wait) that would tell how far the table has gone since."""
    table = OnlineTable.objects.get(pk=table.pk)
    game = Game.objects.select_related("club").get(pk=table.game_id)
    active = game.status == Game.Status.ACTIVE
    delay = watch_delay.delay_events(game.club_id)
    seq = watch_delay.shown_seq(game.seq, delay, active)
    state = snapshots.state_at(game, seq)
    if seq == game.seq:
        sight = visibility.watcher_sight(game)
    else:  # the sight of the position shown: its hand's cards stay hidden until that hand ends
        events = snapshots.stored_events(game, seq)
        sight = engine.sight_for(game.variant, events, state, seats=(), reveal=game.club.reveal_hands)
    doc = engine.redact_state(engine.state_json(state), sight, seq)
    ready = all_joined(table)
    live = seq == game.seq
    playing = ready and active and live
    return {
        "game": game.pk,
        "seq": seq,
        "delay": delay if active else 0,
        "seat": None,
        "status": game.status,
        "replay_open": replay_open(game, user),
        "ready": ready,
        "joined": [s.seat for s in table_seats(table) if s.joined_at is not None],
        # who plays each seat now (a member may have taken one over since the page was opened)
        "names": [s.player.name for s in table_seats(table)],
        "bots": sorted(bot_seats(table)),
        "state": _public_state(doc),
        "actions": [],
        "controls": [],
        "hand_seat": None,
        "push_seat": None,
        "push_due": {},
        "push_forced": {},
        "grand_tichu_wait": undecided(table, state) if playing else [],
        "clock": clock_json(table, game, state) if live else None,
    }


def seat_view(seat: OnlineSeat, user=None) -> dict[str, Any]:
    """Everything the seat's page shows, nothing the seat may not see: the masked state, the
    seat's actions now, what it owes at the exchange, whether the deal waits for its Grand Tichu
    decision, and the stream's seq (the page sends it back with its action)."""
    table = OnlineTable.objects.get(pk=seat.table_id)  # fresh: the deal's progress is on its row
    game = Game.objects.select_related("club").get(pk=table.game_id)
    state = snapshots.state_at(game, game.seq)
    bots = bot_seats(table)
    # the link of a seat handed to the bot sees what a watcher sees: the bot's hands are nobody's
    sight = visibility.watcher_sight(game) if seat.seat in bots else visibility.seat_sight(game, frozenset({seat.seat}))
    doc = engine.redact_state(engine.state_json(state), sight, game.seq)
    ready = all_joined(table)
    # a seat handed to the bot offers its old link nothing more to do
    playing = ready and game.status == Game.Status.ACTIVE and seat.seat not in bots
    waiting_on = undecided(table, state) if playing else []
    controls = engine.seats_played_by(state, seat.seat)
    actions = [a for s in controls for a in engine.seat_actions(state, s)] if playing else []
    if seat.seat in waiting_on:
        actions = [*actions, {"type": "no_grand_tichu", "seat": seat.seat}]
    owing = [s for s in controls if engine.push_due(state, s)] if playing else []
    push_seat = owing[0] if owing else None
    turn = engine.state_json(state).get("turn")
    return {
        "game": game.pk,
        "seq": game.seq,
        "seat": seat.seat,
        "status": game.status,
        "replay_open": replay_open(game, user),
        "ready": ready,
        "joined": [s.seat for s in table_seats(table) if s.joined_at is not None],
        # who plays each seat now (a member may have taken one over since the page was opened)
        "names": [s.player.name for s in table_seats(table)],
        "bots": sorted(bots),
        "state": _public_state(doc),
        "actions": actions,
        "controls": controls,
        # whose cards the seat's page offers to choose from now: the exchange's giver, the dummy
        # on its turn, else the seat's own
        "hand_seat": push_seat if push_seat is not None else turn if turn in controls else seat.seat,
        "push_seat": push_seat,
        "push_due": engine.push_due(state, push_seat) if push_seat is not None else {},
        # the cards the rules leave no choice about (Grand Seigneur's tribute): the page offers them
        "push_forced": engine.push_forced(state, push_seat) if push_seat is not None else {},
        "grand_tichu_wait": waiting_on,
        # the turn clock (turn_clock): who it runs for and the seconds left, or None
        "clock": clock_json(table, game, state),
    }


def _public_state(doc: dict[str, Any]) -> dict[str, Any]:
    """The masked state (other hands are lists of "?") with each seat's card count beside it."""
    hands = doc.get("hands") or []
    out = dict(doc)
    out["counts"] = [len(h) for h in hands]
    return out
