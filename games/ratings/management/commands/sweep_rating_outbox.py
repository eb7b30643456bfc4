"""Queue the rating task of every game left in the rating outbox (docs/ratings.md, "Delivery").

    manage.py sweep_rating_outbox               # what Celery beat runs every TICHU_OUTBOX_SWEEP_S
    manage.py sweep_rating_outbox --grace 0     # also the rows written in the last 30 s

Use it after a broker outage when no beat is running; with the embedded default (tasks run
in-process) it rates the games itself.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.ratings.outbox import sweep


class Command(BaseCommand):
    help = "Queue the rating tasks the broker lost (the rating outbox's rows still waiting)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--grace",
            type=float,
            default=None,
            help="only rows older than this many seconds (default RATINGS_OUTBOX_GRACE_S)",
        )
        parser.add_argument(
            "--requeue",
            type=float,
            default=None,
            help="skip rows a sweep queued less than this many seconds ago (default RATINGS_OUTBOX_REQUEUE_S)",
        )

    def handle(self, *args, grace=None, requeue=None, **options):
        done = sweep(grace_s=grace, requeue_s=requeue)
        self.stdout.write(
            f"{done['queued']} game(s) queued, {done['failed']} not; {done['pending']} outbox row(s) pending"
        )
        if done["failed"]:
            raise CommandError("the broker refused the tasks: is it up? (the rows stay in the outbox)")
