"""A tournament event's `seq` is checked in the database itself, as `games.migrations.0012`
checks a game event's: `tournaments_event_seq_is_next` (BEFORE INSERT, each row) refuses a row
whose `seq` is not the tournament's newest stored seq + 1 (1 for its first event). A multi-row
INSERT is checked row by row, each row seeing the ones before it, which is how the service
writes a batch (bulk_create of seq start+1, start+2, ...). Two concurrent inserts of the same
next seq both pass here; the unique (tournament, seq) constraint refuses the second, as before.
Errors use SQLSTATE check_violation (23514), an IntegrityError for Django. The SQL is the stream
store's (games.streams.triggers.seq_is_next, pinned by tests/api/test_stream_triggers.py)."""

from django.db import migrations

from games.streams import triggers

TABLE = "tournaments_tournamentevent"
STATEMENTS = triggers.seq_is_next(TABLE, prefix="tournaments_event", head="tournament")


def forwards(apps, schema_editor):
    triggers.install(schema_editor.connection, STATEMENTS)


def backwards(apps, schema_editor):
    triggers.uninstall(schema_editor.connection, STATEMENTS)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_tournament_board_secret")]

    operations = [migrations.RunPython(forwards, backwards)]
