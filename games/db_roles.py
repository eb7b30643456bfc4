"""The app's least-privilege PostgreSQL role (docs/deploy.md, "Database roles").

Two roles use the database. The *owner* owns the schema: it runs the migrations (`manage.py
migrate`, which connects as DATABASE_OWNER_URL) and may lift any guard, so no request ever runs
as it. The *app* role (DATABASE_URL) owns nothing and is not a superuser; it gets exactly the
rights below, so the append-only triggers hold against the app's own connection too:

- every stream's event table (`stream_event_tables`: games_event, tournaments_tournamentevent,
  tournaments_seasonevent, tournaments_bracketevent, tournaments_leagueevent, ...) and clubs_feedentry (a club's feed, games.clubs.feed): SELECT and INSERT only (no
  UPDATE, DELETE, TRUNCATE; a game event's INSERT is also checked by the seq triggers of
  games/migrations/0012_event_seq_checks.py);
- django_migrations: SELECT (the app reads which migrations ran, never writes them);
- every other table: SELECT, INSERT, UPDATE, DELETE (no TRUNCATE, REFERENCES or TRIGGER);
- sequences: USAGE and SELECT (nextval for the ids);
- no DDL: not owner of anything, no CREATE on the schema, so ALTER TABLE ... DISABLE TRIGGER,
  CREATE OR REPLACE FUNCTION of a trigger function and DROP TRIGGER are refused; and, not being
  a superuser, it cannot SET session_replication_role (which would skip every trigger).

`grant(connection, role)` applies this to every table and sequence that exists now, revoking
whatever else the role held on them (so it is idempotent and also narrows old grants), and sets
the owner's default privileges so that tables later migrations create are usable at once (with
the default rights above; re-running `grant` then applies the table's own policy). `manage.py
migrate` runs as the owner and re-runs it by itself (games/management/commands/migrate.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import connections

OWNER_ALIAS = "owner"
DEFAULT_TABLE_RIGHTS = ("SELECT", "INSERT", "UPDATE", "DELETE")
APPEND_ONLY_RIGHTS = ("SELECT", "INSERT")
#: the tables other than the streams' events (stream_event_tables) with rights of their own
OTHER_TABLE_RIGHTS = {
    "clubs_feedentry": APPEND_ONLY_RIGHTS,  # the club's feed: an outbox, never changed
    "django_migrations": ("SELECT",),
}


def stream_event_tables() -> list[str]:
    """Every stream's event table (each model on games.streams' StreamEvent: a game's, a
    tournament's, a season's, a bracket's, a league's...): a new kind of stream is append-only
    against the app role without a line here."""
    from django.apps import apps

    from games.streams.models import StreamEvent

    return sorted(m._meta.db_table for m in apps.get_models() if issubclass(m, StreamEvent))


def table_rights() -> dict[str, tuple[str, ...]]:
    return {**dict.fromkeys(stream_event_tables(), APPEND_ONLY_RIGHTS), **OTHER_TABLE_RIGHTS}


SEQUENCE_RIGHTS = ("USAGE", "SELECT")


class RoleError(Exception):
    """The role cannot serve as the app role (a superuser, an owner, ...) or does not exist."""


@dataclass
class GrantReport:
    role: str
    created: bool = False
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sequences: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def owner_configured() -> bool:
    return OWNER_ALIAS in settings.DATABASES


def app_role_name() -> str | None:
    """The app role: the user of DATABASE_URL, when DATABASE_OWNER_URL names another one."""
    if not owner_configured():
        return None
    app_user = settings.DATABASES["default"].get("USER")
    owner_user = settings.DATABASES[OWNER_ALIAS].get("USER")
    return app_user if app_user and app_user != owner_user else None


def _ident(connection, name: str) -> str:
    return connection.ops.quote_name(name)


def _role_row(cursor, role: str):
    cursor.execute("SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls FROM pg_roles WHERE rolname = %s", [role])
    return cursor.fetchone()


def _create_role(cursor, connection, role: str, password: str | None) -> bool:
    """CREATE ROLE ... LOGIN, unless it exists (also when a concurrent run just created it)."""
    if _role_row(cursor, role) is not None:
        return False
    sql = f"CREATE ROLE {_ident(connection, role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS"
    if password:
        # CREATE ROLE takes no bind parameters: a literal, quoted by the server's own rules.
        cursor.execute("SELECT quote_literal(%s)", [password])
        sql += f" PASSWORD {cursor.fetchone()[0]}"
    try:
        cursor.execute(sql)
    except Exception as exc:  # noqa: BLE001 - only the race below is expected
        if getattr(exc.__cause__, "sqlstate", None) != "42710":  # duplicate_object
            raise
        return False
    return True


def _check_role(cursor, role: str) -> None:
    row = _role_row(cursor, role)
    if row is None:
        raise RoleError(
            f"role {role!r} does not exist: create it (CREATE ROLE {role} LOGIN PASSWORD '...') or pass --create"
        )
    superuser, createrole, _createdb, bypassrls = row
    if superuser or bypassrls or createrole:
        raise RoleError(
            f"role {role!r} is a superuser or may create roles or bypass row security: "
            "the app role must be an ordinary login role"
        )
    cursor.execute("SELECT current_user")
    owner = cursor.fetchone()[0]
    if role == owner:
        raise RoleError(f"role {role!r} is the role running the grant (the owner): the app needs its own role")
    cursor.execute("SELECT pg_has_role(%s, %s, 'MEMBER')", [role, owner])
    if cursor.fetchone()[0]:
        raise RoleError(f"role {role!r} is a member of the owner {owner!r} and could act as it")
    cursor.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND pg_get_userbyid(c.relowner) = %s",
        [role],
    )
    owned = [r[0] for r in cursor.fetchall()]
    if owned:
        raise RoleError(f"role {role!r} owns {', '.join(sorted(owned))}: the app role must own nothing")


def grant(connection, role: str, *, create: bool = False, password: str | None = None) -> GrantReport:
    """Give `role` the app's rights on `connection`'s database (run as the owner; PostgreSQL).
    Run in autocommit (as management commands do): a CREATE ROLE that loses a
    race with another process is then simply skipped."""
    if connection.vendor != "postgresql":
        raise RoleError(f"database roles are a PostgreSQL feature, not {connection.vendor}'s")
    report = GrantReport(role=role)
    q = _ident(connection, role)
    with connection.cursor() as cursor:
        if create:
            report.created = _create_role(cursor, connection, role, password)
        _check_role(cursor, role)
        cursor.execute("SELECT current_database(), current_schema()")
        database, schema = cursor.fetchone()
        cursor.execute(f"GRANT CONNECT ON DATABASE {_ident(connection, database)} TO {q}")
        cursor.execute(f"GRANT USAGE ON SCHEMA {_ident(connection, schema)} TO {q}")
        cursor.execute(
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'S') ORDER BY c.relname"
        )
        rights_of = table_rights()
        for name, kind in cursor.fetchall():
            rights = SEQUENCE_RIGHTS if kind == "S" else rights_of.get(name, DEFAULT_TABLE_RIGHTS)
            kind_word = "SEQUENCE " if kind == "S" else ""
            cursor.execute(f"REVOKE ALL ON {kind_word}{_ident(connection, name)} FROM {q}")
            cursor.execute(f"GRANT {', '.join(rights)} ON {kind_word}{_ident(connection, name)} TO {q}")
            if kind == "S":
                report.sequences.append(name)
            else:
                report.tables[name] = rights
        cursor.execute(
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {_ident(connection, schema)} "
            f"GRANT {', '.join(DEFAULT_TABLE_RIGHTS)} ON TABLES TO {q}"
        )
        cursor.execute(
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {_ident(connection, schema)} "
            f"GRANT {', '.join(SEQUENCE_RIGHTS)} ON SEQUENCES TO {q}"
        )
        # PostgreSQL < 15 lets every role create objects in `public`: take that back (the schema's
        # owner may; otherwise say so).
        cursor.execute("SELECT has_schema_privilege(%s, current_schema(), 'CREATE')", [role])
        if cursor.fetchone()[0]:
            try:
                cursor.execute(f"REVOKE CREATE ON SCHEMA {_ident(connection, schema)} FROM PUBLIC, {q}")
            except Exception:  # noqa: BLE001 - not the schema's owner: reported just below
                pass
            cursor.execute("SELECT has_schema_privilege(%s, current_schema(), 'CREATE')", [role])
            if cursor.fetchone()[0]:
                report.warnings.append(
                    f"{role} may still CREATE in schema {schema}: run "
                    f"REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC as its owner"
                )
    return report


def connect_default_as_owner() -> None:
    """From now on, this process's default connection logs in as the owner (`manage.py migrate`)."""
    connections.close_all()
    default = connections["default"].settings_dict
    owner = settings.DATABASES[OWNER_ALIAS]
    default["USER"], default["PASSWORD"] = owner["USER"], owner["PASSWORD"]
