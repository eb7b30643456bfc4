"""A whole archive of BSW logs on Celery workers (`manage.py import_bsw FOLDER --club SLUG --workers`).

The command records an ImportJob and queues one `import_bsw_chunk` task per chunk of files; any
number of worker processes, on any number of machines sharing the broker and the database, take
the chunks. Each file is imported in one transaction together with its ImportedFile row (the
SHA-256 of its bytes, unique per club): a file imported before (an earlier run, a redelivered
task, a worker racing another) is counted as skipped and stores nothing twice, so a stopped run
is resumed by running the same command again.

The games of a file are stored in bulk (games.bulk_store: one fold per game, the events in one
statement per file on PostgreSQL, through every trigger of the append-only store), and rated once per job: the
finished games' outbox rows are held (games/ratings/outbox.py `record_held`), each file's
transaction writes the rating outcomes of its games from the states it folded (no second fold), and the chunk that
completes the job queues the ratings' `rate_import_job` (games/ratings/tasks.py, through
games.hooks.import_job_finished), one recompute of the club's pools, which deletes the
rows it covered.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

from celery import shared_task
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from games import hooks
from games.importing import import_bsw_log, store_bsw_log
from games.models import Club, ImportedFile, ImportJob

logger = logging.getLogger(__name__)

#: Files per task: big enough that queueing costs little, small enough that N workers share a
#: folder evenly and a redelivered chunk repeats little (its imported files are skipped anyway).
CHUNK_FILES = 20

DATABASE_DOWN = (OperationalError, InterfaceError)  # retried with backoff, as in games.tasks


def chunks(paths: list[Path], size: int | None = None) -> list[list[str]]:
    size = size or CHUNK_FILES
    return [[str(p) for p in paths[i : i + size]] for i in range(0, len(paths), size)]


def file_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _FileFailed(Exception):
    """Rolls back a file whose games were not all stored (the transaction keeps none of them)."""


def import_file(
    *, club: Club, path: Path, job: ImportJob | None, bsw_scoring: bool = False, anonymise: bool = False
) -> tuple[str, int]:
    """Import one log file unless its content is already imported into the club. Returns
    "done", "skipped" or "failed" and the number of games stored; a failed file stores nothing
    (its report's errors are logged)."""
    data = path.read_bytes()
    digest = file_sha256(data)
    if ImportedFile.objects.filter(club=club, sha256=digest).exists():
        return "skipped", 0
    stem = path.stem
    options: dict[str, Any] = {
        "club": club,
        "text": data.decode("latin-1"),
        "bsw_scoring": bsw_scoring,
        "anonymise": anonymise,
        "game_id": stem if stem.isdigit() else None,
        "path": path,
    }
    try:
        with transaction.atomic():
            # First, so that a concurrent import of the same content waits on the unique index and
            # then loses, instead of converting and storing the games a second time.
            row = ImportedFile.objects.create(club=club, sha256=digest, name=path.name[:255], job=job)
            try:
                with transaction.atomic():
                    report, _ = store_bsw_log(**options)
            except IntegrityError:
                # A game of the file raced in with another file (the unique content hash): game by
                # game, where the loser answers with the winner's game.
                report = import_bsw_log(user=None, **options).body
            if report["errors"] or report["games"] == 0:
                raise _FileFailed("; ".join(report["errors"]) or "no game in the file")
            row.games_stored = report["stored"]
            row.hands_mended = report["hands_mended"]  # the imports page names them (issue #20 item 1)
            row.save(update_fields=["games_stored", "hands_mended"])
    except IntegrityError:
        return "skipped", 0
    except _FileFailed as exc:
        logger.warning("%s: not imported: %s", path, exc)
        return "failed", 0
    return "done", report["stored"]


_COUNTER = {"done": "files_done", "skipped": "files_skipped", "failed": "files_failed"}


@shared_task(acks_late=True, ignore_result=True, autoretry_for=DATABASE_DOWN, retry_backoff=True, max_retries=5)
def import_bsw_chunk(job_id: int, paths: list[str], bsw_scoring: bool = False, anonymise: bool = False) -> dict:
    """Import a chunk of files for an ImportJob, moving its counters after each file. Safe to
    run twice (at-least-once delivery): the files already imported are skipped by their hash.
    A redelivered chunk counts its files again, so the counters can pass the total; the job is
    finished when they reach it."""
    job = ImportJob.objects.select_related("club").get(pk=job_id)
    outcome = {"done": 0, "skipped": 0, "failed": 0}
    for raw in paths:
        path = Path(raw)
        try:
            result, stored = import_file(
                club=job.club, path=path, job=job, bsw_scoring=bsw_scoring, anonymise=anonymise
            )
        except (OSError, ValueError) as exc:  # unreadable file: that file fails, the chunk goes on
            logger.warning("%s: not imported: %s", path, exc)
            result, stored = "failed", 0
        outcome[result] += 1
        counters = {_COUNTER[result]: F(_COUNTER[result]) + 1}
        if stored:
            counters["games_stored"] = F("games_stored") + stored
        ImportJob.objects.filter(pk=job_id).update(**counters)  # one statement a file
    job.refresh_from_db()
    if job.finished_at is None and job.files_handled >= job.files_total:
        if ImportJob.objects.filter(pk=job_id, finished_at__isnull=True).update(finished_at=timezone.now()):
            _queue_rating(job_id)  # by the one chunk that finished the job
    return outcome


def _queue_rating(job_id: int) -> None:
    """The job's one rating recompute (games.ratings.tasks.rate_import_job, via the hook)."""
    try:
        hooks.import_job_finished.send(job_id)
    except Exception:  # noqa: BLE001 - broker down: the held rows go to the sweep when the hold ends
        logger.warning(
            "import job %s: rating recompute not queued; the outbox sweep rates its games later", job_id, exc_info=True
        )
