"""`python manage.py import_records FILE_OR_FOLDER... --club SLUG`: tichu-record/1 files (one
record, or a JSON list of records as `from-bsw` prints) into a club, through the same service as
`POST /api/games/import/`. Finished games queue their rating update like any other. Each file is
stored in one transaction; a record the club imported before is not stored again (a file already
imported is skipped and reported)."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import transaction
from tqdm import tqdm

from games import storable
from games.management.commands._importing import club_by_slug, input_files
from games.services import RuleViolation, ServiceError, game_import


class Command(BaseCommand):
    help = "Import game records (record-format.md section 1) into a club."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", help="record files (.json) or folders holding them")
        parser.add_argument("--club", required=True, help="slug of the club the games go to")

    def handle(self, *args, paths, club, **options) -> None:
        target = club_by_slug(club)
        files = input_files(paths, ".json")
        stored = refused = already = 0
        for path in tqdm(files, desc="record files", unit="file", disable=len(files) < 2, file=self.stderr):
            try:
                data = storable.loads(path.read_text(encoding="utf-8"))
            except storable.UnstorableJson as exc:
                self.stdout.write(self.style.ERROR(f"{path}: cannot be stored: {exc}"))
                refused += 1
                continue
            except (OSError, ValueError) as exc:
                self.stdout.write(self.style.ERROR(f"{path}: not JSON: {exc}"))
                refused += 1
                continue
            records = data if isinstance(data, list) else [data]
            known = 0
            with transaction.atomic():  # a file's games are stored together, or none of them
                for number, record in enumerate(records, start=1):
                    try:
                        result = game_import(club=target, record=record, user=None)
                    except RuleViolation as exc:
                        refused += 1
                        self.stdout.write(
                            self.style.ERROR(
                                f"{path} record {number}: event {exc.index} refused: {exc.error.code}: {exc.error.message}"
                            )
                        )
                        continue
                    except ServiceError as exc:
                        refused += 1
                        self.stdout.write(self.style.ERROR(f"{path} record {number}: {exc}"))
                        continue
                    if result.created:
                        stored += 1
                    else:
                        known += 1
            already += known
            if records and known == len(records):
                self.stdout.write(f"{path}: already imported ({known} games), skipped")
        self.stdout.write(
            f"{len(files)} files: {stored} games stored, {refused} refused"
            + (f", {already} already imported" if already else "")
        )
