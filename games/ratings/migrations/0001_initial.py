"""The ratings' five models, declared under the ratings app: the state games/0027 took out of the
records' app, with the tables they already have (db_table kept: games_gameoutcome, ...). State
only: nothing is created, no row moves (tests/ratings/test_app_migration.py)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0027_ratings_models_move_to_the_ratings_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="GameOutcome",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("variant", models.CharField(max_length=30)),
                        ("finished_at", models.DateTimeField()),
                        ("sides", models.JSONField(default=list)),
                        ("totals", models.JSONField(blank=True, null=True)),
                        ("winner", models.SmallIntegerField(blank=True, null=True)),
                        ("hands", models.PositiveIntegerField(default=0)),
                        ("hand_points", models.JSONField(blank=True, default=list)),
                        ("calls", models.JSONField(blank=True, default=dict)),
                        ("doubles", models.JSONField(blank=True, default=dict)),
                        ("reason", models.CharField(blank=True, default="", max_length=200)),
                        ("seq", models.PositiveIntegerField()),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.club"
                            ),
                        ),
                        (
                            "game",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="outcome", to="games.game"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_gameoutcome",
                        "indexes": [
                            models.Index(fields=["club", "variant", "finished_at", "game"], name="outcome_pool_order")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="PlayerRating",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("variant", models.CharField(max_length=30)),
                        ("rating", models.FloatField()),
                        ("rd", models.FloatField()),
                        ("games", models.PositiveIntegerField()),
                        ("provisional", models.BooleanField()),
                        ("last_change", models.FloatField(default=0.0)),
                        ("last_game_at", models.DateTimeField()),
                        ("mu", models.FloatField()),
                        ("var", models.FloatField()),
                        ("last_t", models.FloatField()),
                        ("copies", models.JSONField(blank=True, default=list)),
                        ("shown", models.PositiveSmallIntegerField(default=0)),
                        ("elo", models.FloatField(default=1500.0)),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.club"
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="games.player"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_playerrating",
                        "indexes": [models.Index(fields=["club", "variant", "-rating"], name="playerrating_table")],
                        "constraints": [
                            models.UniqueConstraint(fields=("player", "variant"), name="player_rating_unique")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingChange",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("variant", models.CharField(max_length=30)),
                        ("finished_at", models.DateTimeField()),
                        ("ordinal", models.PositiveIntegerField()),
                        ("side", models.PositiveSmallIntegerField()),
                        ("rating_before", models.FloatField()),
                        ("rating_after", models.FloatField()),
                        ("rd_before", models.FloatField()),
                        ("rd_after", models.FloatField()),
                        ("expected", models.FloatField()),
                        ("score", models.FloatField()),
                        ("games", models.PositiveIntegerField()),
                        ("points_for", models.FloatField(null=True)),
                        ("points_against", models.FloatField(null=True)),
                        ("tichu_called", models.PositiveSmallIntegerField(default=0)),
                        ("tichu_made", models.PositiveSmallIntegerField(default=0)),
                        ("grand_called", models.PositiveSmallIntegerField(default=0)),
                        ("grand_made", models.PositiveSmallIntegerField(default=0)),
                        ("double_victories", models.PositiveSmallIntegerField(default=0)),
                        ("elo_before", models.FloatField(default=1500.0)),
                        ("elo_after", models.FloatField(default=1500.0)),
                        (
                            "club",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.club",
                            ),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to="games.game",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_changes",
                                to="games.player",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_ratingchange",
                        "indexes": [
                            models.Index(fields=["club", "variant", "finished_at"], name="ratingchange_pool_time"),
                            models.Index(fields=["player", "variant", "ordinal"], name="ratingchange_player"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(fields=("game", "player"), name="rating_change_unique")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingOutbox",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("seq", models.PositiveIntegerField()),
                        ("created_at", models.DateTimeField()),
                        ("queued_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.game"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_ratingoutbox",
                        "indexes": [models.Index(fields=["game", "seq"], name="rating_outbox_game")],
                    },
                ),
                migrations.CreateModel(
                    name="RatingPool",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("variant", models.CharField(max_length=30)),
                        ("system", models.CharField(max_length=60)),
                        ("games_rated", models.PositiveIntegerField(default=0)),
                        ("last_finished_at", models.DateTimeField(blank=True, null=True)),
                        ("recomputed_at", models.DateTimeField(blank=True, null=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("log_weights", models.JSONField(blank=True, default=list)),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rating_pools",
                                to="games.club",
                            ),
                        ),
                        (
                            "last_game",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="games.game",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_ratingpool",
                        "constraints": [models.UniqueConstraint(fields=("club", "variant"), name="rating_pool_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
