"""A game's head tells the pages following it when its `seq` grows (games.live: a long poll that
LISTENs instead of reading the head every 0.15 s). PostgreSQL only: SQLite has no notifications,
and games.live polls there. The trigger is on the head's row, so every path that appends (the
API, the online table, an import) tells the listeners, at its commit."""

from django.db import migrations

INSTALL = [
    """
    CREATE OR REPLACE FUNCTION games_game_seq_notify() RETURNS trigger AS $$
    BEGIN
        IF NEW.seq IS DISTINCT FROM OLD.seq THEN
            PERFORM pg_notify('tichu_game_' || NEW.id, NEW.seq::text);
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_game_seq_notify AFTER UPDATE OF seq ON games_game
    FOR EACH ROW EXECUTE FUNCTION games_game_seq_notify()
    """,
]
UNINSTALL = [
    "DROP TRIGGER IF EXISTS games_game_seq_notify ON games_game",
    "DROP FUNCTION IF EXISTS games_game_seq_notify()",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for sql in statements:
                schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0029_club_league_rules_moved_to_ratings"),
    ]

    operations = [migrations.RunPython(_run(INSTALL), _run(UNINSTALL))]
