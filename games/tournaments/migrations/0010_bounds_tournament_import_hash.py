# An imported tournament's content hash, unique per club: the same file imported twice finds the
# tournament it made (games.tournaments.results_import).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_claims_side_pins"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="import_hash",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(
                condition=models.Q(("import_hash__isnull", False)),
                fields=("club", "import_hash"),
                name="tournament_unique_import_per_club",
            ),
        ),
    ]
