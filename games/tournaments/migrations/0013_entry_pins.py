"""Each entry's PIN for the evening (issue 33): a new table only; the table codes' per-side PINs
stay for the tournaments made before (nothing stored is rewritten)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_table_code_for_the_evening")]

    operations = [
        migrations.CreateModel(
            name="EntryPin",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("entry", models.TextField()),
                ("pin", models.CharField(max_length=8)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entry_pins",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["tournament_id", "id"],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "entry"), name="entrypin_one_per_entry"),
                    models.UniqueConstraint(fields=("tournament", "pin"), name="entrypin_unique_in_tournament"),
                ],
            },
        ),
    ]
