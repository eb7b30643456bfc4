"""Make `tournaments_tournamentevent` append-only in the database itself, as
`games.migrations.0002_event_append_only` does for game events: PostgreSQL row triggers refusing
UPDATE and DELETE and a statement trigger refusing TRUNCATE; SQLite BEFORE UPDATE / DELETE
triggers. The SQL is the stream store's (games.streams.triggers, pinned by
tests/api/test_stream_triggers.py so that it means the same thing forever); the test suite's flush
plugin (tests/plugins/append_only_flush.py) reuses `install` / `uninstall`.
"""

from django.db import migrations

from games.streams import triggers

TABLE = "tournaments_tournamentevent"
STATEMENTS = triggers.append_only(TABLE, prefix="tournaments_event")


def install(connection) -> None:
    triggers.install(connection, STATEMENTS)


def uninstall(connection) -> None:
    triggers.uninstall(connection, STATEMENTS)


def forwards(apps, schema_editor):
    install(schema_editor.connection)


def backwards(apps, schema_editor):
    uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
