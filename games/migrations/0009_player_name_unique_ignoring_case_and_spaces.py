"""Player names unique in a club regardless of case and surrounding spaces (2 of 2): the
constraint on (club, LOWER(TRIM(name))), once 0008 has resolved the clashes already stored."""

from django.db import migrations, models
from django.db.models.functions import Lower, Trim


class Migration(migrations.Migration):
    dependencies = [("games", "0008_player_names_trimmed_and_clashes_resolved")]

    operations = [
        migrations.RemoveConstraint(model_name="player", name="player_unique_name_per_club"),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                models.F("club"), Lower(Trim("name")), name="player_unique_name_ci_per_club"
            ),
        ),
    ]
