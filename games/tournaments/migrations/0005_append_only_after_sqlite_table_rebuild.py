"""Put the append-only triggers back where 0004 lost them.

0004 adds a foreign key to `tournaments_tournamentevent`; SQLite cannot add one in place, so
Django rebuilds the table (create, copy, drop, rename) and the triggers of 0002 go with the old
table. PostgreSQL adds the column in place and keeps them. On either backend this installs the
triggers only where they are missing, so it means the same thing on every database.
"""
import importlib

from django.db import migrations

APPEND_ONLY = importlib.import_module("games.tournaments.migrations.0002_event_append_only")
PRESENT_SQL = {
    "postgresql": f"SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass('{APPEND_ONLY.TABLE}') AND NOT tgisinternal",
    "sqlite": f"SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '{APPEND_ONLY.TABLE}'",
}


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        cursor.execute(PRESENT_SQL[connection.vendor])
        present = cursor.fetchone() is not None
    if not present:
        APPEND_ONLY.install(connection)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_event_table_code")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
