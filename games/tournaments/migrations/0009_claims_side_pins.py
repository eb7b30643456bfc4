"""Each side's PIN on a table code (issue 30, finding 5): the live codes of a round in progress
get theirs here, so their tables can send and confirm a result after the upgrade (the TD prints
the cards again to hand out the slips)."""

import secrets

from django.db import migrations, models

# games.tournaments.table_codes.ALPHABET and PIN_LENGTH as they were when this was written
ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
PIN_LENGTH = 6


def _pin() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(PIN_LENGTH))


def pins_for_live_codes(apps, schema_editor):
    TableCode = apps.get_model("tournaments", "TableCode")
    for row in TableCode.objects.filter(ended_at__isnull=True, ns_pin=""):
        ns = _pin()
        ew = _pin()
        while ew == ns:
            ew = _pin()
        row.ns_pin, row.ew_pin = ns, ew
        row.save(update_fields=["ns_pin", "ew_pin"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0008_event_seq_is_next")]

    operations = [
        migrations.AddField(
            model_name="tablecode", name="ns_pin", field=models.CharField(blank=True, default="", max_length=8)
        ),
        migrations.AddField(
            model_name="tablecode", name="ew_pin", field=models.CharField(blank=True, default="", max_length=8)
        ),
        migrations.RunPython(pins_for_live_codes, migrations.RunPython.noop),
    ]
