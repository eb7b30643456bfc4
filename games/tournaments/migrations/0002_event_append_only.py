"""Make `tournaments_tournamentevent` append-only in the database itself, as
`games.migrations.0002_event_append_only` does for game events: PostgreSQL row triggers refusing
UPDATE and DELETE and a statement trigger refusing TRUNCATE; SQLite BEFORE UPDATE / DELETE
triggers. Self-contained so that it means the same thing forever; the test suite's flush plugin
(tests/plugins/append_only_flush.py) reuses `install` / `uninstall`.
"""
from django.db import migrations

TABLE = "tournaments_tournamentevent"
MESSAGE = f"{TABLE} rows are append-only"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION tournaments_event_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql
    """,
    f"""
    CREATE TRIGGER tournaments_event_no_update_delete BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION tournaments_event_refuse_change()
    """,
    f"""
    CREATE TRIGGER tournaments_event_no_truncate BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_event_refuse_change()
    """,
]
POSTGRES_UNINSTALL = [
    f"DROP TRIGGER IF EXISTS tournaments_event_no_truncate ON {TABLE}",
    f"DROP TRIGGER IF EXISTS tournaments_event_no_update_delete ON {TABLE}",
    "DROP FUNCTION IF EXISTS tournaments_event_refuse_change()",
]
SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER tournaments_event_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused'); END
    """,
    f"""
    CREATE TRIGGER tournaments_event_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused'); END
    """,
]
SQLITE_UNINSTALL = [
    "DROP TRIGGER IF EXISTS tournaments_event_no_update",
    "DROP TRIGGER IF EXISTS tournaments_event_no_delete",
]
STATEMENTS = {
    "postgresql": (POSTGRES_INSTALL, POSTGRES_UNINSTALL),
    "sqlite": (SQLITE_INSTALL, SQLITE_UNINSTALL),
}


def _run(connection, which: int) -> None:
    statements = STATEMENTS.get(connection.vendor)
    if statements is None:
        raise NotImplementedError(f"no append-only triggers for the {connection.vendor} backend")
    with connection.cursor() as cursor:
        for sql in statements[which]:
            cursor.execute(sql)


def install(connection) -> None:
    _run(connection, 0)


def uninstall(connection) -> None:
    _run(connection, 1)


def forwards(apps, schema_editor):
    install(schema_editor.connection)


def backwards(apps, schema_editor):
    uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
