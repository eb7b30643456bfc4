"""An imported file's content, and the one answer to a file a club imported before, for every
stream that imports (a game's record, a tournament's results file).

A head imported from a file keeps the file's content (`import_hash`: the SHA-256 of its canonical
JSON), unique per club: importing the same content again stores nothing and answers with the
head already there (`already_imported`, 200), also when two imports of one file race (the unique
constraint decides; the loser answers with the winner's head).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

from django.db import IntegrityError, models, transaction

from .results import WriteResult


def canonical_json(record: dict) -> str:
    """A record's canonical JSON text (keys sorted, compact, ASCII), whose hash is its content
    (`import_hash`)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def import_hash(record: dict, canonical: str | None = None) -> str:
    """The content of an imported record: SHA-256 of its canonical JSON (`canonical_json`, passed
    when the caller has it; `meta` included: a tracker game's id or a log's game number tells two
    games with equal events apart)."""
    text = canonical_json(record) if canonical is None else canonical
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def imported_head(model: type[models.Model], club, content: str):
    """The club's head of `model` imported with this content, or None."""
    return model.objects.filter(club=club, import_hash=content).first()


def import_once(
    *,
    model: type[models.Model],
    club,
    content: str,
    create: Callable[[], WriteResult],
    answer: Callable[[Any], dict[str, Any]],
    known: Callable[[], Any] | None = None,
) -> WriteResult:
    """Run `create()` (which stores the head under `content` and answers) in a savepoint, unless
    the club holds this content already: then `answer(head)` with `already_imported`, 200.
    `known()`, when given, finds the same content held otherwise (a game recorded by appends)."""
    existing = imported_head(model, club, content)
    if existing is None and known is not None:
        existing = known()
    if existing is None:
        try:
            with transaction.atomic():
                return create()
        except IntegrityError:
            existing = imported_head(model, club, content)  # a concurrent import of the same content won
            if existing is None:
                raise
    return WriteResult(body={**answer(existing), "already_imported": True}, created=False)
