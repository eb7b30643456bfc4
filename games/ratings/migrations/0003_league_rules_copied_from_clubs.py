"""Every club's league rules, copied from the columns Club had (games/0028) into a LeagueRules row
each, before games/0029 removes those columns (run_before: the records' migrations name none of
the ratings'). Backwards, the rows' values go back into the columns games/0029 gives back (a club
without a row keeps the columns' defaults). tests/ratings/test_league_rules_migration.py."""

from django.db import migrations

#: LeagueRules field: the Club column it was
COLUMNS = {
    "leads_with": "league_leads_with",
    "min_games": "league_min_games",
    "inactive_days": "league_inactive_days",
    "season_start_month": "league_season_start_month",
    "rates_bot_games": "league_rates_bot_games",
}


def copy_to_rules(apps, schema_editor):
    Club = apps.get_model("games", "Club")
    LeagueRules = apps.get_model("ratings", "LeagueRules")
    rows = [
        LeagueRules(club_id=club["id"], **{field: club[column] for field, column in COLUMNS.items()})
        for club in Club.objects.order_by("id").values("id", *COLUMNS.values())
    ]
    LeagueRules.objects.bulk_create(rows, batch_size=1000)


def copy_back_to_clubs(apps, schema_editor):
    Club = apps.get_model("games", "Club")
    LeagueRules = apps.get_model("ratings", "LeagueRules")
    for rules in LeagueRules.objects.order_by("club_id").iterator():
        Club.objects.filter(pk=rules.club_id).update(
            **{column: getattr(rules, field) for field, column in COLUMNS.items()}
        )
    LeagueRules.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_league_rules_and_outcome_vp"),
    ]
    run_before = [
        ("games", "0029_club_league_rules_moved_to_ratings"),
    ]

    operations = [
        migrations.RunPython(copy_to_rules, copy_back_to_clubs),
    ]
