"""Full, deterministic recompute of the ratings, with a progress bar.

    manage.py recompute_ratings                 # every club
    manage.py recompute_ratings --club 3        # one club (id or slug)
    manage.py recompute_ratings --refold        # rebuild every game's outcome from its events first
    manage.py recompute_ratings --queue         # run it as a Celery task instead, and follow it

With --queue the command ends with an error (exit 1) instead of waiting for ever when no worker
takes the task within --start-timeout seconds, or when the running task stops reporting: it
sends a heartbeat every games.ratings.tasks.HEARTBEAT_S seconds, and --stall-timeout seconds without a
new one means its worker died (the recompute is one transaction, so the tables are unchanged;
acks_late redelivers the task once the broker's visibility timeout has passed).
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.models import Club


class Command(BaseCommand):
    help = "Recompute the rating tables from the finished games, in finishing order (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="club id or slug (default: every club)")
        parser.add_argument("--refold", action="store_true", help="re-fold every game's outcome from its events")
        parser.add_argument("--queue", action="store_true", help="run as a Celery task and poll its progress")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument(
            "--start-timeout",
            type=float,
            default=600.0,
            help="--queue: seconds to wait for a worker to start the task (default 600)",
        )
        parser.add_argument(
            "--stall-timeout",
            type=float,
            default=60.0,
            help="--queue: seconds without a heartbeat from the running task before giving up (default 60)",
        )

    def handle(
        self,
        *args,
        club=None,
        refold=False,
        queue=False,
        no_progress=False,
        start_timeout=600.0,
        stall_timeout=60.0,
        **options,
    ):
        club_id = None
        if club is not None:
            found = Club.objects.filter(pk=int(club)) if club.isdigit() else Club.objects.filter(slug=club)
            obj = found.first()
            if obj is None:
                raise CommandError(f"no club {club!r}")
            club_id = obj.pk
        bars: dict[str, tqdm] = {}
        labels = {"fold": "folding games", "rate": "rating", "write": "writing rows"}

        def progress(stage: str, done: int, total: int) -> None:
            if no_progress:
                return
            bar = bars.get(stage)
            if bar is None or bar.total != total or done < bar.n:
                if bar is not None:
                    bar.close()
                bar = bars[stage] = tqdm(
                    total=total, desc=labels.get(stage, stage), unit="", file=self.stderr._out, leave=False
                )
            bar.update(done - bar.n)

        t0 = time.perf_counter()
        if queue:
            from games.ratings.tasks import recompute_ratings

            result = recompute_ratings.delay(club_id, refold)
            follow(result, progress, start_timeout, stall_timeout)
            summary = result.get()
        else:
            from games.ratings.services import recompute_club

            summary = recompute_club(club_id, refold=refold, progress=progress)
        for bar in bars.values():
            bar.close()
        for pool in summary:
            self.stdout.write(
                f"club {pool['club']} {pool['variant']}: {pool['games']} games, "
                f"{pool['players']} players, {pool['changes']} rating changes"
            )
        self.stdout.write(self.style.SUCCESS(f"recomputed {len(summary)} pool(s) in {time.perf_counter() - t0:.1f} s"))


def follow(result, progress, start_timeout: float, stall_timeout: float, poll: float = 0.5) -> None:
    """Poll a queued recompute until it is ready, or raise CommandError when no worker starts it
    in `start_timeout` s or its heartbeat (meta `beat`, or any change of state) stops for
    `stall_timeout` s. Times are this process's own clock: the worker's may differ."""
    started = time.monotonic()
    last_seen, last_change = None, started
    while True:
        state = result.state
        if state in ("SUCCESS", "FAILURE", "REVOKED"):
            return
        info = result.info if isinstance(result.info, dict) else {}
        now = time.monotonic()
        seen = (state, info.get("beat"), info.get("done"))
        if seen != last_seen:
            last_seen, last_change = seen, now
        if state == "PROGRESS" and info.get("stage") in ("fold", "rate", "write"):
            progress(info["stage"], info["done"], info["total"])
        if state == "PENDING" and now - started > start_timeout:
            raise CommandError(
                f"no Celery worker started the recompute (task {result.id}) within "
                f"{start_timeout:.0f} s; is a worker running on this broker?"
            )
        if state != "PENDING" and now - last_change > stall_timeout:
            raise CommandError(
                f"the recompute (task {result.id}) has not reported for {stall_timeout:.0f} s: "
                f"its worker stopped or died. The rating tables are unchanged (the recompute "
                f"is one transaction); run the command again."
            )
        time.sleep(poll)
