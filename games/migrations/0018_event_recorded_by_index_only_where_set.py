"""Index games_event.recorded_by_id only where it is set (issue #20 item 3).

The index serves one lookup: the events a user recorded (deleting a user is refused while any
exist: on_delete PROTECT), which asks for given ids, never for NULL. An imported game's events
record no user, so the bulk import wrote an index entry per event that nothing reads: 0.7 KB of
games_event's 18.7 KB a hand, and about 7 % of PostgreSQL's CPU a hand of the import. A partial
index (WHERE recorded_by_id IS NOT NULL) still answers `recorded_by_id IN (...)`: the planner
proves the condition from the equality.

Written by hand, as 0005: AlterField(db_index=False) makes Django rebuild the table on SQLite,
which would drop its append-only triggers (0002, 0012); dropping and creating the index alone
keeps the table, its rows and its triggers. The old index name is the one Django gave it on both
PostgreSQL and SQLite. Reverse: the full index again.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

OLD = "games_event_recorded_by_id_1805bc8a"
NEW = "event_recorded_by_set"


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0017_event_seq_check_writes_lagging_games_only"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="recorded_by",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AddIndex(
                    model_name="event",
                    index=models.Index(condition=models.Q(recorded_by__isnull=False), fields=["recorded_by"], name=NEW),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    sql=[
                        f'DROP INDEX "{OLD}"',  # no IF EXISTS: another name must fail, not pass
                        f'CREATE INDEX "{NEW}" ON "games_event" ("recorded_by_id") WHERE "recorded_by_id" IS NOT NULL',
                    ],
                    reverse_sql=[f'DROP INDEX "{NEW}"', f'CREATE INDEX "{OLD}" ON "games_event" ("recorded_by_id")'],
                ),
            ],
        ),
    ]
