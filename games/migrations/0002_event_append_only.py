"""Make `games_event` append-only in the database itself.

Django's QuerySet.update()/delete() and raw SQL never reach model methods, so the guard is a set
of triggers: on PostgreSQL a row trigger refusing UPDATE and DELETE plus a statement trigger
refusing TRUNCATE (TRUNCATE skips row triggers); on SQLite (row triggers only, no TRUNCATE)
BEFORE UPDATE / BEFORE DELETE triggers that abort.

The SQL is the stream store's (games.streams.triggers, pinned by tests/api/test_stream_triggers.py
so that this migration means the same thing forever); the test suite reuses `install` /
`uninstall` to let pytest-django flush tables between transactional tests.
"""

from django.db import migrations

from games.streams import triggers

TABLE = "games_event"
STATEMENTS = triggers.append_only(TABLE, prefix="games_event")


def install(connection) -> None:
    triggers.install(connection, STATEMENTS)


def uninstall(connection) -> None:
    triggers.uninstall(connection, STATEMENTS)


def forwards(apps, schema_editor):
    install(schema_editor.connection)


def backwards(apps, schema_editor):
    uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
