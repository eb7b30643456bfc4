"""A club's league rules as a model of the ratings (LeagueRules, one row per club), and the VP an
outcome is counted by (GameOutcome.vp: a league that follows the tournaments' VP). The values
come from Club in 0003."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_club_league_rates_bot_games"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameoutcome",
            name="vp",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name="LeagueRules",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "leads_with",
                    models.CharField(
                        choices=[
                            ("elo", "The Elo table (a win never loses rating)"),
                            ("predictive", "The predictive rating (win chances, with its uncertainty)"),
                        ],
                        default="elo",
                        max_length=12,
                    ),
                ),
                (
                    "min_games",
                    models.PositiveSmallIntegerField(
                        default=5,
                        help_text="rated games a player needs to be ranked",
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(200),
                        ],
                    ),
                ),
                (
                    "inactive_days",
                    models.PositiveSmallIntegerField(
                        default=180,
                        help_text="a player whose last game is this many days older than the club's latest game is listed as inactive, unranked (0: never)",
                        validators=[django.core.validators.MaxValueValidator(3650)],
                    ),
                ),
                (
                    "season_start_month",
                    models.PositiveSmallIntegerField(
                        default=1,
                        help_text="the month a season starts (the league's 'this season' period)",
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(12),
                        ],
                    ),
                ),
                ("rates_bot_games", models.BooleanField(default=False)),
                ("follows_tournament_vp", models.BooleanField(default=False)),
                (
                    "club",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="league_rules", to="games.club"
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "league rules",
            },
        ),
    ]
