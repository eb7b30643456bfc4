"""The rating tasks (Celery): thin entry points that fetch by id and call a service.

Their names are the dotted names they had in games.tasks and games.import_tasks before the ratings
became an app of their own: queued messages and the beat schedule refer to them.

Every task here is idempotent, because delivery is at least once (docs/ratings.md, "Delivery"):
acks_late (the message is acknowledged after the task ends, so a worker killed mid-task leaves it
to be redelivered), the outbox sweep re-queues what a broker outage lost, and a row may be queued
by the commit and by a sweep both.
"""

import logging
import threading

from celery import shared_task

from games.clubs import feed
from games.models import ImportJob
from games.tasks import DATABASE_DOWN

from .models import RatingOutbox
from .outbox import sweep
from .services import apply_game, recompute_club

logger = logging.getLogger(__name__)

#: How often a running recompute reports that it is alive (`manage.py recompute_ratings --queue`
#: gives up when its task has been silent for much longer than this).
HEARTBEAT_S = 5.0


@shared_task(
    name="games.tasks.update_ratings_for_game",
    bind=True,
    acks_late=True,
    ignore_result=True,
    autoretry_for=DATABASE_DOWN,
    retry_backoff=True,
    max_retries=5,
)
def update_ratings_for_game(self, game_id: int) -> str:
    """Queued from the rating outbox when a game finishes or is reopened (games/ratings/outbox.py):
    bring the ratings in line with the game's current fold and delete its outbox rows. A
    database outage is retried with backoff; a task that still fails leaves the outbox row, which
    the sweep queues again."""
    done = apply_game(game_id)
    logger.info("game %s: ratings %s", game_id, done)
    return done


@shared_task(name="games.tasks.sweep_rating_outbox", acks_late=True, ignore_result=True)
def sweep_rating_outbox(grace_s: float | None = None) -> dict:
    """Queue the rating task of every game left in the outbox: from Celery beat (rows older than
    the grace period), and with grace_s=0 whenever a worker (re)connects to the broker."""
    return sweep(grace_s=grace_s)


class _Reporter:
    """The recompute's task state: the latest progress, and a heartbeat thread that re-sends it
    every HEARTBEAT_S with a counter, so that a follower can tell a silent (dead) worker from a
    slow stage. One lock orders the two writers."""

    def __init__(self, task, club_id):
        self.task, self.meta, self.beat = task, {"stage": "start", "done": 0, "total": 0, "club": club_id}, 0
        self.lock, self.stopped = threading.Lock(), threading.Event()

    def send(self, **meta) -> None:
        if self.task.request.id is None:  # called directly, not as a task: nobody follows
            return
        with self.lock:
            if self.stopped.is_set():  # the task has returned: its SUCCESS state must stay last
                return
            self.meta.update(meta)
            self.beat += 1
            try:
                self.task.update_state(state="PROGRESS", meta={**self.meta, "beat": self.beat})
            except Exception:  # a result backend hiccup never stops the recompute
                logger.warning("progress report failed", exc_info=True)

    def _run(self) -> None:
        while not self.stopped.wait(HEARTBEAT_S):
            self.send()

    def __enter__(self):
        self.send()
        threading.Thread(target=self._run, name="recompute-heartbeat", daemon=True).start()
        return self

    def __exit__(self, *exc):
        with self.lock:  # waits for a report in flight
            self.stopped.set()


@shared_task(name="games.tasks.recompute_ratings", bind=True, acks_late=True)
def recompute_ratings(self, club_id: int | None = None, refold: bool = False) -> list:
    """Full, deterministic recompute of one club's rating pools (every club with club_id=None).
    Reports progress as task state PROGRESS with meta {stage, done, total, club, beat} (stage
    "start" with 0/0 before the first stage, then fold, rate, write); `beat`
    grows at least every HEARTBEAT_S while the task runs."""
    with _Reporter(self, club_id) as reporter:
        done = recompute_club(
            club_id,
            refold=refold,
            progress=lambda stage, done, total: reporter.send(stage=stage, done=done, total=total),
        )
    games_per_club: dict[int, int] = {}
    for pool in done:
        games_per_club[pool["club"]] = games_per_club.get(pool["club"], 0) + pool["games"]
    for club, games in sorted(games_per_club.items()):
        feed.ratings_recomputed(club, games)  # what a club's bot posts: the league changed
    return done


@shared_task(
    name="games.import_tasks.rate_import_job",
    acks_late=True,
    ignore_result=True,
    autoretry_for=DATABASE_DOWN,
    retry_backoff=True,
    max_retries=5,
)
def rate_import_job(job_id: int) -> dict:
    """One recompute of the club's rating pools for a finished import job, instead of a task per
    game: every outbox row of the club's games present before the recompute is covered by it (it
    rates each finished game at its current seq, folding the outcomes that are missing or stale)
    and is deleted after it. A row written meanwhile (a game changed during the recompute) stays
    for its own task. Idempotent: a second run recomputes the same table."""
    job = ImportJob.objects.filter(pk=job_id).only("club_id").first()
    if job is None:
        return {"pools": 0}
    covered = list(RatingOutbox.objects.filter(game__club_id=job.club_id).values_list("pk", flat=True))
    if not covered:
        return {"pools": 0}
    pools = recompute_club(job.club_id)
    RatingOutbox.objects.filter(pk__in=covered).delete()
    return {"pools": len(pools), "games": len(covered)}
