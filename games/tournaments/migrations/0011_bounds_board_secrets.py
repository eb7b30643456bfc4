"""Every duplicate tournament gets a board secret.

Duplicate tournaments made before `board_secret` (0007) have none, and their boards were dealt
from the public string ``tournament:<id>``: anyone who may read the tournament could compute every
board before it is played. Each such tournament gets a secret drawn with `secrets` here, and the
boards are dealt from the secret alone from now on (games.tournaments.duplicate_boards.deal).

The secret is a column of the tournament's head row, not part of its append-only event stream,
so it is set with an UPDATE of that row. A round already dealt keeps the cards its games were
dealt; a board dealt after this migration comes from the new secret, so deploy it between rounds
of a running duplicate event (a round half dealt would compare tables that played different
cards), and reprint board sheets printed before it.
"""

import secrets

from django.db import migrations


def give_secrets(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(board_secret="").only("pk", "header").iterator():
        if (tournament.header or {}).get("system") == "duplicate":
            Tournament.objects.filter(pk=tournament.pk, board_secret="").update(board_secret=secrets.token_hex(16))


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_bounds_tournament_import_hash")]

    # Nothing to undo: a secret stays (dealing from the public string again would reveal the boards).
    operations = [migrations.RunPython(give_secrets, migrations.RunPython.noop)]
