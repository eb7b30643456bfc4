"""tests/plugins/append_only_flush.py: flush works with the append-only triggers, which stay."""
import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Event, Game
from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand
from tests.plugins.append_only_flush import _triggers_present


@pytest.mark.django_db(transaction=True)
def test_flush_empties_event_table_and_keeps_the_triggers(club, scorer):
    game = Game.objects.get(pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"])
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    assert Event.objects.count() == 1

    call_command("flush", interactive=False, verbosity=0)

    assert Event.objects.count() == 0
    assert _triggers_present(connection)
