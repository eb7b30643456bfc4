from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_append_only_after_sqlite_table_rebuild")]

    operations = [
        migrations.AddField(model_name="tournament", name="source", field=models.JSONField(blank=True, default=dict)),
    ]
