"""The stream's order in the database itself: an event's `seq` is the next one, and `games_game.seq`
follows its newest event.

0002 makes stored events unchangeable; this makes the append itself checked, also against a
client that writes SQL with the app's own role (docs/deploy.md):

- `games_event_seq_is_next` (BEFORE INSERT, each row): `seq` is the game's newest stored seq + 1
  (1 for its first event). A multi-row INSERT is checked row by row in VALUES order, each row
  seeing the ones before it, which is how the append service writes a batch (seq start+1,
  start+2, ...). Two concurrent inserts of the same next seq both pass here; the unique
  (game, seq) constraint refuses the second, as before.
- `games_game_seq_follows_events` (AFTER INSERT OR UPDATE OF seq, each row): `games_game.seq` may
  only be the seq of the game's newest event (0 for a game without events). AFTER, because the
  service inserts the events and moves the game in one statement on PostgreSQL (a data-modifying
  CTE whose INSERT runs after the UPDATE): AFTER row triggers fire at the end of the statement,
  when both are done.
- `games_event_game_caught_up` (PostgreSQL only; a constraint trigger deferred to COMMIT, each
  inserted row): the game's seq has reached the event, so no transaction can commit events the
  game does not count (readers read seq 1..games_game.seq). SQLite has no deferred triggers.

Errors use SQLSTATE check_violation (23514), an IntegrityError for Django. The SQL lives here,
here (the event's check: the stream store's, games.streams.triggers, pinned by
tests/api/test_stream_triggers.py), like 0002's.
"""

from django.db import migrations

from games.streams import triggers

GAME_MESSAGE = "games_game.seq must be the seq of the newest event of the game"

#: the event's check, the stream store's for every stream (games.streams.triggers.seq_is_next)
EVENT_SEQ = triggers.seq_is_next("games_event", prefix="games_event", head="game")
POSTGRES_INSTALL = EVENT_SEQ.of("postgresql", 0) + [
    f"""
    CREATE OR REPLACE FUNCTION games_game_check_seq() RETURNS trigger AS $$
    DECLARE newest bigint;
    BEGIN
        IF TG_OP = 'UPDATE' AND NEW.seq IS NOT DISTINCT FROM OLD.seq THEN
            RETURN NULL;
        END IF;
        SELECT coalesce(max(seq), 0) INTO newest FROM games_event WHERE game_id = NEW.id;
        IF NEW.seq IS DISTINCT FROM newest THEN
            RAISE EXCEPTION '{GAME_MESSAGE}: got %, game % has % events', NEW.seq, NEW.id, newest
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_game_seq_follows_events AFTER INSERT OR UPDATE OF seq ON games_game
    FOR EACH ROW EXECUTE FUNCTION games_game_check_seq()
    """,
    f"""
    CREATE OR REPLACE FUNCTION games_event_check_caught_up() RETURNS trigger AS $$
    DECLARE game_seq bigint;
    BEGIN
        SELECT seq INTO game_seq FROM games_game WHERE id = NEW.game_id;
        IF game_seq < NEW.seq THEN
            RAISE EXCEPTION '{GAME_MESSAGE}: event % of game % stored, the game says %',
                NEW.seq, NEW.game_id, game_seq USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE CONSTRAINT TRIGGER games_event_game_caught_up AFTER INSERT ON games_event
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION games_event_check_caught_up()
    """,
]
POSTGRES_UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_event_game_caught_up ON games_event",
    "DROP FUNCTION IF EXISTS games_event_check_caught_up()",
    "DROP TRIGGER IF EXISTS games_game_seq_follows_events ON games_game",
    "DROP FUNCTION IF EXISTS games_game_check_seq()",
    *EVENT_SEQ.of("postgresql", 1),
]
SQLITE_INSTALL = EVENT_SEQ.of("sqlite", 0) + [
    f"""
    CREATE TRIGGER games_game_seq_follows_events_insert AFTER INSERT ON games_game
    WHEN NEW.seq IS NOT 0
    BEGIN SELECT RAISE(ABORT, '{GAME_MESSAGE}'); END
    """,
    f"""
    CREATE TRIGGER games_game_seq_follows_events_update AFTER UPDATE OF seq ON games_game
    WHEN NEW.seq IS NOT OLD.seq
        AND NEW.seq IS NOT (SELECT coalesce(max(seq), 0) FROM games_event WHERE game_id = NEW.id)
    BEGIN SELECT RAISE(ABORT, '{GAME_MESSAGE}'); END
    """,
]
SQLITE_UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_game_seq_follows_events_update",
    "DROP TRIGGER IF EXISTS games_game_seq_follows_events_insert",
    *EVENT_SEQ.of("sqlite", 1),
]
STATEMENTS = {
    "postgresql": (POSTGRES_INSTALL, POSTGRES_UNINSTALL),
    "sqlite": (SQLITE_INSTALL, SQLITE_UNINSTALL),
}


def _run(connection, which: int) -> None:
    statements = STATEMENTS.get(connection.vendor)
    if statements is None:
        raise NotImplementedError(f"no seq triggers for the {connection.vendor} backend")
    with connection.cursor() as cursor:
        for sql in statements[which]:
            cursor.execute(sql)


def forwards(apps, schema_editor):
    _run(schema_editor.connection, 0)


def backwards(apps, schema_editor):
    _run(schema_editor.connection, 1)


class Migration(migrations.Migration):
    dependencies = [("games", "0011_import_jobs")]

    operations = [migrations.RunPython(forwards, backwards)]
