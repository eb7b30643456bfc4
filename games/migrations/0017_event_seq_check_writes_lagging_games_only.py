"""The single-event append wrote its game row twice on PostgreSQL since 0016 (issue #20): its one
statement (`WITH inserted AS (INSERT INTO games_event ...) UPDATE games_game SET seq = ...`,
games/sql.py) moves the game's seq, and then the statement trigger `games_event_seq_is_next`
wrote the same row again (`SET seq = seq`) to queue the COMMIT check `games_game_caught_up`.
That second write is needed only for a game whose seq has not reached its new rows when the
trigger runs (an insert whose statement does not move the game: the bulk import's COPY, or a
transaction that forgets the game). A game whose seq has reached them was moved by an `UPDATE
OF seq` after 0012's rules (`games_game_seq_follows_events`: only ever to its newest event), and
that update queued `games_game_caught_up` itself; any later change of its seq queues it again,
and any later insert runs this trigger again. So the trigger now writes only the games whose seq
is below their new rows' last seq. The seq checks themselves are 0016's, unchanged; the tests of
the guarantees are tests/api/test_db_roles.py and tests/api/test_raw_sql.py (PostgreSQL).
Reverse: 0016's function. SQLite has 0012's row triggers and is untouched.
"""

from django.db import migrations

EVENT_MESSAGE = "games_event seq must be the next one of its game"

CHECKS = f"""
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
"""


def _function(update: str) -> str:
    return f"""
    CREATE OR REPLACE FUNCTION games_event_check_seq() RETURNS trigger AS $$
    DECLARE bad record;
    BEGIN
{CHECKS}
{update}
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """


#: only the games whose seq lags their new rows: their seq is checked at COMMIT (games_game_caught_up)
LAGGING_ONLY = _function("""
        UPDATE games_game g SET seq = g.seq
          FROM (SELECT game_id, max(seq) AS last FROM new_rows GROUP BY game_id) n
         WHERE g.id = n.game_id AND g.seq < n.last;
""")

#: 0016: every game with new rows
EVERY_GAME = _function("""
        UPDATE games_game g SET seq = g.seq WHERE g.id IN (SELECT DISTINCT game_id FROM new_rows);
""")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(LAGGING_ONLY)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(EVERY_GAME)


class Migration(migrations.Migration):
    dependencies = [("games", "0016_event_seq_checks_per_statement")]

    operations = [migrations.RunPython(forwards, backwards)]
