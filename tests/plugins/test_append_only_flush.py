"""tests/plugins/append_only_flush.py: flush works with the append-only triggers, which stay."""

import pytest
from django.core.management import call_command
from django.db import connection

from games.models import Event, Game
from games.services import append_events, game_create
from games.tournaments.models import TournamentEvent
from games.tournaments.services import append_events as tournament_append
from games.tournaments.services import tournament_create
from tests.api.helpers import PLAYERS, hand
from tests.plugins.append_only_flush import APPEND_ONLY, _triggers_present


@pytest.mark.django_db(transaction=True)
def test_flush_empties_event_table_and_keeps_the_triggers(club, scorer):
    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    )
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    assert Event.objects.count() == 1
    header = {"entrants": "pairs", "system": "manual", "scoring": "points", "rounds": 1}
    tournament = tournament_create(club=club, name="T", header=header, user=scorer).body["id"]
    tournament_append(
        tournament_id=tournament,
        events=[{"type": "entry_registered", "entry": "a", "players": ["X", "Y"]}],
        expected_seq=0,
        user=scorer,
    )
    assert TournamentEvent.objects.count() == 1

    call_command("flush", interactive=False, verbosity=0)

    assert Event.objects.count() == 0
    assert TournamentEvent.objects.count() == 0
    for _migration, table in APPEND_ONLY:
        assert _triggers_present(connection, table)
