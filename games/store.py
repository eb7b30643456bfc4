"""Folding a game's events into engine state, with cached snapshots.

The state after the first `n` events of a game is a pure function of those events, and stored
events never change, so a `GameState` may be cached under (stream id, n) for good. Snapshots are
kept at *boundaries*: the state just before each event that starts a hand (`shuffle`,
`hand_result`), every `SNAPSHOT_EVERY` events as a fallback for variants whose hands start
otherwise, and the game's tip after every append. `state_at(game, n)` starts from the nearest
cached boundary at or below `n` and folds only the events after it; a missing snapshot (evicted,
new process, new cache) is rebuilt from events, storing every boundary passed on the way.
Each process keeps a small LRU of live states in front of Django's cache (a copy is much cheaper
than an unpickle), so the append path usually starts from the tip without deserialising.

Callers must only cache states of committed events: `services` defers its cache writes to
`transaction.on_commit`.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable

from django.core.cache import cache

from games import engine
from games.models import Event, Game

logger = logging.getLogger(__name__)

SNAPSHOT_EVERY = 100
HAND_START_TYPES = ("shuffle", "hand_result")
CACHE_TIMEOUT = 7 * 24 * 3600
LOCAL_STATES = 128  # live states kept per process
_CACHE_VERSION = "v1"


def _key(game: Game, n: int) -> str:
    return f"tichu:state:{_CACHE_VERSION}:{game.stream_id}:{n}"


def player_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]


def initial_state(game: Game) -> engine.GameState:
    return engine.new_game(game.variant, game.options, players=player_names(game))


class _LocalStates:
    """A small per-process LRU of live states in front of Django's cache: a hit costs a
    `state.copy()` (microseconds) instead of unpickling the state. Safe across processes for the
    same reason the shared cache is: the state at (stream, n) never changes."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.states: OrderedDict[str, engine.GameState] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> engine.GameState | None:
        with self.lock:
            state = self.states.get(key)
            if state is None:
                return None
            self.states.move_to_end(key)
            return state.copy()

    def put(self, key: str, state: engine.GameState) -> None:
        with self.lock:
            self.states[key] = state.copy()
            self.states.move_to_end(key)
            while len(self.states) > self.size:
                self.states.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.states.clear()


_local = _LocalStates(LOCAL_STATES)


def forget_local_states() -> None:
    """Empty this process's LRU (tests use it with cache.clear() for a cold start)."""
    _local.clear()


def cache_state(game: Game, n: int, state: engine.GameState) -> None:
    """Remember the state after `n` events (a copy: the caller may go on applying events).

    Caching is an optimisation, never an error: a state the backend cannot pickle (the engine's
    undo checkpoints nest one level per hand, and very long games exceed pickle's recursion
    limit) or a cache server that is down is logged and skipped. This also runs in on_commit
    callbacks, where raising would fail a write already committed."""
    key = _key(game, n)
    _local.put(key, state)
    try:
        cache.set(key, state, CACHE_TIMEOUT)
    except Exception:  # noqa: BLE001 - see above
        logger.warning("state of game %s at %s not cached", game.pk, n, exc_info=True)


def cached_state(game: Game, n: int) -> engine.GameState | None:
    """A cached state the caller owns (may mutate), or None."""
    key = _key(game, n)
    state = _local.get(key)
    if state is not None:
        return state
    try:
        state = cache.get(key)
    except Exception:  # noqa: BLE001 - a cache failure only means folding from events
        logger.warning("state cache unavailable for game %s", game.pk, exc_info=True)
        return None
    if state is not None:
        _local.put(key, state)
    return state


def boundaries_upto(game: Game, n: int) -> list[int]:
    """Snapshot positions at or below `n`, highest first (always ending with 0)."""
    hand_starts = Event.objects.filter(game=game, seq__lte=n, type__in=HAND_START_TYPES).values_list(
        "seq", flat=True
    )
    points = {seq - 1 for seq in hand_starts}
    points.update(range(0, n + 1, SNAPSHOT_EVERY))
    return sorted(points, reverse=True)


def is_boundary(n: int, next_event_type: str | None) -> bool:
    return n % SNAPSHOT_EVERY == 0 or next_event_type in HAND_START_TYPES


def fold_events(game: Game, state: engine.GameState, start: int, events: Iterable[Event]) -> engine.GameState:
    """Apply stored events (seq start+1, start+2, ...) to `state`, caching boundaries passed.

    Stored events were accepted once; an engine that now refuses one is a bug or an engine change,
    and the EngineError propagates (it is not the client's fault)."""
    n = start
    for event in events:
        if event.seq != n + 1:
            raise RuntimeError(f"game {game.pk}: event seq {event.seq} after {n}, the stream has a gap")
        if n != start and is_boundary(n, event.type):
            cache_state(game, n, state)
        state.apply(event.as_record_event())
        n = event.seq
    return state


def state_at(game: Game, n: int) -> engine.GameState:
    """The engine state after the first `n` events of `game` (0 <= n <= game.seq).

    Returns a state the caller owns (it may apply more events to it)."""
    state = cached_state(game, n)
    if state is not None:
        return state
    base, state = 0, None
    for point in boundaries_upto(game, n):
        state = cached_state(game, point) if point else None
        if state is not None:
            base = point
            break
    if state is None:
        base, state = 0, initial_state(game)
        cache_state(game, 0, state)
    events = Event.objects.filter(game=game, seq__gt=base, seq__lte=n).only("seq", "type", "payload").order_by("seq")
    state = fold_events(game, state, base, events)
    if n != base and (n == game.seq or n % SNAPSHOT_EVERY == 0):
        cache_state(game, n, state)
    return state
