"""Two columns of the stream head, filled for the games stored before:

- `content_hash`: the record's content whoever recorded it (games.services.content), so that an
  import recognises a game recorded by appends (issue 37 finding 6). Filled by folding each
  game's stored events through the same chain the writes extend, 500 games a query (about 2 µs an
  event: a club of 100,000 games of 300 events takes about a minute).
- `updated_at`: the time of the game's last write (`?updated_since=` of the game lists): its
  newest event's `recorded_at`, or its creation for a game without events.

On SQLite, adding a column that has a default rebuilds `games_game` (create, copy, drop,
rename) and its seq triggers of 0012 go with the old table; the last operation puts them back
where they are missing (PostgreSQL adds the columns in place and keeps its triggers), as
tournaments/0005 does for its stream.

Reverse: the columns are dropped (nothing else reads them).
"""

import importlib

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Max

from games.services.content import content_extended, content_start

CHUNK = 500
SEQ_CHECKS = importlib.import_module("games.migrations.0012_event_seq_checks")
#: 0012's SQLite triggers on games_game (the one on games_event is untouched by the rebuild)
GAME_TRIGGERS = {"games_game_seq_follows_events_insert", "games_game_seq_follows_events_update"}


def restore_game_triggers(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'games_game'")
        present = {name for (name,) in cursor.fetchall()}
        for sql in SEQ_CHECKS.SQLITE_INSTALL:
            name = next((t for t in GAME_TRIGGERS if t in sql), None)
            if name is not None and name not in present:
                cursor.execute(sql)


def fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Event = apps.get_model("games", "Event")
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    for first in range(0, len(ids), CHUNK):
        games = {g.pk: g for g in Game.objects.filter(pk__in=ids[first : first + CHUNK])}
        events: dict[int, list[dict]] = {pk: [] for pk in games}
        rows = (
            Event.objects.filter(game_id__in=games).order_by("game_id", "seq").values_list("game_id", "type", "payload")
        )
        for game_id, kind, payload in rows.iterator(chunk_size=5000):
            events[game_id].append({"type": kind, **payload})
        newest = dict(
            Event.objects.filter(game_id__in=games)
            .values("game_id")
            .annotate(at=Max("recorded_at"))
            .values_list("game_id", "at")
        )
        for pk, game in games.items():
            game.content_hash = content_extended(content_start(game.variant, game.options, game.header), events[pk])
            game.updated_at = newest.get(pk) or game.created_at
        Game.objects.bulk_update(list(games.values()), ["content_hash", "updated_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0025_dates_game_status_unfinished"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="content_hash",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="updated_at",
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["club", "content_hash"], name="game_club_content"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(restore_game_triggers, migrations.RunPython.noop),
    ]
