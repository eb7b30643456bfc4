"""The one cache of folded game states: the API, the pages (their replay frames) and the ratings
read a stored game's engine states here, and nowhere else fold its events.

The state after the first `n` events of a game is a pure function of those events, and stored
events never change, so states and events may be cached under the game's stream id for good.

- Snapshots are kept at *boundaries*: the state just before each event that starts a hand or a
  round (`engine.HAND_START_EVENTS`: `shuffle`, `hand_result`, Tien Zi Que's `round_start` and
  `round_result`) and every `SNAPSHOT_EVERY` events (a fallback for a long hand). They go to
  Django's cache (shared by the processes when it is Redis) and to a small per-process LRU of live
  states (a `copy()` costs microseconds, an unpickle milliseconds).
- The tip after each append goes to the per-process LRU only: pickling a whole state on every
  append would cost more than folding the few events since the last boundary in another process.
- Each process also keeps the events it has read (a stored prefix of the stream), so that a
  warm `state_at` needs no query at all.

Two reads, one fold (the engine's `fold_steps`, caching the boundaries it passes):

- `state_at(game, n)`: one state. It starts from the nearest cached state at or below `n` and
  folds only the events after it; whatever is missing (evicted, new process, empty cache) is
  rebuilt from the stored events.
- `states(game)`: every state from 0 to the tip, in order (the replay's frames are built from
  them: `replay.data`).

Callers cache only states of committed events: the append service defers its cache writes to
`transaction.on_commit`, and reads only see committed rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.db import transaction

from games import engine, safe_cache, sql
from games.local_cache import LocalLru
from games.models import Game

SNAPSHOT_EVERY = 100
CACHE_TIMEOUT = 7 * 24 * 3600
LOCAL_STATES = 512  # live states kept per process
LOCAL_STREAMS = 64  # games whose events are kept per process
# Bump when a pickled state changes shape or an engine change alters what events fold to
# (v2: Hand.ranked became Hand.ranks, Grand Seigneur's `lord_seat`; v3: the events since the hand
# began are a list, `_since`, no longer a tuple, and a Hand has `after` and `pushers`; v4: a Hand's
# `pile` is a plain dict, no longer a Counter; v5: a Hand's `log` keeps a pass as its seat and a
# play as a tuple, the display's dicts written when asked, Hand.trick_log; v6: a Combination and
# a ComboRules pickle as their constructor's arguments, the same in the compiled build,
# mypyc_build.py).
_CACHE_VERSION = "v6"


_states = LocalLru(LOCAL_STATES)  # (stream id, n) -> GameState (never handed out: callers get copies)
_events = LocalLru(LOCAL_STREAMS)  # stream id -> tuple of record events, seq 1..len
_streams = LocalLru(LOCAL_STREAMS)  # game id -> stream id of the events kept above (known_events)


def forget_local() -> None:
    """Empty this process's caches (tests use it with cache.clear() for a cold start)."""
    _states.clear()
    _events.clear()
    _streams.clear()


def _key(game: Game, n: int) -> str:
    return f"tichu:state:{_CACHE_VERSION}:{game.stream_id}:{n}"


def is_boundary(n: int, next_event_type: str | None) -> bool:
    """Whether the state after `n` events is a snapshot position, given the next event's type."""
    return n % SNAPSHOT_EVERY == 0 or next_event_type in engine.HAND_START_EVENTS


# --- states ------------------------------------------------------------------------------------


def cache_state(game: Game, n: int, state: engine.PlayState, *, shared: bool = True) -> None:
    """Remember the state after `n` events (a copy: the caller may go on applying events).

    Caching is an optimisation, never an error: a state the shared backend cannot take (too big
    for it, say) or a cache server that is down is logged and skipped. This also runs in
    on_commit callbacks, where raising would fail a write that is already committed."""
    _states.put((game.stream_id, n), state.copy())
    if not shared:
        return
    safe_cache.set(_key(game, n), state, CACHE_TIMEOUT)  # logged and skipped when it cannot be stored


def cached_state(game: Game, n: int, *, shared: bool = True) -> engine.PlayState | None:
    """A cached state after `n` events that the caller owns (may mutate), or None."""
    state = _states.get((game.stream_id, n))
    if state is not None:
        return state.copy()
    if not shared:
        return None
    state = safe_cache.get(_key(game, n))  # a cache that is down is a miss: the events are folded
    if state is not None:
        _states.put((game.stream_id, n), state.copy())
    return state


def initial_state(game: Game) -> engine.PlayState:
    names = [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]
    return engine.new_game(game.variant, game.options, players=names)


# --- events ------------------------------------------------------------------------------------


def stored_events(game: Game, upto: int) -> tuple[dict, ...]:
    """The record events of seq 1..`upto` (all committed: `upto` <= a committed game.seq),
    read from the database only past what this process has already read."""
    known: tuple[dict, ...] = _events.get(game.stream_id) or ()
    if len(known) < upto:
        fetched: list[dict] = []
        for seq, kind, payload in sql.event_rows(game.pk, len(known), upto):  # one plain SELECT
            if seq != len(known) + len(fetched) + 1:
                raise RuntimeError(f"game {game.pk}: event seq {seq} after {len(known) + len(fetched)}: a gap")
            fetched.append({"type": kind, **payload})
        if len(fetched) != upto - len(known):
            raise RuntimeError(f"game {game.pk}: {len(known) + len(fetched)} events stored, {upto} expected")
        known = known + tuple(fetched)
        _events.put(game.stream_id, known)
        _streams.put(game.pk, game.stream_id)
    return known[:upto]


