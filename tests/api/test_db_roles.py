"""The app's least-privilege database role (games/db_roles.py, docs/deploy.md) and the seq checks
of games/migrations/0012_event_seq_checks.py.

The seq checks hold on every backend and for every role. The role tests run in the PostgreSQL
stages of `make test`, where the tests connect as the app role (tests/plugins/db_roles.py); in CI
a PostgreSQL run without that mode is a failure, not a skip.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from games import db_roles
from games.models import Event, Game
from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand
from tests.conftest import client_for
from tests.plugins import db_roles as db_roles_mode
from tests.plugins.db_roles import app_role_mode, owner_connection
from tests.plugins.markers import in_ci


def _raw(sql: str, params=()) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def _new_game(club, scorer, events=2) -> Game:
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    if events:
        append_events(game=game, events=[hand() for _ in range(events)], expected_seq=0, user=scorer)
    game.refresh_from_db()
    return game


def _insert_event_sql(game_id: int, seq: int) -> tuple[str, list]:
    return (
        "INSERT INTO games_event (game_id, seq, type, payload, recorded_at) "
        "VALUES (%s, %s, 'hand_result', %s, CURRENT_TIMESTAMP)",
        [game_id, seq, '{"calls": {}, "out": [0, 1, 2, 3], "points": [50, 50]}'],
    )


# --- seq checks: every backend, whichever role --------------------------------------------------


@pytest.mark.django_db
def test_an_event_out_of_sequence_is_refused(club, scorer):
    game = _new_game(club, scorer)
    for seq in (10_000, 4, 0):
        with pytest.raises(IntegrityError, match="seq must be the next one"):
            _raw(*_insert_event_sql(game.pk, seq))
    # a seq already taken: on PostgreSQL the unique (game, seq) index refuses it before the
    # statement-level check (0016) runs; SQLite's row trigger runs first
    for seq in (2, 1):
        with pytest.raises(IntegrityError, match="seq must be the next one|duplicate key|UNIQUE constraint"):
            _raw(*_insert_event_sql(game.pk, seq))
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]


@pytest.mark.django_db
def test_a_statement_whose_rows_leave_a_gap_is_refused_whole(club, scorer):
    """One statement, rows of two games: one game's rows continue its stream, the other's skip a
    seq (3, 5). PostgreSQL checks per statement (0016), SQLite per row (0012): both refuse it
    and store none of the statement's rows."""
    game, other = _new_game(club, scorer), _new_game(club, scorer)
    row = "(%s, %s, 'hand_result', %s, CURRENT_TIMESTAMP)"
    payload = '{"calls": {}, "out": [0, 1, 2, 3], "points": [50, 50]}'
    for bad in ([3, 5], [4], [3, 3]):
        rows = [(other.pk, 3), (other.pk, 4)] + [(game.pk, s) for s in bad]
        with pytest.raises(IntegrityError, match="seq must be the next one|duplicate key|UNIQUE constraint"):
            _raw(
                "INSERT INTO games_event (game_id, seq, type, payload, recorded_at) VALUES "
                + ", ".join([row] * len(rows)),
                [x for g, s in rows for x in (g, s, payload)],
            )
    assert Event.objects.filter(game__in=[game, other]).count() == 4


@pytest.mark.django_db
def test_game_seq_moves_only_to_its_newest_event(club, scorer):
    game = _new_game(club, scorer)
    for seq in (3, 1, 0, 10_000):
        with pytest.raises(IntegrityError, match="games_game.seq must be the seq of the newest event"):
            _raw("UPDATE games_game SET seq = %s WHERE id = %s", [seq, game.pk])
    with (
        pytest.raises(IntegrityError, match="games_game.seq must be the seq of the newest event"),
        transaction.atomic(),
    ):
        Game.objects.filter(pk=game.pk).update(seq=5)
    _raw("UPDATE games_game SET seq = %s, status = status WHERE id = %s", [2, game.pk])  # unchanged: allowed
    game.refresh_from_db()
    assert game.seq == 2


@pytest.mark.django_db
def test_a_new_game_starts_at_seq_zero(club, scorer):
    with (
        pytest.raises(IntegrityError, match="games_game.seq must be the seq of the newest event"),
        transaction.atomic(),
    ):
        Game.objects.create(club=club, variant="nanking", options=None, header={}, seq=3)
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_an_out_of_band_insert_at_the_next_seq_with_the_game_moved_is_accepted(club, scorer):
    game = _new_game(club, scorer)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(*_insert_event_sql(game.pk, 3))
        cursor.execute("UPDATE games_game SET seq = 3 WHERE id = %s", [game.pk])
    game.refresh_from_db()
    assert game.seq == 3 and Event.objects.filter(game=game).count() == 3


# --- the app role (PostgreSQL) ------------------------------------------------------------------


