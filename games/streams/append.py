"""The append, the same for every stream: a batch checked (shape, size, storable), the head row
locked, a known Idempotency-Key replayed, `expected_seq` checked, then the stream's own fold and
insert, and the key remembered, all in one transaction: all of the batch or nothing.

`append_unlocked` is the same without the transaction, for a stream whose write is one
statement that stores only if the head is still the one read (the game's common append)."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from django.db import transaction

from .checks import check_batch
from .errors import SeqConflict
from .idempotency import fingerprint, key_scope, remember, replayed
from .results import WriteResult

Head = TypeVar("Head")


def append_batch(
    *,
    events: Any,
    limit: int,
    operation: str,
    stream: dict[str, Any],
    expected_seq: int,
    user,
    idempotency_key: str | None,
    lock: Callable[[], Head],
    write: Callable[[Head, list[dict]], dict[str, Any]],
    admit: Callable[[Head], None] | None = None,
    conflict: Callable[[int, int], SeqConflict] = SeqConflict,
) -> WriteResult:
    """Append `events` to the stream `lock()` locks and returns (its head: it raises when there is
    none the user may write to); `write(head, events)` checks and folds them, inserts the rows,
    moves the head and returns the answer's body. `admit(head)`, when given, may refuse the writer
    once the head is known (a table code whose table is closed); `conflict` is the stream's
    SeqConflict. `operation` and `stream` (the head's id by name) fingerprint the request for
    the Idempotency-Key, whose answer is kept in the same transaction."""
    check_batch(events, limit)
    # only a retried request needs it (a hash over the whole batch: not on every append)
    printed = (
        fingerprint(operation, **stream, expected_seq=expected_seq, events=events)
        if idempotency_key is not None
        else ""
    )
    key_owner, key = key_scope(user, idempotency_key)
    with transaction.atomic():
        head = lock()
        if key is not None:
            replay = replayed(user=key_owner, key=key, fingerprint=printed)
            if replay is not None:
                return replay
        if admit is not None:
            admit(head)
        current = head.seq  # type: ignore[attr-defined]
        if expected_seq != current:
            raise conflict(expected_seq, current)
        body = write(head, events)
        if key is not None:
            remember(user=key_owner, key=key, fingerprint=printed, body=body)
    return WriteResult(body=body)


def append_unlocked(
    *,
    events: Any,
    limit: int,
    expected_seq: int,
    read: Callable[[], Head],
    write: Callable[[Head, list[dict]], dict[str, Any] | None],
    admit: Callable[[Head], None] | None = None,
    conflict: Callable[[int, int], SeqConflict] = SeqConflict,
) -> WriteResult | None:
    """`append_batch` without its transaction or a key: `read()` reads the head without a lock,
    `admit` and `expected_seq` are checked against it as `append_batch` checks them under the
    lock, and `write(head, events)` folds and stores the batch in one statement that writes only
    if the head is still the one read, returning the answer's body, or None when it stored
    nothing (the head moved meanwhile): then None comes back, and the caller takes
    `append_batch`, whose lock answers as it always has (a stale `expected_seq`, a role taken
    away). A refusal raised before the write is the same as under the lock: what it read was
    the head at one moment."""
    check_batch(events, limit)
    head = read()
    if admit is not None:
        admit(head)
    current = head.seq  # type: ignore[attr-defined]
    if expected_seq != current:
        raise conflict(expected_seq, current)
    body = write(head, events)
    return None if body is None else WriteResult(body=body)
