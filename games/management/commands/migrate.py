"""`manage.py migrate`, run as the database owner when DATABASE_OWNER_URL is set (docs/deploy.md).

Django's migrate, with two additions when the app's DATABASE_URL names a least-privilege role and
DATABASE_OWNER_URL the owner: the default connection uses the owner's credentials for the whole
command, so every migration (data migrations too, which use the default connection unless they
say otherwise) runs as the owner; and afterwards the app role is granted its rights again
(games/db_roles.py), so the tables a migration added are covered at once.
"""

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import DEFAULT_DB_ALIAS, connections

from games import db_roles


class Command(DjangoMigrate):
    help = DjangoMigrate.help + " Runs as the owner when DATABASE_OWNER_URL is set, then grants the app role."

    def handle(self, *args, **options):
        role = db_roles.app_role_name()
        if (
            role is None
            or options["database"] != DEFAULT_DB_ALIAS
            or connections[DEFAULT_DB_ALIAS].vendor != "postgresql"
        ):
            return super().handle(*args, **options)
        db_roles.connect_default_as_owner()
        if options["verbosity"]:
            self.stdout.write(f"Migrating as the owner (DATABASE_OWNER_URL); the app role is {role}")
        super().handle(*args, **options)
        report = db_roles.grant(connections[DEFAULT_DB_ALIAS], role)
        if options["verbosity"]:
            self.stdout.write(
                f"Granted {role} its rights on {len(report.tables)} tables and "
                f"{len(report.sequences)} sequences (games/db_roles.py)"
            )
        for warning in report.warnings:
            self.stderr.write(f"WARNING: {warning}")