@pytest.fixture
def app_role():
    """The name of the role the tests connect as; this module's PostgreSQL tests need that mode."""
    if not app_role_mode():
        message = (
            "not in the app-role test mode: set DATABASE_URL to the app role's URL and "
            "DATABASE_OWNER_URL to the owner's (make test-postgres does)"
        )
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return db_roles_mode.app_role()


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_tests_connect_as_an_ordinary_role_that_owns_nothing(app_role):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (app_role, False, False)
        cursor.execute(
            "SELECT count(*) FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
        )
        assert cursor.fetchone() == (0,)


@pytest.mark.postgres
def test_the_api_append_commits_as_the_app_role(transactional_db, app_role, club, scorer):
    # Committed (transactional test): the deferred check on games_event runs at COMMIT too.
    game = _new_game(club, scorer, events=0)
    client = client_for(scorer)
    first = client.post(f"/api/games/{game.pk}/events/", {"expected_seq": 0, "events": [hand(), hand()]}, format="json")
    second = client.post(f"/api/games/{game.pk}/events/", {"expected_seq": 2, "events": [hand()]}, format="json")
    assert (first.status_code, second.status_code) == (201, 201), (first.content, second.content)
    assert second.json()["seq"] == 3
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2, 3]
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone() == (app_role,)


REFUSED_TO_THE_APP = [
    ("UPDATE games_event SET type = 'pass'", "permission denied for table games_event"),
    ("DELETE FROM games_event", "permission denied for table games_event"),
    ("TRUNCATE games_event", "permission denied for table games_event"),
    ("TRUNCATE games_game CASCADE", "permission denied for table games_game"),
    ("ALTER TABLE games_event DISABLE TRIGGER ALL", "must be owner of table games_event"),
    ("ALTER TABLE games_event DISABLE TRIGGER games_event_no_update_delete", "must be owner of table games_event"),
    ("ALTER TABLE games_game DISABLE TRIGGER games_game_seq_follows_events", "must be owner of table games_game"),
    ("DROP TRIGGER games_event_seq_is_next ON games_event", "must be owner of (table|relation) games_event"),
    (
        "CREATE OR REPLACE FUNCTION games_event_refuse_change() RETURNS trigger AS $$ BEGIN RETURN NEW; END; $$ "
        "LANGUAGE plpgsql",
        "permission denied for schema public|must be owner of function",
    ),
    (
        "CREATE OR REPLACE FUNCTION games_event_check_seq() RETURNS trigger AS $$ BEGIN RETURN NEW; END; $$ "
        "LANGUAGE plpgsql",
        "permission denied for schema public|must be owner of function",
    ),
    ("SET LOCAL session_replication_role = replica", "permission denied to set parameter"),
    ("SET session_replication_role = replica", "permission denied to set parameter"),
    ("CREATE TABLE games_event_copy (id int)", "permission denied for schema public"),
    ("UPDATE django_migrations SET app = app", "permission denied for table django_migrations"),
]


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sql", "refusal"), REFUSED_TO_THE_APP, ids=[s.split(" (")[0][:60] for s, _ in REFUSED_TO_THE_APP]
)
def test_the_app_role_cannot_change_events_or_lift_the_guards(app_role, club, scorer, sql, refusal):
    game = _new_game(club, scorer)
    with pytest.raises(DatabaseError, match=refusal):
        _raw(sql)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tgname, tgenabled FROM pg_trigger WHERE tgrelid IN ('games_event'::regclass, "
            "'games_game'::regclass) AND NOT tgisinternal ORDER BY tgname"
        )
        assert cursor.fetchall() == [
            ("games_event_no_truncate", "O"),
            ("games_event_no_update_delete", "O"),
            ("games_event_seq_is_next", "O"),
            ("games_game_caught_up", "O"),
            ("games_game_seq_follows_events", "O"),
            ("games_game_seq_notify", "O"),  # tells the long polls (games.live), guards nothing
        ]
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone() == ("origin",)
    assert list(Event.objects.filter(game=game).values_list("seq", "type")) == [(1, "hand_result"), (2, "hand_result")]


