"""The rating task's transactional outbox (docs/ratings.md, "Delivery").

* `record(game)`: called by the append (games.services) inside its transaction when the game
  finishes, is reopened by an `undo`, or gets an event while finished. The row commits or rolls
  back with the events, so a committed finish always leaves either a row or its handled result.
  After the commit the task is published once, with no broker retry: a broker that is down costs
  the request one refused connection and a warning, never the answer or a wait.
* `handled(game_id, seq)`: the task deletes the rows up to the seq it brought the ratings to.
* `sweep(publish)`: re-publishes the rows still there after `GRACE_S` (their message was lost:
  broker down at the commit, or a worker killed with the task in hand), at most once per
  `REQUEUE_S` per row, so that a long queue is not multiplied by every sweep. Run by Celery beat
  every `SWEEP_S`, on worker start, and by `manage.py sweep_rating_outbox`.

* `record_held(games)`: the bulk import's rows (games.bulk_store): written with the events as
  `record` writes them, but published by no commit: the import job rates the club once when its
  last file is in (games.import_tasks.rate_import_job, which deletes the rows it covered). A held
  row carries a `queued_at` `IMPORT_HOLD_S` in the future, so that the sweep leaves it to the job
  meanwhile; a job that never ends (its workers stopped for good) leaves its rows to the sweep
  after that, which rates them game by game. Either way no finished game goes unrated.

A task is idempotent (it brings the ratings in line with the game's current fold), so a message
delivered twice, or a sweep racing the original message, changes nothing.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Callable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import RatingOutbox

logger = logging.getLogger(__name__)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def record(game) -> None:
    """Write the game's outbox row (inside the caller's transaction) and publish on commit."""
    RatingOutbox.objects.create(game_id=game.pk, seq=game.seq, created_at=timezone.now())
    game_id = game.pk
    transaction.on_commit(lambda: publish(game_id))


def record_held(games) -> None:
    """The outbox rows of finished games stored by a bulk import (inside its transaction), held
    for the import job's one rating recompute instead of one task each (see above)."""
    if not games:
        return
    now = timezone.now()
    hold = now + timedelta(seconds=_setting("RATINGS_OUTBOX_IMPORT_HOLD_S", 3600))
    RatingOutbox.objects.bulk_create(
        [RatingOutbox(game_id=g.pk, seq=g.seq, created_at=now, queued_at=hold) for g in games]
    )


def publish(game_id: int) -> bool:
    """Queue the rating task of a game; False (logged) when the broker refused it. Never raises:
    this runs after the commit, where an exception would turn a stored write into an error."""
    from .tasks import update_ratings_for_game  # the tasks import this module

    app = update_ratings_for_game.app
    try:
        if app.conf.task_always_eager:
            update_ratings_for_game.apply_async((game_id,))
            return True
        # One attempt, on a connection of its own that does not retry either (kombu's default
        # channel would retry the connect for broker_connection_timeout). The row stays in the
        # outbox until a task handles it, so the sweep, not this request, waits for the broker.
        with app.connection_for_write(transport_options={"max_retries": 0}) as connection:
            update_ratings_for_game.apply_async((game_id,), retry=False, connection=connection)
    except Exception:  # noqa: BLE001 - any broker or task failure: the sweep delivers it later
        logger.warning("rating task of game %s not queued now; the outbox sweep will queue it", game_id, exc_info=True)
        return False
    return True


def handled(game_id: int, seq: int) -> None:
    """The ratings now reflect the game at `seq`: its rows up to there are done."""
    RatingOutbox.objects.filter(game_id=game_id, seq__lte=seq).delete()


def pending(older_than_s: float = 0.0):
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    return RatingOutbox.objects.filter(created_at__lte=cutoff)


def sweep(
    publish_one: Callable[[int], bool] = publish, *, grace_s: float | None = None, requeue_s: float | None = None
) -> dict:
    """Publish the task of every game with an outbox row older than `grace_s` that no sweep queued
    in the last `requeue_s` seconds. Returns counts for the log and the command."""
    grace_s = _setting("RATINGS_OUTBOX_GRACE_S", 30) if grace_s is None else grace_s
    requeue_s = _setting("RATINGS_OUTBOX_REQUEUE_S", 300) if requeue_s is None else requeue_s
    now = timezone.now()
    rows = pending(grace_s).exclude(queued_at__gt=now - timedelta(seconds=requeue_s))
    games = sorted(set(rows.values_list("game_id", flat=True)))
    queued = failed = 0
    for game_id in games:
        if publish_one(game_id):
            RatingOutbox.objects.filter(game_id=game_id).update(queued_at=timezone.now())
            queued += 1
        else:
            failed += 1
    if games:
        logger.info("rating outbox sweep: %s game(s) queued, %s not", queued, failed)
    return {"queued": queued, "failed": failed, "pending": RatingOutbox.objects.count()}
