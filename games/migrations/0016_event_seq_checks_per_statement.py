"""The seq checks of 0012 on PostgreSQL once per statement and game instead of once per event row
(issue #20: the bulk import COPYs about 1,900 event rows a file, and the two per-row triggers cost
the server about 4 of its 6.5 CPU-ms a hand, 50 µs a row). The guarantees are the same:

- `games_event_seq_is_next` (now AFTER INSERT, FOR EACH STATEMENT, with the statement's new rows
  as a transition table): for every game with new rows, the new seqs have no gap, the smallest
  is one more than the game's largest older seq (1 for its first event), and no older row lies
  beyond them. A seq already taken is refused first by the unique (game, seq) index (a
  unique-violation IntegrityError instead of this trigger's check_violation); two concurrent
  inserts of the same next seq, as before, are refused by that index. The rows of one statement
  need no longer be in seq order: the stream they leave behind is checked, not the order of the
  VALUES. Cost: two index probes per game and statement.
- `games_event_game_caught_up` (deferred to COMMIT, row-level on games_event) becomes
  `games_game_caught_up`: a constraint trigger deferred to COMMIT on games_game (AFTER UPDATE OF
  seq, one per game row updated): at COMMIT the game's seq is its newest event's. Every statement
  that inserts events updates the `seq` of their games (`SET seq = seq`, in the statement
  trigger above), so a transaction that stores events the game does not count still fails at
  COMMIT, now with one check per game and statement instead of one per event. PostgreSQL's
  constraint triggers are row-level only, hence the game row as the unit.
- `games_game_seq_follows_events` (0012) is unchanged: a game's seq moves only to its newest event.

SQLite has row-level triggers only: 0012's stay there. Errors use SQLSTATE check_violation (23514),
an IntegrityError for Django, with 0012's messages. Self-contained SQL, like 0012's.
"""

from django.db import migrations

EVENT_MESSAGE = "games_event seq must be the next one of its game"
GAME_MESSAGE = "games_game.seq must be the seq of the newest event of the game"

POSTGRES_INSTALL = [
    "DROP TRIGGER IF EXISTS games_event_game_caught_up ON games_event",
    "DROP FUNCTION IF EXISTS games_event_check_caught_up()",
    "DROP TRIGGER IF EXISTS games_event_seq_is_next ON games_event",
    "DROP FUNCTION IF EXISTS games_event_check_seq()",
    f"""
    CREATE OR REPLACE FUNCTION games_event_check_seq() RETURNS trigger AS $$
    DECLARE bad record;
    BEGIN
        SELECT n.game_id, n.first, n.last, n.rows,
               (SELECT coalesce(max(e.seq), 0) FROM games_event e
                 WHERE e.game_id = n.game_id AND e.seq < n.first) AS older
          INTO bad
          FROM (SELECT game_id, min(seq) AS first, max(seq) AS last, count(*) AS rows
                  FROM new_rows GROUP BY game_id) n
         WHERE n.first IS NULL
            OR n.last - n.first + 1 <> n.rows
            OR n.first <> 1 + (SELECT coalesce(max(e.seq), 0) FROM games_event e
                                WHERE e.game_id = n.game_id AND e.seq < n.first)
            OR EXISTS (SELECT 1 FROM games_event e WHERE e.game_id = n.game_id AND e.seq > n.last)
         LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION '{EVENT_MESSAGE}: got %..% (% rows), game % has % events',
                bad.first, bad.last, bad.rows, bad.game_id, bad.older
                USING ERRCODE = 'check_violation';
        END IF;
        -- the games whose streams grew: their seq is checked at COMMIT (games_game_caught_up)
        UPDATE games_game g SET seq = g.seq WHERE g.id IN (SELECT DISTINCT game_id FROM new_rows);
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_event_seq_is_next AFTER INSERT ON games_event
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_check_seq()
    """,
    f"""
    CREATE OR REPLACE FUNCTION games_game_check_caught_up() RETURNS trigger AS $$
    DECLARE game_seq bigint; newest bigint;
    BEGIN
        SELECT seq INTO game_seq FROM games_game WHERE id = NEW.id;
        SELECT coalesce(max(seq), 0) INTO newest FROM games_event WHERE game_id = NEW.id;
        IF game_seq < newest THEN
            RAISE EXCEPTION '{GAME_MESSAGE}: event % of game % stored, the game says %',
                newest, NEW.id, game_seq USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE CONSTRAINT TRIGGER games_game_caught_up AFTER UPDATE OF seq ON games_game
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION games_game_check_caught_up()
    """,
]

#: back to 0012's row-level triggers
POSTGRES_UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_game_caught_up ON games_game",
    "DROP FUNCTION IF EXISTS games_game_check_caught_up()",
    "DROP TRIGGER IF EXISTS games_event_seq_is_next ON games_event",
    "DROP FUNCTION IF EXISTS games_event_check_seq()",
    f"""
    CREATE OR REPLACE FUNCTION games_event_check_seq() RETURNS trigger AS $$
    DECLARE newest bigint;
    BEGIN
        SELECT coalesce(max(seq), 0) INTO newest FROM games_event WHERE game_id = NEW.game_id;
        IF NEW.seq IS DISTINCT FROM newest + 1 THEN
            RAISE EXCEPTION '{EVENT_MESSAGE}: got %, game % has % events', NEW.seq, NEW.game_id, newest
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_event_seq_is_next BEFORE INSERT ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_check_seq()
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


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            for sql in POSTGRES_INSTALL:
                cursor.execute(sql)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            for sql in POSTGRES_UNINSTALL:
                cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_club_league_rules")]

    operations = [migrations.RunPython(forwards, backwards)]
