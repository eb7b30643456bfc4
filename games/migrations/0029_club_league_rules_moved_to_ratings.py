"""The league's rules leave Club: they are the ratings' (ratings.LeagueRules). Runs after
ratings/0003 copied every club's values there (that migration's run_before: the records name no
migration of the ratings)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_club_league_rates_bot_games"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="club",
            name="league_inactive_days",
        ),
        migrations.RemoveField(
            model_name="club",
            name="league_leads_with",
        ),
        migrations.RemoveField(
            model_name="club",
            name="league_min_games",
        ),
        migrations.RemoveField(
            model_name="club",
            name="league_rates_bot_games",
        ),
        migrations.RemoveField(
            model_name="club",
            name="league_season_start_month",
        ),
    ]
