"""The ratings' five models (GameOutcome, RatingPool, RatingChange, PlayerRating, RatingOutbox) leave
the records' state: they are the ratings app's now (ratings/0001 declares them there). State only:
their tables (games_gameoutcome, ...), rows, indexes and constraints stay as they are
(tests/ratings/test_app_migration.py)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0026_api_game_content_hash_updated_at"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="playerrating",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="playerrating",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="ratingchange",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="ratingchange",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="ratingchange",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="ratingoutbox",
                    name="game",
                ),
                migrations.RemoveField(
                    model_name="ratingpool",
                    name="club",
                ),
                migrations.RemoveField(
                    model_name="ratingpool",
                    name="last_game",
                ),
                migrations.DeleteModel(
                    name="GameOutcome",
                ),
                migrations.DeleteModel(
                    name="PlayerRating",
                ),
                migrations.DeleteModel(
                    name="RatingChange",
                ),
                migrations.DeleteModel(
                    name="RatingOutbox",
                ),
                migrations.DeleteModel(
                    name="RatingPool",
                ),
            ],
            database_operations=[],
        ),
    ]
