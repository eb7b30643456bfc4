"""`python manage.py import_tournament FILE --club SLUG --user NAME [--aragos [--name NAME]]`: a
results file into a new tournament of the club, through the service behind
`POST /api/tournaments/import/` (the user must be a scorer or admin of the club). Our format
(`tichu-tournament-results/1`) round trips exactly; `--aragos` reads aragos/tichu-tournament's
tournament JSON (docs/tournament.md, "Results format: import"). All or nothing: a refusal prints
its code and stores nothing."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games import storable
from games.management.commands._importing import club_by_slug
from games.services import ServiceError
from games.tournaments import results_import


class Command(BaseCommand):
    help = "Import a tournament from a results file (ours or aragos/tichu-tournament's JSON) into a club."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="the results file (.json)")
        parser.add_argument("--club", required=True, help="slug of the club the tournament goes to")
        parser.add_argument("--user", required=True, help="username of the TD (a scorer or admin of the club)")
        parser.add_argument("--aragos", action="store_true", help="the file is aragos/tichu-tournament's JSON")
        parser.add_argument("--name", help="with --aragos: the tournament's name instead of the file's")

    def handle(self, *args, path, club, user, aragos, name, **options) -> None:
        target = club_by_slug(club)
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no user {user!r}")
        try:
            with open(path, encoding="utf-8") as f:
                data = storable.loads(f.read())
        except (OSError, ValueError) as exc:
            raise CommandError(f"{path}: cannot be read as JSON: {exc}") from None
        try:
            if aragos:
                body = results_import.import_aragos(club=target, data=data, user=account, name=name).body
            else:
                body = results_import.import_results(club=target, data=data, user=account).body
        except ServiceError as exc:
            code = getattr(exc, "code", "invalid")
            raise CommandError(f"{path}: refused ({code}): {exc}; nothing stored") from None
        self.stdout.write(json.dumps({"ok": True, **body}))
