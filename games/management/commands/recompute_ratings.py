"""Full, deterministic recompute of the ratings, with a progress bar.

    manage.py recompute_ratings                 # every club
    manage.py recompute_ratings --club 3        # one club (id or slug)
    manage.py recompute_ratings --refold        # rebuild every game's outcome from its events first
    manage.py recompute_ratings --queue         # run it as a Celery task instead, and follow it
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

    def handle(self, *args, club=None, refold=False, queue=False, no_progress=False, **options):
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
                bar = bars[stage] = tqdm(total=total, desc=labels.get(stage, stage), unit="",
                                         file=self.stderr._out, leave=False)
            bar.update(done - bar.n)

        t0 = time.perf_counter()
        if queue:
            from games.tasks import recompute_ratings

            result = recompute_ratings.delay(club_id, refold)
            while not result.ready():
                meta = result.info if isinstance(result.info, dict) else {}
                if result.state == "PROGRESS" and meta:
                    progress(meta["stage"], meta["done"], meta["total"])
                time.sleep(0.5)
            summary = result.get()
        else:
            from games.ratings.services import recompute_club

            summary = recompute_club(club_id, refold=refold, progress=progress)
        for bar in bars.values():
            bar.close()
        for pool in summary:
            self.stdout.write(f"club {pool['club']} {pool['variant']}: {pool['games']} games, "
                              f"{pool['players']} players, {pool['changes']} rating changes")
        self.stdout.write(self.style.SUCCESS(
            f"recomputed {len(summary)} pool(s) in {time.perf_counter() - t0:.1f} s"))
