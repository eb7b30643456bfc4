"""`python manage.py create_admin`: the site's first administrator, in one step.

Asks for a username and a password (twice), or takes them from --username and the environment
variable TICHU_ADMIN_PASSWORD (for scripts). The account is a Django superuser (it may also open
/admin/), and with --club "Name" it also founds a club and is its admin. Then it prints where to
sign in and what to do next."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.text import slugify

from games.clubs import services
from games.services import ServiceError


class Command(BaseCommand):
    help = "Create the first administrator (and optionally their club), then print the next steps."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", help="asked for when missing")
        parser.add_argument("--email", default="", help="for password resets (optional)")
        parser.add_argument("--club", help="also create a club of this name, with the new account as its admin")
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address, for the printed steps")

    def handle(self, *args, username=None, email="", club=None, url="", **options) -> None:
        User = get_user_model()
        username = (username or input("Username: ")).strip()
        if not username:
            raise CommandError("a username is needed")
        if User.objects.filter(username=username).exists():
            raise CommandError(f"the account {username!r} exists already (manage.py changepassword {username})")
        password = os.environ.get("TICHU_ADMIN_PASSWORD") or self._ask_password()
        try:
            validate_password(password, User(username=username, email=email))
        except ValidationError as err:
            raise CommandError(" ".join(err.messages)) from None
        with transaction.atomic():
            user = User.objects.create_superuser(username=username, email=email, password=password)
            made = None
            if club:
                try:
                    made = services.club_create(
                        name=club, slug=slugify(club)[:100] or "club", visibility="public", user=user
                    )
                except ServiceError as err:
                    raise CommandError(err.message) from None
        base = url.rstrip("/")
        self.stdout.write(self.style.SUCCESS(f"Administrator {user.username!r} created."))
        self.stdout.write("Next steps:")
        self.stdout.write(f"  1. Sign in at {base}/accounts/sign-in/")
        if made is None:
            self.stdout.write(f"  2. Create your club at {base}/new-club/ (you become its admin)")
        else:
            self.stdout.write(f"  2. Your club {made.name!r} is at {base}/clubs/{made.slug}/")
        self.stdout.write("  3. On the club's Members page, make an invitation link for each scorer and send it")
        self.stdout.write(
            "  4. On the club's page, press New game: pick the game and the players, then enter the hands"
        )

    def _ask_password(self) -> str:
        for _ in range(3):
            first = getpass.getpass("Password: ")
            if first and first == getpass.getpass("Password (again): "):
                return first
            self.stderr.write("The two passwords differ (or are empty); try again.")
        raise CommandError("no password given")
