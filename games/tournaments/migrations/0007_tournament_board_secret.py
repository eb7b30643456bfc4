from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_tournament_source")]

    operations = [
        migrations.AddField(
            model_name="tournament", name="board_secret", field=models.CharField(blank=True, default="", max_length=64)
        ),
    ]
