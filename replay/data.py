"""The replay data of a stored game, cached.

A game's events never change once stored, so the frames of a game at `seq` are a pure function of
(stream id, seq, what the reader sees, the reader's language): they are cached under that key, the reader's part being
`Sight.key()` (games.visibility decides the sight; a masked and an open rendering never share an
entry, nor two seats' renderings; a new append makes a new key). Only a
finished game's frames go to the shared cache: a game being entered gets a new key with every
event, and each version (hundreds of KiB pickled) would otherwise stay there for a week. Each
process keeps one version per game and view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import get_language

from games import engine, safe_cache, selectors, snapshots
from games.local_cache import LocalLru

from . import frames

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Game

CACHE_TIMEOUT = 7 * 24 * 3600
#: Games whose frames this process keeps unpickled (a 1000-point game: about 0.5 MB of JSON, a few
#: MB as Python objects).
LOCAL_GAMES = 8
# (stream id, sight key, language) -> (seq, frames): one version per game, reader's sight and
# language, the latest asked for
_local = LocalLru(LOCAL_GAMES)


def _local_get(game: Game, seen: str, lang: str = "en") -> frames.ReplayData | None:
    entry = _local.get((game.stream_id, seen, lang))
    return entry[1] if entry is not None and entry[0] == game.seq else None


def _local_put(game: Game, seen: str, data: frames.ReplayData, lang: str = "en") -> None:
    _local.put((game.stream_id, seen, lang), (game.seq, data))


def clear_local() -> None:
    _local.clear()


def _key(game: Game, sight: engine.Sight, lang: str = "en") -> str:
    return f"tichu:replay:v{frames.FORMAT}:{game.stream_id}:{game.seq}:{sight.key()}:{lang}"


def replay_data(game: Game, sight: engine.Sight, lang: str | None = None) -> frames.ReplayData:
    """The frames of `game` as stored now, as a reader with `sight` (games.visibility.reader_sight)
    may see them, worded in ``lang`` (default: the request's language, Django's active one): from
    this process's memory, else the shared cache, else built from the game's states
    (games.snapshots.states; then kept in both). Callers must not modify the result."""
    lang = engine.words(lang or get_language()).lang
    seen = sight.key()
    data = _local_get(game, seen, lang)
    if data is not None:
        return data
    key = _key(game, sight, lang)
    data = safe_cache.get(key)  # a cache that is down reads as a miss: the frames are folded
    if data is None:
        # the game's states as stored now (`seq` events, even mid-append), from the one cache of
        # folded states: the frames only read them
        data = frames.from_states(snapshots.states(game), sight, given_options=game.options, lang=lang)
        data.script = data.payload_script_text()
        if game.status == selectors.GameStatus.FINISHED:
            safe_cache.set(key, data, CACHE_TIMEOUT)
    _local_put(game, seen, data, lang)
    return data
