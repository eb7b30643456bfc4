"""A club's league (docs/tournament.md, "Leagues"): its head row and its event stream, with the
stream store's guarantees on `tournaments_leagueevent` as 0014 installs them on a season's events:
append-only (never updated nor deleted) and each INSERT's `seq` the next one of its league
(games.streams.triggers). The test suite's flush plugin (tests/plugins/append_only_flush.py)
reuses `install` / `uninstall`."""

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from games.streams import triggers

TABLE = "tournaments_leagueevent"
APPEND_ONLY = triggers.append_only(TABLE, prefix="tournaments_league_event")
SEQ_IS_NEXT = triggers.seq_is_next(TABLE, prefix="tournaments_league_event", head="league")


def install(connection) -> None:
    triggers.install(connection, APPEND_ONLY)


def uninstall(connection) -> None:
    triggers.uninstall(connection, APPEND_ONLY)


def forwards(apps, schema_editor):
    install(schema_editor.connection)
    triggers.install(schema_editor.connection, SEQ_IS_NEXT)


def backwards(apps, schema_editor):
    triggers.uninstall(schema_editor.connection, SEQ_IS_NEXT)
    uninstall(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0029_club_league_rules_moved_to_ratings"),
        ("tournaments", "0015_brackets"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="League",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("stream_id", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("seq", models.PositiveIntegerField(default=0)),
                ("name", models.CharField(max_length=100)),
                ("header", models.JSONField()),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="leagues", to="games.club"
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="LeagueEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveIntegerField()),
                ("type", models.CharField(max_length=30)),
                ("payload", models.JSONField(default=dict)),
                ("recorded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "league",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="events",
                        to="tournaments.league",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["league_id", "seq"],
                "constraints": [models.UniqueConstraint(fields=("league", "seq"), name="league_event_unique_seq")],
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
