"""`python manage.py import_bsw FILE_OR_FOLDER... --club SLUG`: Brettspielwelt logs into a club.

Every game found in every `.tch` file is converted (games.engine.bsw), folded by the engine and
compared hand by hand with the log's `Ergebnis` (games.engine.bsw_check); the games the engine
accepts are stored through the same service as the API's import: each file in one transaction, and
a game the club imported before is not stored again (a file already imported is skipped and
reported). The report names, per file, the
games, the hands, the hands whose score equals the log, and every difference with its reason.
"""

from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.importing import import_bsw_log
from games.management.commands._importing import club_by_slug, input_files


class Command(BaseCommand):
    help = "Import Brettspielwelt .tch logs into a club, checking every hand's score against the log."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", help=".tch files or folders holding them")
        parser.add_argument("--club", required=True, help="slug of the club the games go to")
        parser.add_argument("--anonymise", action="store_true", help="store Player 1..4 instead of BSW handles")
        parser.add_argument(
            "--bsw-scoring",
            action="store_true",
            help="score with BSW's reading of two Grand Tichu calls in one team (house rule)",
        )
        parser.add_argument("--dry-run", action="store_true", help="check and report, store nothing")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument(
            "--workers",
            action="store_true",
            help="queue the files as Celery tasks (chunks of files) for the workers, follow them "
            "with a progress bar; files already imported are skipped by their content hash",
        )
        parser.add_argument(
            "--chunk",
            type=int,
            default=None,
            help="with --workers: files per task (default games.import_tasks.CHUNK_FILES)",
        )
        parser.add_argument(
            "--stall-timeout",
            type=float,
            default=300.0,
            help="with --workers: give up (exit non-zero) after this many seconds without progress",
        )

    def handle(
        self,
        *args,
        paths,
        club,
        anonymise,
        bsw_scoring,
        dry_run,
        json: bool,
        workers: bool,
        stall_timeout: float,
        chunk: int | None,
        **options,
    ) -> None:
        target = club_by_slug(club)
        files = input_files(paths, ".tch")
        if workers:
            if dry_run or json:
                raise CommandError("--workers stores and follows; it takes neither --dry-run nor --json")
            self._on_workers(
                target, files, bsw_scoring=bsw_scoring, anonymise=anonymise, stall_timeout=stall_timeout, chunk=chunk
            )
            return
        report = []
        for path in tqdm(files, desc="BSW logs", unit="file", disable=json or len(files) < 2, file=self.stderr):
            entry = {
                "file": str(path),
                **import_bsw_log(
                    club=target,
                    text=path.read_text(encoding="latin-1"),
                    user=None,
                    bsw_scoring=bsw_scoring,
                    anonymise=anonymise,
                    game_id=path.stem if path.stem.isdigit() else None,
                    dry_run=dry_run,
                    path=path,
                ).body,
            }
            report.append(entry)
        if json:
            self.stdout.write(_json_dumps(report))
            return
        for entry in report:
            if entry["already_imported"] and not entry["stored"] and not entry["errors"]:
                self.stdout.write(f"{entry['file']}: already imported ({entry['already_imported']} games), skipped")
                continue
            self.stdout.write(
                f"{entry['file']}: {entry['games']} games, {entry['hands']} hands, "
                f"{entry['equal']} equal to the log's Ergebnis, {entry['stored']} games stored"
                + (f", {entry['already_imported']} already imported" if entry["already_imported"] else "")
            )
            for d in entry.get("dates", []):
                if d["played_at"] is None:
                    self.stdout.write(
                        f"  game {d['game']}: no date (the log has none, its file name is no game id and "
                        "its folder no YYYYMM month): dated by its import"
                    )
            for m in entry["hands_mended"]:
                self.stdout.write(
                    f"  game {m['game']} hand {m['hand']} (line {m['line']}): {m['action']}: {m['reason']}"
                )
            for d in entry["differences"]:
                self.stdout.write(
                    f"  game {d['game']} hand {d['hand']}: log {d['expected']}, engine {d['computed']}: {d['reason']}"
                )
            for e in entry["errors"]:
                self.stdout.write(self.style.ERROR(f"  {e}"))

    def _on_workers(
        self, club, files, *, bsw_scoring: bool, anonymise: bool, stall_timeout: float, chunk: int | None
    ) -> None:
        from games.import_tasks import chunks, import_bsw_chunk
        from games.models import ImportJob

        job = ImportJob.objects.create(club=club, files_total=len(files))
        self.stderr.write(f"import job {job.pk}: {len(files)} files for club {club.slug}")
        for part in chunks(files, chunk):
            import_bsw_chunk.delay(job.pk, part, bsw_scoring=bsw_scoring, anonymise=anonymise)
        with tqdm(total=len(files), desc="BSW logs", unit="file", file=self.stderr) as bar:
            last_change, seen = time.monotonic(), -1
            while True:
                job.refresh_from_db()
                handled = min(job.files_handled, job.files_total)
                bar.update(handled - bar.n)
                if handled >= job.files_total:
                    break
                if handled != seen:
                    last_change, seen = time.monotonic(), handled
                elif time.monotonic() - last_change > stall_timeout:
                    raise CommandError(
                        f"import job {job.pk}: no progress for {stall_timeout:g} s at "
                        f"{handled}/{job.files_total} files: are the Celery workers running? "
                        f"Run the same command again to resume (imported files are skipped)."
                    )
                time.sleep(0.5)
        self.stdout.write(
            f"import job {job.pk}: {job.files_done} files imported, {job.files_skipped} skipped "
            f"(already imported), {job.files_failed} failed, {job.games_stored} games stored"
        )
        if job.files_failed:
            raise CommandError(f"{job.files_failed} files failed: run without --workers on them for the report")


def _json_dumps(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)
