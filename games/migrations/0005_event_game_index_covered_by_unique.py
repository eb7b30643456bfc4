"""Drop the single-column index on games_event.game_id: the unique (game_id, seq) index serves
every lookup by game, and one index fewer is one write fewer on every appended event.

Written by hand: AlterField(db_index=False) makes Django rebuild the table on SQLite (create a
copy, drop the old table), and dropping the table drops its append-only triggers with it
(migration 0002). Dropping the index alone keeps the table, its rows and its triggers. The index
name is the one Django gave it on both PostgreSQL and SQLite."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "games_event_game_id_afa0391c"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_ratingchange_fewer_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="games.game",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    sql=f'DROP INDEX "{INDEX}"',  # no IF EXISTS: another name must fail, not pass
                    reverse_sql=f'CREATE INDEX "{INDEX}" ON "games_event" ("game_id")',
                ),
            ],
        ),
    ]
