"""`python manage.py seed_demo`: a public demo club with complete bot-played games.

Idempotent: the demo club's games are created in seed order inside one transaction holding the
club row's lock, so a second run finds them and adds nothing (or only the missing ones when
--games grows)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.engine import random_game
from games.models import Club, Membership
from games.services import game_import

DEMO_SLUG = "demo"
DEMO_USER = "demo"
DEMO_PLAYERS = [
    ["Ann", "Bob", "Cid", "Dee"],
    ["Eve", "Ann", "Fay", "Bob"],
    ["Cid", "Gus", "Dee", "Hal"],
    ["Ann", "Hal", "Eve", "Gus"],
]
FIRST_SEED = 1


class Command(BaseCommand):
    help = "Create the demo club with complete bot-played games (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=6, help="how many demo games the club should hold (default 6)")

    def handle(self, *args, games: int, **options) -> None:
        user, created = get_user_model().objects.get_or_create(username=DEMO_USER)
        if created:  # a bot account: nobody logs in as it
            user.set_unusable_password()
            user.save(update_fields=["password"])
        with transaction.atomic():
            club, _ = Club.objects.get_or_create(
                slug=DEMO_SLUG, defaults={"name": "Demo club", "visibility": Club.Visibility.PUBLIC}
            )
            club = Club.objects.select_for_update().get(pk=club.pk)
            Membership.objects.get_or_create(club=club, user=user, defaults={"role": Membership.Role.SCORER})
            existing = club.games.count()
            for i in range(existing, games):
                record = random_game(FIRST_SEED + i, players=DEMO_PLAYERS[i % len(DEMO_PLAYERS)])
                record["meta"] = {"source": "seed_demo", "seed": FIRST_SEED + i}
                game_import(club=club, record=record, user=user)
        created = max(0, games - existing)
        self.stdout.write(f"demo club {DEMO_SLUG!r}: {max(existing, games)} games ({created} created)")
