"""The event append: a batch folded by the engine and stored all or nothing, under the game's row
lock, or (the common append on PostgreSQL) by one statement that stores it only if the game row is
still the one the batch was folded against (docs/architecture.md, "An appended event")."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, hooks, selectors, snapshots, sql
from games.models import Game, Membership
from games.online.models import OnlineTable
from games.streams.append import append_batch, append_unlocked

from .checks import _check_incoming
from .content import content_extended
from .errors import GameNotFound, InvalidInput, RuleViolation, WriteForbidden, seat_names_of
from .game_end import status_for
from .results import WriteResult, game_body

MAX_BATCH = 500  # events per append (docs/api.md); an import may carry a whole game


def _apply_batch(state: engine.PlayState, start: int, events: list[dict]) -> list[snapshots.Snapshot]:
    """Apply `events` to `state` (the state after `start` events); the states worth caching once
    committed come back (snapshots.fold_appended). Raises RuleViolation with the index in `events`
    of the first refused event; `state` is then partly advanced and must be dropped."""
    try:
        return snapshots.fold_appended(state, start, events)
    except engine.EngineError as err:
        raise RuleViolation(err, index=(err.index or start) - start, names=seat_names_of(state)) from None


class _TakeTheLock(Exception):
    """The append without the lock stored nothing: the locked append must answer (the game row
    changed since it was read, or the batch finishes the game, whose hook writes in the append's
    transaction)."""


def _insert_events(
    *,
    game: Game,
    start: int,
    events: list[dict],
    state: engine.PlayState,
    user,
    content: str | None = None,
    unlocked: bool = False,
) -> None:
    """Insert the event rows and move the game's seq, status, finished_at, content hash and
    updated_at (under its lock), in one statement on PostgreSQL (games.sql.append_events).
    `content`: the hash after `events` when the caller has it (an import computed it to look for
    the game), else it is extended here from the stored one (games.services.content).
    `unlocked`: `game` was read without the lock (`append_events`' first try): the statement writes only
    if the row is still the one read and `user` still a writer of its club, and raises
    _TakeTheLock, storing nothing, when it is not, or when the batch finishes the game or changes
    a finished one (the hook below must run in the append's transaction)."""
    if unlocked and (state.is_over or game.status == Game.Status.FINISHED):
        raise _TakeTheLock
    was_finished = game.status == Game.Status.FINISHED
    if content is None and game.content_hash is not None:
        content = content_extended(game.content_hash, events)
    game.content_hash = content
    game.updated_at = timezone.now()
    game.seq = start + len(events)
    game.status = status_for(state.is_over, game.header)
    game.finished_at = (game.finished_at or timezone.now()) if state.is_over else None
    user_id = user.pk if user is not None and user.is_authenticated else None
    if unlocked:
        stored = sql.append_events_if_unchanged(
            game,
            start,
            events,
            recorded_by=user.pk,
            recorded_at=timezone.now(),
            row_version=game.row_version,
            roles=tuple(Membership.WRITER_ROLES),
            without=OnlineTable,
        )
        if not stored:
            raise _TakeTheLock
        return
    sql.append_events(game, start, events, recorded_by=user_id, recorded_at=timezone.now())
    if state.is_over or was_finished:
        # finished, reopened by an undo, or changed while finished: the ratings must follow
        hooks.finished_game_changed.send(game)  # the rating outbox row, in this transaction


def _lock_game_for_writer(game_id: int, user, *, lock: bool = True) -> Game:
    """Lock the game row (serialising writers to this game only) and check, in the same query,
    that `user` is a scorer or admin of its club. `lock=False`: the same read without the lock,
    with the row's version (`append_events`' first try)."""
    # whether it is an online table's game comes in the same query (admit below asks it), and the
    # events this process has not read yet (the fold's, snapshots.state_at; another worker's
    # appends): one round trip, not three
    known = snapshots.known_events(game_id)
    locked = selectors.game_with_role(
        game_id, user, for_update=lock, has_one=OnlineTable, events_after=known, version=not lock
    )
    if locked is None or not selectors.is_visible(locked):
        raise GameNotFound(_("no such game"))
    if locked.viewer_role not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("recording games needs the scorer or admin role in club “%(club)s”") % {"club": locked.club.slug}
        )
    if known is not None:
        snapshots.offer_events(locked, known, locked.events_after)
    return locked


def _may_append_unlocked(user, idempotency_key: str | None) -> bool:
    """Whether the append may first try without the lock (`streams.append.append_unlocked`):
    PostgreSQL (whose statement re-checks the row), in autocommit outside a caller's transaction
    (a caller that holds one, and its locks, keeps today's order of them; the statement must be
    its own transaction), no Idempotency-Key (its row is written in the
    append's transaction), a person's token or session (a table code records its writes and an
    online table's seat its play, each in the append's transaction)."""
    connection = transaction.get_connection()
    return (
        connection.vendor == "postgresql"
        and not connection.in_atomic_block
        and connection.get_autocommit()
        and idempotency_key is None
        and user is not None
        and user.is_authenticated
        and getattr(user, "check_write", None) is None
        and getattr(user, "record_write", None) is None
        and getattr(user, "online_table", None) is None
    )


def _only_corrections(events: object) -> bool:
    """A batch of director's corrections only (games/engine/corrections.py): what a person may
    write on an online table's game, whose play is its seats'."""
    return (
        isinstance(events, list)
        and bool(events)
        and all(isinstance(e, dict) and e.get("type") == "hand_corrected" for e in events)
    )


def append_events(
    *, game: Game | int, events: list[dict], expected_seq: int, idempotency_key: str | None = None, user
) -> WriteResult:
    """Append a batch atomically: all of it or nothing (the stream store's append,
    games.streams.append).

    Locks the game row (checking that `user` is a scorer or admin of its club), replays a remembered
    answer for a known Idempotency-Key, checks `expected_seq` (SeqConflict), folds the current
    state (cached snapshot or events), applies each event through the engine (RuleViolation with
    the batch index), inserts the rows and moves `game.seq` and `game.status` in the same
    transaction. When the game finishes, the rating task is queued on commit.

    On PostgreSQL the common append (`_may_append_unlocked`: no key, a person's token, no
    caller's transaction, not an online table's game, not finishing a game) first does the same
    without the transaction: the game read without the lock, the same refusals, then one
    statement that stores the batch only if the row is still the version read
    (`sql.append_events_if_unchanged`): 4 round trips instead of 6. When it stores nothing (a
    writer came between), the locked append runs and answers."""
    game_id = game.pk if isinstance(game, Game) else game

    def admit(locked: Game) -> None:
        if (
            getattr(user, "online_table", None) is None
            and not _only_corrections(events)
            and locked.has_one  # an OnlineTable row for it (read with the lock: _lock_game_for_writer)
        ):
            # an online table's game is played by its seats (games.online), never typed in; only a
            # director's ruling on a finished hand (hand_corrected) is written on it by a person
            raise InvalidInput(
                _("game %(game)s is played at an online table: its seats play it, nothing is entered here")
                % {"game": locked.pk},
                code="played_online",
            )
        check_write = getattr(user, "check_write", None)
        if check_write is not None:  # a table code: its game is closed to it once the table's result is sent
            check_write(locked.pk)

    def write(locked: Game, batch: list[dict], unlocked: bool = False) -> dict:
        # cards as typed ("ph", "10s") become their codes: the stored record is canonical
        batch = [engine.canonical_event(e, locked.variant) for e in batch]
        _check_incoming(locked.variant, batch)
        hooks.events_appending.send(locked, batch)  # an app built on the records may refuse it
        state = snapshots.state_at(locked, locked.seq)
        kept = _apply_batch(state, locked.seq, batch)
        start = locked.seq
        _insert_events(game=locked, start=start, events=batch, state=state, user=user, unlocked=unlocked)
        record_write = getattr(user, "record_write", None)
        if record_write is not None:  # a table code: the write is recorded as made with it
            record_write(locked.pk, start + 1, start + len(batch))
        snapshots.cache_on_commit(locked, kept, start, batch)
        written.append(locked)
        return {**game_body(locked), "appended": len(batch), "first_seq": start + 1}

    def admit_unlocked(read: Game) -> None:
        if read.has_one:  # an online table's game: only its seats' tokens or corrections, under the lock
            raise _TakeTheLock

    written: list[Game] = []  # the locked row, once the batch is stored (not on a replay)
    result = None
    if _may_append_unlocked(user, idempotency_key):
        try:
            result = append_unlocked(
                events=events,
                limit=MAX_BATCH,
                expected_seq=expected_seq,
                read=lambda: _lock_game_for_writer(game_id, user, lock=False),
                admit=admit_unlocked,
                write=lambda read, batch: write(read, batch, unlocked=True),
            )
        except _TakeTheLock:
            pass  # nothing stored, nothing cached: the locked append answers
    if result is None:
        result = append_batch(
            events=events,
            limit=MAX_BATCH,
            operation="append_events",
            stream={"game": game_id},
            expected_seq=expected_seq,
            user=user,
            idempotency_key=idempotency_key,
            lock=lambda: _lock_game_for_writer(game_id, user),
            admit=admit,
            write=write,
        )
    if isinstance(game, Game) and written:
        locked = written[0]
        game.seq, game.status, game.finished_at = locked.seq, locked.status, locked.finished_at
    return result
