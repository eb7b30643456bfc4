"""A tournament event's `seq` is checked in the database itself, as `games.migrations.0012`
checks a game event's: `tournaments_event_seq_is_next` (BEFORE INSERT, each row) refuses a row
whose `seq` is not the tournament's newest stored seq + 1 (1 for its first event). A multi-row
INSERT is checked row by row, each row seeing the ones before it, which is how the service
writes a batch (bulk_create of seq start+1, start+2, ...). Two concurrent inserts of the same
next seq both pass here; the unique (tournament, seq) constraint refuses the second, as before.
Errors use SQLSTATE check_violation (23514), an IntegrityError for Django. Self-contained SQL."""
from django.db import migrations

TABLE = "tournaments_tournamentevent"
MESSAGE = f"{TABLE} seq must be the next one of its tournament"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION tournaments_event_check_seq() RETURNS trigger AS $$
    DECLARE newest bigint;
    BEGIN
        SELECT coalesce(max(seq), 0) INTO newest FROM {TABLE} WHERE tournament_id = NEW.tournament_id;
        IF NEW.seq IS DISTINCT FROM newest + 1 THEN
            RAISE EXCEPTION '{MESSAGE}: got %, tournament % has % events', NEW.seq, NEW.tournament_id, newest
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
    f"""
    CREATE TRIGGER tournaments_event_seq_is_next BEFORE INSERT ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION tournaments_event_check_seq()
    """,
]
POSTGRES_UNINSTALL = [
    f"DROP TRIGGER IF EXISTS tournaments_event_seq_is_next ON {TABLE}",
    "DROP FUNCTION IF EXISTS tournaments_event_check_seq()",
]
SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER tournaments_event_seq_is_next BEFORE INSERT ON {TABLE}
    WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM {TABLE} WHERE tournament_id = NEW.tournament_id)
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END
    """,
]
SQLITE_UNINSTALL = ["DROP TRIGGER IF EXISTS tournaments_event_seq_is_next"]
STATEMENTS = {"postgresql": (POSTGRES_INSTALL, POSTGRES_UNINSTALL), "sqlite": (SQLITE_INSTALL, SQLITE_UNINSTALL)}


def _run(connection, which: int) -> None:
    statements = STATEMENTS.get(connection.vendor)
    if statements is None:
        raise NotImplementedError(f"no seq trigger for the {connection.vendor} backend")
    with connection.cursor() as cursor:
        for sql in statements[which]:
            cursor.execute(sql)


def forwards(apps, schema_editor):
    _run(schema_editor.connection, 0)


def backwards(apps, schema_editor):
    _run(schema_editor.connection, 1)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_tournament_board_secret")]

    operations = [migrations.RunPython(forwards, backwards)]
