# The club's online settings: the turn clock (issue 34 item 4)

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_club_league_rates_bot_games"),
        ("online", "0002_onlineseat_bot"),
    ]

    operations = [
        migrations.CreateModel(
            name="OnlineSettings",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("turn_seconds", models.PositiveIntegerField(default=0)),
                (
                    "club",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="online_settings",
                        to="games.club",
                    ),
                ),
            ],
        ),
    ]
