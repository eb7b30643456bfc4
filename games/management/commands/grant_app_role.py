"""`manage.py grant_app_role`: give the app's database role its least-privilege rights.

Run by the owner (see docs/deploy.md). Idempotent: every run revokes what the role held on the
tables and grants the policy of games/db_roles.py again.

    manage.py grant_app_role                 # role = the user of DATABASE_URL, run on DATABASE_OWNER_URL
    manage.py grant_app_role --role tichu_app --database default   # DATABASE_URL is the owner here
    manage.py grant_app_role --create        # CREATE ROLE ... LOGIN first (password from DATABASE_URL)
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from games import db_roles


class Command(BaseCommand):
    help = "Grant the app's PostgreSQL role its rights (SELECT+INSERT on games_event, no DDL); run as the owner."

    def add_arguments(self, parser):
        parser.add_argument(
            "--role", help="the app role (default: the user of DATABASE_URL when DATABASE_OWNER_URL is set)"
        )
        parser.add_argument(
            "--database",
            help="the alias to connect as the owner (default: 'owner' when DATABASE_OWNER_URL is set, else 'default')",
        )
        parser.add_argument(
            "--create", action="store_true", help="create the role (LOGIN, nothing more) if it does not exist"
        )

    def handle(self, *args, role=None, database=None, create=False, **options):
        alias = database or (db_roles.OWNER_ALIAS if db_roles.owner_configured() else "default")
        role = role or db_roles.app_role_name()
        if not role:
            raise CommandError(
                "which role? pass --role, or set DATABASE_URL to the app role's URL and "
                "DATABASE_OWNER_URL to the owner's"
            )
        if alias not in settings.DATABASES:
            raise CommandError(f"no database alias {alias!r}")
        password = (
            settings.DATABASES["default"].get("PASSWORD") if role == settings.DATABASES["default"].get("USER") else None
        )
        try:
            report = db_roles.grant(connections[alias], role, create=create, password=password)
        except db_roles.RoleError as err:
            raise CommandError(str(err)) from None
        if report.created:
            self.stdout.write(f"Created role {role}")
        for table, rights in report.tables.items():
            self.stdout.write(f"  {table}: {', '.join(rights)}")
        self.stdout.write(f"  {len(report.sequences)} sequences: {', '.join(db_roles.SEQUENCE_RIGHTS)}")
        for warning in report.warnings:
            self.stderr.write(f"WARNING: {warning}")
        self.stdout.write(self.style.SUCCESS(f"Role {role} may use the database as the app (not as its owner)"))
