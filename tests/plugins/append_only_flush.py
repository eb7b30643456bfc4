"""Lets pytest-django empty the tables after transactional tests despite the append-only triggers.

`games.migrations.0002_event_append_only` (and `games.tournaments.migrations.0002_...` for
tournament events) make the database refuse UPDATE, DELETE and (on PostgreSQL) TRUNCATE on the
event tables. After every transactional test (`live_server`,
`django_db(transaction=True)`, `transactional_db`, hence every browser and Celery worker test)
pytest-django flushes the tables with exactly those statements, and the flush fails.

This plugin wraps Django's `DatabaseOperations.execute_sql_flush`, the one call that flush makes:
if an event table has triggers, they are dropped (its migration's `uninstall`) just for the
flush and installed again (`install`) right after. Nothing else changes: raw TRUNCATE or DELETE in a
test is still refused. If the triggers are not there (a database migrated without them) the
flush runs as it is. Registered by `-p tests.plugins.append_only_flush`.

In the app-role test mode (tests/plugins/db_roles.py) the test connection may neither TRUNCATE
nor drop triggers: the flush then runs on a connection of the owner, in one transaction.
"""

import importlib

# (the migration that installs the triggers, the table they guard)
APPEND_ONLY = [
    ("games.migrations.0002_event_append_only", "games_event"),
    ("games.tournaments.migrations.0002_event_append_only", "tournaments_tournamentevent"),
    ("games.tournaments.migrations.0014_seasons", "tournaments_seasonevent"),
    ("games.tournaments.migrations.0015_brackets", "tournaments_bracketevent"),
    ("games.tournaments.migrations.0016_leagues", "tournaments_leagueevent"),
]


def _triggers_present(connection, table: str) -> bool:
    from games.streams import triggers  # the stream store's lookup (Django is set up by now)

    return connection.vendor in triggers.TRIGGERS_PRESENT_SQL and triggers.has_triggers(connection, table)


def _with_triggers_lifted(connection, run):
    lifted = [
        importlib.import_module(migration) for migration, table in APPEND_ONLY if _triggers_present(connection, table)
    ]
    for append_only in lifted:
        append_only.uninstall(connection)
    try:
        return run()
    finally:
        for append_only in lifted:
            append_only.install(connection)


def _flush_as_owner(sql_list) -> None:
    from tests.plugins.db_roles import owner_connection

    with owner_connection() as owner:

        def run():
            with owner.cursor() as cursor:
                for sql in sql_list:
                    cursor.execute(sql)

        _with_triggers_lifted(owner, run)


def _wrap(original):
    def execute_sql_flush(self, sql_list):
        from tests.plugins.db_roles import app_role_mode

        if self.connection.alias == "default" and app_role_mode():
            return _flush_as_owner(sql_list)
        return _with_triggers_lifted(self.connection, lambda: original(self, sql_list))

    return execute_sql_flush


def pytest_configure(config):
    # Imported here, not at the top: this plugin loads before Django sets up, and importing the
    # backends module before django.db.models is a circular import inside Django.
    import django.db.models  # noqa: F401
    from django.db.backends.base.operations import BaseDatabaseOperations

    original = BaseDatabaseOperations.execute_sql_flush
    BaseDatabaseOperations.execute_sql_flush = _wrap(original)
    config.add_cleanup(lambda: setattr(BaseDatabaseOperations, "execute_sql_flush", original))
