"""Make `games_event` append-only in the database itself.

Django's QuerySet.update()/delete() and raw SQL never reach model methods, so the guard is a set
of triggers: on PostgreSQL a row trigger refusing UPDATE and DELETE plus a statement trigger
refusing TRUNCATE (TRUNCATE skips row triggers); on SQLite (row triggers only, no TRUNCATE)
BEFORE UPDATE / BEFORE DELETE triggers that abort.

The SQL lives here, self-contained, so that this migration means the same thing forever; the test
suite reuses `install` / `uninstall` to let pytest-django flush tables between transactional tests.
"""
from django.db import migrations

MESSAGE = "games_event rows are append-only"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION games_event_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_event_no_update_delete BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_refuse_change()
    """,
    """
    CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_refuse_change()
    """,
]
POSTGRES_UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event",
    "DROP TRIGGER IF EXISTS games_event_no_update_delete ON games_event",
    "DROP FUNCTION IF EXISTS games_event_refuse_change()",
]
SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE refused'); END
    """,
    f"""
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE refused'); END
    """,
]
SQLITE_UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_event_no_update",
    "DROP TRIGGER IF EXISTS games_event_no_delete",
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
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
