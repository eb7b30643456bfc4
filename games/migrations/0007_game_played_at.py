"""Game.played_at: when the game was played (issue #19, real dates).

Existing games take their created_at (every game stored so far was dated by its entry); from now
on a game entered live gets the time it is created and an imported one the date of its log or
score sheet (record meta.played_at, games.services.game_import)."""

import django.utils.timezone
from django.db import migrations, models


def from_created_at(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.update(played_at=models.F("created_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_club_reveal_hands_setting"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="played_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(from_created_at, migrations.RunPython.noop),
    ]