@pytest.mark.postgres
def test_events_the_game_does_not_count_cannot_be_committed(transactional_db, app_role, club, scorer):
    game = _new_game(club, scorer)
    with pytest.raises(IntegrityError, match="event 3 of game .* stored, the game says 2"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(*_insert_event_sql(game.pk, 3))  # the next seq, but games_game.seq stays 2
    assert Event.objects.filter(game=game).count() == 2


@pytest.mark.postgres
def test_events_of_a_copy_the_games_do_not_count_cannot_be_committed(transactional_db, app_role, club, scorer):
    """A COPY of events (a client of the app's role writing in bulk): every row of the statement
    continues its game's stream, but one game's seq is not moved: COMMIT refuses the transaction
    (games_game_caught_up, 0016)."""
    game, other = _new_game(club, scorer), _new_game(club, scorer)
    payload = '{"calls": {}, "out": [0, 1, 2, 3], "points": [50, 50]}'

    def copy() -> None:
        with connection.cursor() as cursor, connection.wrap_database_errors:
            with cursor.cursor.copy("COPY games_event (game_id, seq, type, payload, recorded_at) FROM STDIN") as out:
                for g in (game, other):
                    for s in (3, 4):
                        out.write_row((g.pk, s, "hand_result", payload, "2026-01-01T00:00:00Z"))

    with pytest.raises(IntegrityError, match=f"event 4 of game {game.pk} stored, the game says 2"):
        with transaction.atomic():
            copy()
            Game.objects.filter(pk=other.pk).update(seq=4)
    assert Event.objects.filter(game__in=[game, other]).count() == 4
    with transaction.atomic():  # both moved: committed
        copy()
        Game.objects.filter(pk__in=[game.pk, other.pk]).update(seq=4)
    assert Event.objects.filter(game__in=[game, other]).count() == 8


@pytest.mark.postgres
def test_the_triggers_refuse_the_owner_too(transactional_db, app_role, club, scorer):
    """The role is the first guard for the app; the append-only triggers stay the guard for
    anyone who may write the table (here the owner, on committed rows)."""
    game = _new_game(club, scorer)
    for sql in ("UPDATE games_event SET type = 'pass'", "DELETE FROM games_event", "TRUNCATE games_event CASCADE"):
        with pytest.raises(DatabaseError, match="append-only"):
            with owner_connection() as owner, owner.cursor() as cursor:
                cursor.execute(sql)
    with pytest.raises(DatabaseError, match="seq must be the next one"):
        with owner_connection() as owner, owner.cursor() as cursor:
            cursor.execute(*_insert_event_sql(game.pk, 10_000))
    assert Event.objects.filter(game=game).count() == 2


def _role_grants(cursor, role: str) -> list[tuple[str, str]]:
    cursor.execute(
        "SELECT table_name, privilege_type FROM information_schema.role_table_grants WHERE grantee = %s ORDER BY 1, 2",
        [role],
    )
    return cursor.fetchall()


@pytest.mark.postgres
@pytest.mark.django_db(databases=["default", "owner"])
def test_grant_app_role_is_idempotent_and_narrows_extra_rights(app_role):
    from django.db import connections

    owner = connections[db_roles.OWNER_ALIAS]
    with owner.cursor() as cursor:
        before = _role_grants(cursor, app_role)
        cursor.execute(f"GRANT UPDATE, DELETE, TRUNCATE ON games_event TO {app_role}")
        call_command("grant_app_role", stdout=io.StringIO())
        call_command("grant_app_role", stdout=io.StringIO())
        after = _role_grants(cursor, app_role)
    assert after == before
    assert [p for t, p in after if t == "games_event"] == ["INSERT", "SELECT"]
    assert {t for t, p in after if p == "TRUNCATE"} == set()


@pytest.mark.postgres
@pytest.mark.django_db(databases=["default", "owner"])
def test_grant_app_role_refuses_a_superuser(app_role):
    with pytest.raises(CommandError, match="superuser"):
        call_command("grant_app_role", "--role", "postgres", stdout=io.StringIO())


@pytest.mark.postgres
def test_manage_py_migrate_connects_as_the_owner_and_grants_the_app_role(django_db_setup, django_db_blocker, app_role):
    """games/management/commands/migrate.py, in a process of its own on the test database (all
    migrations applied: what remains is the owner's connection and the grant, which takes back
    a right the role should not have)."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    from urllib.parse import quote, urlsplit, urlunsplit

    from django.db import connections

    test_db = "/" + quote(connections["default"].settings_dict["NAME"])
    env = {
        **os.environ,
        **{
            var: urlunsplit(urlsplit(os.environ[var])._replace(path=test_db))
            for var in ("DATABASE_URL", "DATABASE_OWNER_URL")
        },
    }
    with django_db_blocker.unblock():
        with owner_connection() as owner, owner.cursor() as cursor:
            cursor.execute(f"GRANT UPDATE ON games_event TO {app_role}")
        result = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Migrating as the owner" in result.stdout and f"Granted {app_role} its rights" in result.stdout
        with owner_connection() as owner, owner.cursor() as cursor:
            assert [p for t, p in _role_grants(cursor, app_role) if t == "games_event"] == ["INSERT", "SELECT"]


@pytest.mark.postgres
@pytest.mark.django_db
def test_every_streams_event_table_is_select_and_insert_only_for_the_app(app_role):
    """The event table of each kind of stream (a model on games.streams' StreamEvent) is
    append-only against the app role without a line of its own in games/db_roles.py."""
    tables = db_roles.stream_event_tables()
    assert {
        "games_event",
        "tournaments_tournamentevent",
        "tournaments_seasonevent",
        "tournaments_bracketevent",
        "tournaments_leagueevent",
    } <= set(tables)
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(
                "SELECT privilege_type FROM information_schema.role_table_grants WHERE grantee = %s AND table_name = %s",
                [app_role, table],
            )
            assert sorted(row[0] for row in cursor.fetchall()) == ["INSERT", "SELECT"], table
