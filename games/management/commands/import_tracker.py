"""`python manage.py import_tracker FILE --club SLUG`: a Tichu-Tracker score-sheet history
(docs/importers.md) into a club, one game of `hand_result` lines per tracked game, each checked
against the app's own totals."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games import storable
from games.engine import convert_tracker, fold, score_json
from games.management.commands._importing import club_by_slug
from games.services import ServiceError, game_import


class Command(BaseCommand):
    help = "Import a Tichu-Tracker history (allgames.converted.json) as score-sheet games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the app's exported JSON")
        parser.add_argument("--club", required=True, help="slug of the club the games go to")
        parser.add_argument("--dry-run", action="store_true", help="check and report, store nothing")
        parser.add_argument(
            "--stopped-games-end", action="store_true",
            help="a game the group stopped before its target is recorded as a game of the hands it had "
                 "(option hands): finished, won by the side ahead, rated; by default it stays unfinished",
        )

    def handle(self, *args, path, club, dry_run, stopped_games_end, **options) -> None:
        target = club_by_slug(club)
        try:
            data = storable.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CommandError(f"{path}: {exc}") from None
        records = convert_tracker(data, stopped_games_end=stopped_games_end)
        equal = stored = 0
        stopped = sum(1 for r in records if r["meta"].get("stopped_early"))
        for record in tqdm(records, desc="games", unit="game", file=self.stderr):
            totals = score_json(fold(record))["totals"]
            app = (record.get("meta") or {}).get("team_scores")
            if app is None or totals == list(app):
                equal += 1
            else:
                self.stdout.write(f"  game {record['meta'].get('game_id')}: app {app}, engine {totals}")
            if not dry_run:
                try:
                    game_import(club=target, record=record, user=None)
                    stored += 1
                except ServiceError as exc:
                    self.stdout.write(self.style.ERROR(f"  game {record['meta'].get('game_id')}: not stored: {exc}"))
        self.stdout.write(f"{path}: {len(records)} games, {equal} with the app's totals, {stored} stored"
                          + (f", {stopped} ended where they stopped" if stopped_games_end else ""))
