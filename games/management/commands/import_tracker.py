"""`python manage.py import_tracker FILE --club SLUG`: a Tichu-Tracker score-sheet history
(docs/importers.md) into a club, one game of `hand_result` lines per tracked game, each checked
against the app's own totals. The file's games are stored in one transaction; a game the club
imported before is not stored again (a file already imported is skipped and reported)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from games import storable
from games.engine import TrackerFormatError, convert_tracker, fold, score_json
from games.management.commands._importing import club_by_slug
from games.services import ServiceError, game_import


class Command(BaseCommand):
    help = "Import a Tichu-Tracker history (allgames.converted.json) as score-sheet games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the app's exported JSON")
        parser.add_argument("--club", required=True, help="slug of the club the games go to")
        parser.add_argument("--dry-run", action="store_true", help="check and report, store nothing")
        parser.add_argument(
            "--stopped-games-end",
            action="store_true",
            help="a game the group stopped before its target is recorded as a game of the hands it had "
            "(option hands): finished, won by the side ahead, rated; by default it stays unfinished",
        )

    def handle(self, *args, path, club, dry_run, stopped_games_end, **options) -> None:
        target = club_by_slug(club)
        try:
            data = storable.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CommandError(f"{path}: {exc}") from None
        try:
            records = convert_tracker(data, stopped_games_end=stopped_games_end)
        except TrackerFormatError as exc:
            raise CommandError(f"{path}: not a Tichu-Tracker export: {exc}") from None
        equal = stored = already = 0
        stopped = sum(1 for r in records if r["meta"].get("stopped_early"))
        undated = sum(1 for r in records if r["meta"].get("played_at") is None)
        with transaction.atomic():  # the file's games are stored together, or none of them
            for record in tqdm(records, desc="games", unit="game", file=self.stderr):
                totals = score_json(fold(record))["totals"]
                app = (record.get("meta") or {}).get("team_scores")
                if app is None or totals == list(app):
                    equal += 1
                else:
                    self.stdout.write(f"  game {record['meta'].get('game_id')}: app {app}, engine {totals}")
                if not dry_run:
                    try:
                        result = game_import(club=target, record=record, user=None)
                    except ServiceError as exc:
                        self.stdout.write(
                            self.style.ERROR(f"  game {record['meta'].get('game_id')}: not stored: {exc}")
                        )
                        continue
                    if result.created:
                        stored += 1
                    else:
                        already += 1
        if records and already == len(records):
            self.stdout.write(f"{path}: already imported ({already} games), skipped")
        self.stdout.write(
            f"{path}: {len(records)} games, {equal} with the app's totals, {stored} stored"
            + (f", {already} already imported" if already else "")
            + (f", {stopped} ended where they stopped" if stopped_games_end else "")
            + (f", {undated} without a date in the sheet (dated by the import)" if undated else "")
        )
