# Watching on a delay the club sets (issue 34 item 5) and the member who took a seat over (their /me/)

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("online", "0003_onlinesettings_turn_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="onlinesettings",
            name="watch_delay_events",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="onlineseat",
            name="taken_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
