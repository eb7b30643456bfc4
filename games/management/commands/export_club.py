"""`python manage.py export_club CLUB FILE`: everything of one club in one archive file
(games.clubs.archive; docs/club-archive.md). `-` writes to standard output. `--emails` adds the
members' e-mail addresses (the site's and the API's exports never carry them)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.clubs.archive import write_archive
from games.management.commands._importing import club_by_slug


class Command(BaseCommand):
    help = "Write one club's archive (docs/club-archive.md)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("club", help="the club's slug")
        parser.add_argument("file", help="the archive to write (.jsonl.gz), or - for standard output")
        parser.add_argument(
            "--emails",
            action="store_true",
            help="carry the members' e-mail addresses (so that a created account can reset its password)",
        )

    def handle(self, *args, club, file, emails, **options) -> None:
        target = club_by_slug(club)
        if file == "-":
            counts = write_archive(target, sys.stdout.buffer, emails=emails)
        else:
            path = Path(file)
            # written beside and renamed: a failed export never leaves half an archive under the name
            try:
                fd, temp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
            except OSError as exc:
                raise CommandError(f"cannot write {file}: {exc}") from None
            try:
                with os.fdopen(fd, "wb") as out:
                    counts = write_archive(target, out, emails=emails)
                os.replace(temp, path)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
        self.stderr.write(f"club {target.slug}: {summary}")
