"""`python manage.py import_club FILE [--slug SLUG]`: a club's archive (docs/club-archive.md) into
this site, as a new club, in one transaction; a refused archive stores nothing and says why (its
code and words). The club's ratings are recomputed after the commit (queued like any recompute)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.clubs.archive import ArchiveError, import_archive


class Command(BaseCommand):
    help = "Import a club's archive as a new club (docs/club-archive.md)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the archive (.jsonl.gz)")
        parser.add_argument("--slug", help="import the club under this slug (when its own is taken here)")

    def handle(self, *args, file, slug, **options) -> None:
        try:
            with open(file, "rb") as data:
                done = import_archive(data, slug=slug)
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        except ArchiveError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from None
        summary = ", ".join(f"{n} {kind}" for kind, n in done.counts.items())
        self.stdout.write(f"imported club {done.club.slug}: {summary}")
        if done.users_created:
            self.stdout.write(
                f"accounts created without a password (they set one by a password reset): "
                f"{', '.join(done.users_created)}"
            )
