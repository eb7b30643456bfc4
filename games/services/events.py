"""The event append: a batch folded by the engine and stored all or nothing under the game's row lock."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine, hooks, selectors, snapshots, sql
from games.models import Game, Membership

from .content import content_extended
from .checks import _check_events_shape, _check_incoming, _check_storable
from .errors import GameNotFound, InvalidInput, RuleViolation, SeqConflict, WriteForbidden, seat_names_of
from .game_end import status_for
from .idempotency import _fingerprint, _idempotency_scope, _idempotent_replay, _idempotent_store
from .results import WriteResult, _game_body

MAX_BATCH = 500  # events per append (docs/api.md); an import may carry a whole game


def _apply_batch(state: engine.GameState, start: int, events: list[dict]) -> list[snapshots.Snapshot]:
    """Apply `events` to `state` (the state after `start` events); the states worth caching once
    committed come back (snapshots.fold_appended). Raises RuleViolation with the index in `events`
    of the first refused event; `state` is then partly advanced and must be dropped."""
    try:
        return snapshots.fold_appended(state, start, events)
    except engine.EngineError as err:
        raise RuleViolation(err, index=(err.index or start) - start, names=seat_names_of(state)) from None


def _insert_events(*, game: Game, start: int, events: list[dict], state: engine.GameState, user,
                   content: str | None = None) -> None:
    """Insert the event rows and move the game's seq, status, finished_at, content hash and
    updated_at (under its lock), in one statement on PostgreSQL (games.sql.append_events).
    `content`: the hash after `events` when the caller has it (an import computed it to look for
    the game), else it is extended here from the stored one (games.services.content)."""
    was_finished = game.status == Game.Status.FINISHED
    if content is None and game.content_hash is not None:
        content = content_extended(game.content_hash, events)
    game.content_hash = content
    game.updated_at = timezone.now()
    game.seq = start + len(events)
    game.status = status_for(state.is_over, game.header)
    game.finished_at = (game.finished_at or timezone.now()) if state.is_over else None
    user_id = user.pk if user is not None and user.is_authenticated else None
    sql.append_events(game, start, events, recorded_by=user_id, recorded_at=timezone.now())
    if state.is_over or was_finished:
        # finished, reopened by an undo, or changed while finished: the ratings must follow
        hooks.finished_game_changed.send(game)  # the rating outbox row, in this transaction


def _lock_game_for_writer(game_id: int, user) -> Game:
    """Lock the game row (serialising writers to this game only) and check, in the same query,
    that `user` is a scorer or admin of its club."""
    locked = selectors.game_with_role(game_id, user, for_update=True)
    if locked is None or not selectors.is_visible(locked):
        raise GameNotFound(_("no such game"))
    if locked.viewer_role not in Membership.WRITER_ROLES:
        raise WriteForbidden(_("recording games needs the scorer or admin role in club “%(club)s”")
                             % {"club": locked.club.slug})
    return locked


def append_events(
    *, game: Game | int, events: list[dict], expected_seq: int, idempotency_key: str | None = None, user
) -> WriteResult:
    """Append a batch atomically: all of it or nothing.

    Locks the game row (checking that `user` is a scorer or admin of its club), replays a remembered answer for a known Idempotency-Key, checks
    `expected_seq` (SeqConflict), folds the current state (cached snapshot or events), applies
    each event through the engine (RuleViolation with the batch index), inserts the rows and
    moves `game.seq` and `game.status` in the same transaction. When the game finishes, the
    rating task is queued on commit."""
    _check_events_shape(events, MAX_BATCH)
    if not events:
        raise InvalidInput(_("events must not be empty"))
    _check_storable(events, gettext_noop("an event"))
    game_id = game.pk if isinstance(game, Game) else game
    # only a retried request needs it (a hash over the whole batch: not on every append)
    fingerprint = (_fingerprint("append_events", game=game_id, expected_seq=expected_seq, events=events)
                   if idempotency_key is not None else "")
    key_owner, idempotency_key = _idempotency_scope(user, idempotency_key)
    with transaction.atomic():
        locked = _lock_game_for_writer(game_id, user)
        if idempotency_key is not None:
            replay = _idempotent_replay(user=key_owner, key=idempotency_key, fingerprint=fingerprint)
            if replay is not None:
                return replay
        check_write = getattr(user, "check_write", None)
        if check_write is not None:  # a table code: its game is closed to it once the table's result is sent
            check_write(locked.pk)
        if expected_seq != locked.seq:
            raise SeqConflict(expected_seq, locked.seq)
        # cards as typed ("ph", "10s") become their codes: the stored record is canonical
        events = [engine.canonical_event(e, locked.variant) for e in events]
        _check_incoming(locked.variant, events)
        hooks.events_appending.send(locked, events)  # an app built on the records may refuse it
        state = snapshots.state_at(locked, locked.seq)
        kept = _apply_batch(state, locked.seq, events)
        start = locked.seq
        _insert_events(game=locked, start=start, events=events, state=state, user=user)
        record_write = getattr(user, "record_write", None)
        if record_write is not None:  # a table code: the write is recorded as made with it
            record_write(locked.pk, start + 1, start + len(events))
        body = {**_game_body(locked), "appended": len(events), "first_seq": start + 1}
        if idempotency_key is not None:
            _idempotent_store(user=key_owner, key=idempotency_key, fingerprint=fingerprint, body=body)
        snapshots.cache_on_commit(locked, kept, start, events)
    if isinstance(game, Game):
        game.seq, game.status, game.finished_at = locked.seq, locked.status, locked.finished_at
    return WriteResult(body=body)
