"""The replay data of a stored game, cached.

A game's events never change once stored, so the frames of a game at `seq` are a pure function of
(stream id, seq, hidden): they are cached under that key for good (a new append makes a new key).
"""
from __future__ import annotations

import logging

from django.core.cache import cache

from games import selectors
from games.models import Game, Membership

from . import frames

logger = logging.getLogger(__name__)

CACHE_TIMEOUT = 7 * 24 * 3600


def _key(game: Game, hidden: bool) -> str:
    return f"tichu:replay:v{frames.FORMAT}:{game.stream_id}:{game.seq}:{'h' if hidden else 'o'}"


def hands_hidden(game: Game, user) -> bool:
    """Hands are open once the game is finished; while it is played only the club's scorers and
    admins (who enter the events) see them, everyone else sees the table and card counts."""
    if game.status == Game.Status.FINISHED:
        return False
    return selectors.membership_role(user, game.club) not in Membership.WRITER_ROLES


def replay_data(game: Game, hidden: bool = False) -> frames.ReplayData:
    """The frames of `game` as stored now (cached per seq)."""
    key = _key(game, hidden)
    data = cache.get(key)
    if data is None:
        record = selectors.game_record(game)
        record["events"] = record["events"][: game.seq]  # what `seq` names, even mid-append
        data = frames.build(record, hidden=hidden)
        data.script = data.payload_script_text()
        try:
            cache.set(key, data, CACHE_TIMEOUT)
        except Exception:  # a cache that cannot take it is an optimisation lost, not an error
            logger.warning("replay frames of game %s not cached", game.pk, exc_info=True)
    return data
