"""Idempotency-Key: a retried write replays its first answer and stores nothing twice; for every
write of every stream (the games', the tournaments', the clubs')."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import IdempotencyKey

from .errors import IdempotencyKeyReused
from .results import WriteResult


def fingerprint(operation: str, **request: Any) -> str:
    """What a key's first request was: a retry with the same key must send the same."""
    canonical = json.dumps({"operation": operation, **request}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotent_write(
    *, user, key: str | None, operation: str, request: dict[str, Any], write: Callable[[], WriteResult]
) -> WriteResult:
    """Run `write()` atomically; with an Idempotency-Key, a retry of the same `operation` and
    `request` replays the first answer and stores nothing twice."""
    printed = fingerprint(operation, **request) if key is not None else ""
    return with_idempotency(user=user, key=key, fingerprint=printed, write=write)


def replayed(*, user, key: str, fingerprint: str) -> WriteResult | None:
    """The first answer given under `key`, or None when the key is new; IdempotencyKeyReused when
    it came with another request."""
    prior = IdempotencyKey.objects.filter(user=user, key=key).first()
    if prior is None:
        return None
    if prior.fingerprint != fingerprint:
        raise IdempotencyKeyReused(_("this Idempotency-Key was already used with a different request"))
    return WriteResult(body=prior.response, replayed=True, created=prior.status_code == 201)


def remember(*, user, key: str, fingerprint: str, body: dict, status_code: int = 201) -> None:
    """Keep the answer under `key`, in the write's own transaction."""
    IdempotencyKey.objects.create(user=user, key=key, fingerprint=fingerprint, status_code=status_code, response=body)


def with_idempotency(
    *, user, key: str | None, fingerprint: str, write: Callable[[], WriteResult | dict]
) -> WriteResult:
    """Run `write()` in a transaction, remembering its answer under `key` in the same one.
    A concurrent first use of the same key loses on the unique constraint and replays.
    `write` returns a WriteResult, or the body of a 201 (a dict)."""

    def result_of_write() -> WriteResult:
        result = write()
        return result if isinstance(result, WriteResult) else WriteResult(body=result)

    if key is None:
        with transaction.atomic():
            return result_of_write()
    try:
        with transaction.atomic():
            replay = replayed(user=user, key=key, fingerprint=fingerprint)
            if replay is not None:
                return replay
            result = result_of_write()
            remember(user=user, key=key, fingerprint=fingerprint, body=result.body, status_code=result.status_code)
            return result
    except IntegrityError:
        replay = replayed(user=user, key=key, fingerprint=fingerprint)
        if replay is None:
            raise
        return replay


def key_scope(user, key: str | None):
    """Who an Idempotency-Key belongs to: the user, or for a table code (which has no account) the
    tournament's director, under a key derived from the code's id and the client's key (for an
    online table's seat: the table's opener, under the seat's prefix)."""
    owner = getattr(user, "idempotency_owner", None)
    if owner is None or key is None:
        return user, key
    td = owner()
    if td is None:
        return user, None  # a tournament without a director keeps no keys for its codes
    prefix = getattr(user, "idempotency_prefix", None)  # an online table's seat names its own
    scope = prefix() if prefix is not None else f"table-code:{user.table_code.pk}:"
    return td, scope + hashlib.sha256(key.encode()).hexdigest()
