"""The append, the same for every stream: a batch checked (shape, size, storable), the head row
locked, a known Idempotency-Key replayed, `expected_seq` checked, then the stream's own fold and
insert, and the key remembered, all in one transaction: all of the batch or nothing."""

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
