"""Put the append-only triggers back where 0004 lost them.

0004 adds a foreign key to `tournaments_tournamentevent`; SQLite cannot add one in place, so
Django rebuilds the table (create, copy, drop, rename) and the triggers of 0002 go with the old
table. PostgreSQL adds the column in place and keeps them. On either backend this installs the
triggers only where they are missing, so it means the same thing on every database
(games.streams.triggers.restore_missing).
"""

import importlib

from django.db import migrations

from games.streams import triggers

APPEND_ONLY = importlib.import_module("games.tournaments.migrations.0002_event_append_only")


def forwards(apps, schema_editor):
    triggers.restore_missing(schema_editor.connection, APPEND_ONLY.TABLE, APPEND_ONLY.STATEMENTS)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_event_table_code")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
