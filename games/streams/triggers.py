"""The database's guarantees on a stream's event table, the one source of their SQL for every
stream's migrations (games/migrations, games/tournaments/migrations), on PostgreSQL and SQLite:

- `append_only`: an event row is never changed nor deleted (PostgreSQL: a row trigger refusing
  UPDATE and DELETE and a statement trigger refusing TRUNCATE, which skips row triggers; SQLite:
  BEFORE UPDATE / DELETE triggers that abort). Django's QuerySet.update()/delete() and raw SQL
  never reach model methods, so the guard is in the database.
- `seq_is_next`: an INSERT's `seq` is the next one of its head (BEFORE INSERT, each row: its
  head's newest stored seq + 1, 1 for its first event). A multi-row INSERT is checked row by row,
  each row seeing the ones before it, which is how the append writes a batch. Two concurrent
  inserts of the same next seq both pass here; the unique (head, seq) constraint refuses the second.

Each gives `Statements`: the SQL to install and to uninstall, by database vendor. A migration
installs them with `install` (and its reverse `uninstall`); a SQLite table rebuild (adding a
foreign key or a column with a default: create, copy, drop, rename) drops a table's triggers,
which `restore_missing` puts back. Errors use SQLSTATE restrict_violation (a change) and
check_violation (a seq), an IntegrityError for Django.

The text generated here is what the migrations installed when they were written:
tests/api/test_stream_triggers.py pins it, so that an old migration means the same thing forever.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Statements:
    """The SQL to install and to uninstall, by vendor: {"postgresql": ([...], [...]), "sqlite": ...}."""

    by_vendor: dict[str, tuple[list[str], list[str]]]
    what: str  # "append-only triggers", "seq trigger": what a missing vendor has no SQL for

    def of(self, vendor: str, which: int) -> list[str]:
        statements = self.by_vendor.get(vendor)
        if statements is None:
            raise NotImplementedError(f"no {self.what} for the {vendor} backend")
        return statements[which]


def append_only(table: str, prefix: str) -> Statements:
    """`table`'s rows are never updated nor deleted; triggers and functions named `prefix`_..."""
    message = f"{table} rows are append-only"
    postgres_install = [
        f"""
    CREATE OR REPLACE FUNCTION {prefix}_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{message}: % refused', TG_OP USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql
    """,
        f"""
    CREATE TRIGGER {prefix}_no_update_delete BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION {prefix}_refuse_change()
    """,
        f"""
    CREATE TRIGGER {prefix}_no_truncate BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION {prefix}_refuse_change()
    """,
    ]
    postgres_uninstall = [
        f"DROP TRIGGER IF EXISTS {prefix}_no_truncate ON {table}",
        f"DROP TRIGGER IF EXISTS {prefix}_no_update_delete ON {table}",
        f"DROP FUNCTION IF EXISTS {prefix}_refuse_change()",
    ]
    sqlite_install = [
        f"""
    CREATE TRIGGER {prefix}_no_update BEFORE UPDATE ON {table}
    BEGIN SELECT RAISE(ABORT, '{message}: UPDATE refused'); END
    """,
        f"""
    CREATE TRIGGER {prefix}_no_delete BEFORE DELETE ON {table}
    BEGIN SELECT RAISE(ABORT, '{message}: DELETE refused'); END
    """,
    ]
    sqlite_uninstall = [
        f"DROP TRIGGER IF EXISTS {prefix}_no_update",
        f"DROP TRIGGER IF EXISTS {prefix}_no_delete",
    ]
    return Statements(
        {"postgresql": (postgres_install, postgres_uninstall), "sqlite": (sqlite_install, sqlite_uninstall)},
        "append-only triggers",
    )


def seq_is_next(table: str, prefix: str, head: str) -> Statements:
    """An INSERT into `table` (whose head column is `head`_id) carries its head's next seq."""
    message = f"{table} seq must be the next one of its {head}"
    postgres_install = [
        f"""
    CREATE OR REPLACE FUNCTION {prefix}_check_seq() RETURNS trigger AS $$
    DECLARE newest bigint;
    BEGIN
        SELECT coalesce(max(seq), 0) INTO newest FROM {table} WHERE {head}_id = NEW.{head}_id;
        IF NEW.seq IS DISTINCT FROM newest + 1 THEN
            RAISE EXCEPTION '{message}: got %, {head} % has % events', NEW.seq, NEW.{head}_id, newest
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
        f"""
    CREATE TRIGGER {prefix}_seq_is_next BEFORE INSERT ON {table}
    FOR EACH ROW EXECUTE FUNCTION {prefix}_check_seq()
    """,
    ]
    postgres_uninstall = [
        f"DROP TRIGGER IF EXISTS {prefix}_seq_is_next ON {table}",
        f"DROP FUNCTION IF EXISTS {prefix}_check_seq()",
    ]
    sqlite_install = [
        f"""
    CREATE TRIGGER {prefix}_seq_is_next BEFORE INSERT ON {table}
    WHEN NEW.seq IS NOT (SELECT coalesce(max(seq), 0) + 1 FROM {table} WHERE {head}_id = NEW.{head}_id)
    BEGIN SELECT RAISE(ABORT, '{message}'); END
    """,
    ]
    sqlite_uninstall = [f"DROP TRIGGER IF EXISTS {prefix}_seq_is_next"]
    return Statements(
        {"postgresql": (postgres_install, postgres_uninstall), "sqlite": (sqlite_install, sqlite_uninstall)},
        "seq trigger",
    )


def _run(connection, statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def install(connection, statements: Statements) -> None:
    _run(connection, statements.of(connection.vendor, 0))


def uninstall(connection, statements: Statements) -> None:
    _run(connection, statements.of(connection.vendor, 1))


TRIGGERS_PRESENT_SQL = {
    "postgresql": "SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass('{table}') AND NOT tgisinternal",
    "sqlite": "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '{table}'",
}


def has_triggers(connection, table: str) -> bool:
    """Whether `table` has any trigger of ours (PostgreSQL's internal ones, for foreign keys, aside)."""
    with connection.cursor() as cursor:
        cursor.execute(TRIGGERS_PRESENT_SQL[connection.vendor].format(table=table))
        return cursor.fetchone() is not None


def restore_missing(connection, table: str, *statements: Statements) -> None:
    """After a table rebuild: install `statements` on `table` if it has no trigger left (a SQLite
    rebuild drops them all; PostgreSQL alters in place and keeps them)."""
    if not has_triggers(connection, table):
        for each in statements:
            install(connection, each)