def known_events(game_id: int) -> int | None:
    """How many of the game's events this process holds (None: none, or it does not know the
    game's stream): the append asks the events after them with its lock (offer_events)."""
    stream_id = _streams.get(game_id)
    if stream_id is None:
        return None
    known = _events.get(stream_id)
    return None if known is None else len(known)


def offer_events(game: Game, after: int, rows: list[tuple[int, str, dict]] | None) -> None:
    """The rows (seq, type, payload) of the game's events after `after`, read with its lock
    (games.sql.game_with_role's `events_after`): kept when they are exactly the ones this process
    lacks up to `game.seq` (its stream, the same prefix still held, no gap, none missing: events
    committed while the lock was awaited are not in them), else left (stored_events reads them)."""
    if rows is None or _streams.get(game.pk) != game.stream_id:
        return
    known = _events.get(game.stream_id)
    if known is None or len(known) != after or after + len(rows) != game.seq:
        return
    if any(seq != after + i + 1 for i, (seq, _kind, _payload) in enumerate(rows)):
        return
    _events.put(game.stream_id, known + tuple({"type": kind, **payload} for _seq, kind, payload in rows))


def remember_appended(game: Game, start: int, events: list[dict]) -> None:
    """After commit: extend this process's copy of the stream when it ends where the batch began."""
    known = _events.get(game.stream_id) or ()
    if len(known) == start:
        _events.put(game.stream_id, known + tuple(events))
        _streams.put(game.pk, game.stream_id)


# --- appends -----------------------------------------------------------------------------------

Snapshot = tuple[int, engine.PlayState, bool]  # (events folded, state, share across processes)


def fold_appended(state: engine.PlayState, start: int, events: list[dict]) -> list[Snapshot]:
    """Fold a batch about to be appended into `state` (the state after `start` events). Returns
    what to cache once it is committed (`cache_on_commit`): the boundaries inside the batch and
    the new tip. A refused event raises EngineError (`index`: its position in the record);
    `state` is then partly advanced and must be dropped."""
    kept: list[Snapshot] = []
    end = start + len(events)
    if events and is_boundary(start, events[0].get("type")):
        kept.append((start, state.copy(), True))
    for at, _event, folded in engine.fold_steps(state, events, start):
        if at < end and is_boundary(at, events[at - start].get("type")):
            kept.append((at, folded.copy(), True))
    kept.append((end, state, end % SNAPSHOT_EVERY == 0))
    return kept


def cache_on_commit(game: Game, kept: list[Snapshot], start: int = 0, events: Sequence[dict] = ()) -> None:
    """Once the write commits: cache the states `fold_appended` kept and extend this process's
    copy of the stream (nothing is cached for a write that rolls back)."""

    def remember() -> None:
        for n, state, shared in kept:
            cache_state(game, n, state, shared=shared)
        if events:
            remember_appended(game, start, list(events))

    transaction.on_commit(remember)


# --- folding -----------------------------------------------------------------------------------


def _fold(
    game: Game, state: engine.PlayState, events: tuple[dict, ...], base: int, n: int
) -> Iterator[tuple[int, dict, engine.PlayState]]:
    """Fold events base..n-1 into `state` (the state after `base` events), yielding each step
    (engine.fold_steps) and caching the boundaries passed and the tip."""
    for at, event, folded in engine.fold_steps(state, events[base:n], base):
        if at < n and is_boundary(at, events[at]["type"]) and _states.get((game.stream_id, at)) is None:
            # not again when this process holds it: the replay's frames of a game being entered
            # are rebuilt from 0 after each append, and would pickle every hand start each time
            cache_state(game, at, folded)
        yield at, event, folded
    if n != base and (n == game.seq or n % SNAPSHOT_EVERY == 0):
        # The tip (where the next append starts) locally; arbitrary positions are not kept.
        cache_state(game, n, state, shared=n % SNAPSHOT_EVERY == 0)


def _start(game: Game) -> engine.PlayState:
    state = cached_state(game, 0)
    if state is None:
        state = initial_state(game)
        cache_state(game, 0, state)
    return state


def state_at(game: Game, n: int) -> engine.PlayState:
    """The engine state after the first `n` events of `game` (0 <= n <= game.seq, committed).

    Returns a state the caller owns (it may apply more events to it). Stored events were all
    accepted once: an engine that now refuses one is a bug or an engine change, and its
    EngineError propagates (it is not the client's fault)."""
    state = cached_state(game, n, shared=n % SNAPSHOT_EVERY == 0)  # the shared cache has boundaries only
    if state is not None:
        return state
    events = stored_events(game, n)
    base = 0
    for point in range(n - 1, 0, -1):
        # Any state this process kept (such as its own earlier tip of the game: with several
        # workers the next append often lands on another one), and boundaries from the shared
        # cache too.
        state = cached_state(game, point, shared=is_boundary(point, events[point]["type"]))
        if state is not None:
            base = point
            break
    if state is None:
        state = _start(game)
    for _ in _fold(game, state, events, base, n):
        pass
    return state


def states(game: Game, upto: int | None = None) -> Iterator[tuple[int, dict | None, engine.PlayState]]:
    """Every state of `game` after 0..`upto` events (default: all, `game.seq`), in order, as
    `(n, the event that led there or None at 0, state)`.

    The state is live: read it before asking for the next one, and copy it to keep or change it.
    A stored event the engine now refuses raises its EngineError (with `index`) after the states
    before it (the replay shows the record up to it)."""
    upto = game.seq if upto is None else upto
    events = stored_events(game, upto)
    state = _start(game)
    yield 0, None, state
    yield from _fold(game, state, events, 0, upto)
