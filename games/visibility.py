"""Who sees which hands of a game: the one place the site decides a reader's `engine.Sight`.

- The club's scorers and admins (who enter the events) see everything; a table's code (a scorer
  without a seat) sees everything only where `games.holds` allows (not at a duplicate table); an
  online table's game (games.online), entered by its seats, is no scorer's while it is played.
- Anyone else who may read the game sees what the table sees (`games.engine.visibility`): the
  cards played, the calls, the counts; plus, when signed in as the player seated in the game
  (`Player.user`), that seat's own hand. The cards of a hand are open once it is over, or once
  the game is over when the club's `reveal_hands` is `after_game`; a finished game is open.

Every channel that shows a game's cards (the API's `state`, `events`, `record`, the replay and
game pages) asks `reader_sight` and masks through the engine; none decides for itself.
"""

from __future__ import annotations

import dataclasses

from games import engine, holds, selectors, snapshots
from games.local_cache import LocalLru
from games.models import Game, GameSeat, Membership
from games.online.models import OnlineTable

_UNSET = object()
# (stream id, seq, reveal) -> the table's sight (seats left empty): one pass over the events per
# game version and process, whoever reads it.
_table_sights = LocalLru(256)


def forget_local() -> None:
    _table_sights.clear()


def sees_everything(game: Game, user) -> bool:
    """The club's scorers and admins see every hand, always. A table's code is a scorer without a
    seat: it sees every hand only where the game's hold allows it (games.holds: not a duplicate
    tournament's table, whose boards the site deals); elsewhere what a reader without a seat sees."""
    role = getattr(game, "viewer_role", _UNSET)
    if role is _UNSET:
        role = selectors.membership_role(user, game.club)
    if role not in Membership.WRITER_ROLES:
        return False
    if is_table_code(game, user):
        return holds.code_sees_hands(game)
    # an online table's game is entered by its seats, not by the club's scorers: a scorer reading
    # it while it is played is a spectator (watcher_sight), or a seated player (seats_held)
    return not is_online_table(game)


def is_online_table(game: Game) -> bool:
    """Whether `game` is played at an online table (games.online)."""
    return OnlineTable.objects.filter(game_id=game.pk).exists()


def is_table_code(game: Game, user) -> bool:
    """Whether `user` is a table code scoring `game` (games.tournaments.table_codes.TableCodeHolder:
    signed in for its one game, anonymous everywhere else)."""
    return getattr(user, "table_code_game", None) == game.pk


def seats_held(game: Game, user) -> frozenset[int]:
    """The seats of `game` whose player is `user` (none for an anonymous reader)."""
    if user is None or not user.is_authenticated or getattr(user, "pk", None) is None:
        return frozenset()  # anonymous, or a table's code (a scorer without a seat)
    return frozenset(GameSeat.objects.filter(game=game, player__user_id=user.pk).values_list("seat", flat=True))


def table_sight(game: Game) -> engine.Sight:
    """What a reader holding no seat sees of `game` as stored now (`game.seq` events)."""
    reveal = game.club.reveal_hands
    key = (game.stream_id, game.seq, reveal)
    cached = _table_sights.get(key)
    if cached is None:
        events = snapshots.stored_events(game, game.seq)
        state = snapshots.state_at(game, game.seq)
        cached = engine.sight_for(game.variant, events, state, seats=(), reveal=reveal)
        _table_sights.put(key, cached)
    return cached


def reader_sight(game: Game, user) -> engine.Sight:
    """What `user` (who may read `game`) sees of it: `engine.EVERYTHING` or the sight that masks
    the secret part of the game."""
    # a finished game, or one its source ended before it did (unfinished): nobody plays it on
    if game.status != Game.Status.ACTIVE or sees_everything(game, user):
        return engine.EVERYTHING
    table = table_sight(game)
    if table.everything:
        return engine.EVERYTHING
    seats = seats_held(game, user)
    return dataclasses.replace(table, seats=seats) if seats else table


def seat_sight(game: Game, seats: frozenset[int]) -> engine.Sight:
    """What the player of `seats` at an online table (games.online) sees of `game`: what the table
    sees plus those seats' own hands. A seat's link is not a scorer: it never sees everything
    while a hand is in play."""
    if game.status != Game.Status.ACTIVE:
        return engine.EVERYTHING
    table = table_sight(game)
    return table if table.everything else dataclasses.replace(table, seats=frozenset(seats))


def watcher_sight(game: Game) -> engine.Sight:
    """What a club member watching an online table (games.online) sees of `game`: what the table
    sees, no seat's hand, whatever the member's role: a scorer watching is a spectator there, not
    the one who enters the hands. The hands of a hand open when it ends (or when the game ends,
    by the club's `reveal_hands`); the whole game once it is over."""
    return seat_sight(game, frozenset())
