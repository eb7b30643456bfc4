"""GameOutcome.seq (the game's seq an outcome was folded at: a different seq means the outcome is
stale) and the rating task's transactional outbox (RatingOutbox), issue #14.

Existing outcomes get their game's current seq: they were folded from the stream as it stood then,
and only a game finished, reopened by an `undo` and finished again can differ. Run
`manage.py recompute_ratings --refold` once after upgrading to refold those too."""

import django.db.models.deletion
from django.db import migrations, models


def fill_seq(apps, schema_editor):
    GameOutcome = apps.get_model("games", "GameOutcome")
    Game = apps.get_model("games", "Game")
    GameOutcome.objects.update(
        seq=models.Subquery(Game.objects.filter(pk=models.OuterRef("game_id")).values("seq")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_player_name_unique_ignoring_case_and_spaces"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameoutcome",
            name="seq",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(fill_seq, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="gameoutcome",
            name="seq",
            field=models.PositiveIntegerField(),
        ),
        migrations.CreateModel(
            name="RatingOutbox",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seq", models.PositiveIntegerField()),
                ("created_at", models.DateTimeField()),
                ("queued_at", models.DateTimeField(blank=True, null=True)),
                (
                    "game",
                    models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="games.game"),
                ),
            ],
            options={
                "indexes": [models.Index(fields=["game", "seq"], name="rating_outbox_game")],
            },
        ),
    ]
