"""`python manage.py seed_demo`: a public demo club with complete bot-played games, and three
demo accounts to sign in with (admin, scorer, viewer of the demo club), printed at the end.

Idempotent: the demo club's games are created in seed order inside one transaction holding the
club row's lock, so a second run finds them and adds nothing (or only the missing ones when
--games grows). The demo accounts get their documented password when they are created, and only
where the site runs with DEBUG on or with --demo-passwords: on a public site a password everyone
knows is a door left open (their password is then unusable until the operator sets one)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.engine import random_game
from games.models import Club, Membership
from games.services import game_import

DEMO_SLUG = "demo"
DEMO_USER = "demo"  # the bot that recorded the demo games: nobody signs in as it
#: username -> role in the demo club; each signs in with DEMO_PASSWORD
DEMO_ACCOUNTS = {
    "demo-admin": Membership.Role.ADMIN,
    "demo-scorer": Membership.Role.SCORER,
    "demo-viewer": Membership.Role.VIEWER,
}
DEMO_PASSWORD = "tichu-demo"
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
        parser.add_argument(
            "--demo-passwords",
            action="store_true",
            help="give the demo accounts their documented password even with DEBUG off",
        )

    def handle(self, *args, games: int, demo_passwords: bool = False, **options) -> None:
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
            with_password = self._demo_accounts(club, settings.DEBUG or demo_passwords)
        created = max(0, games - existing)
        self.stdout.write(f"demo club {DEMO_SLUG!r}: {max(existing, games)} games ({created} created)")
        self.stdout.write("demo accounts (sign in at /accounts/sign-in/):")
        for username, role in DEMO_ACCOUNTS.items():
            how = f"password {DEMO_PASSWORD!r}" if username in with_password else "no usable password (DEBUG off)"
            self.stdout.write(f"  {username:<12} {role:<7} in the demo club, {how}")

    def _demo_accounts(self, club: Club, passwords: bool) -> set[str]:
        """Create the demo accounts that are missing; the names of those with the demo password."""
        with_password = set()
        for username, role in DEMO_ACCOUNTS.items():
            user, created = get_user_model().objects.get_or_create(username=username)
            if created:
                if passwords:
                    user.set_password(DEMO_PASSWORD)
                else:
                    user.set_unusable_password()
                user.save(update_fields=["password"])
            if user.check_password(DEMO_PASSWORD):
                with_password.add(username)
            Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
        return with_password
