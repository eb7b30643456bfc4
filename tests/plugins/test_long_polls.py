"""tests/plugins/long_polls.py: a long poll left open on the live server by a closed page ends when
the test ends, with the answer a long poll gives when nothing came (no events, the same seq)."""

import json
import threading
import urllib.request

import pytest

from games.models import Club
from tests.plugins.long_polls import LONG_POLLS
from tests.replay.conftest import bot_record, import_game


@pytest.mark.django_db(transaction=True)
def test_a_waiting_long_poll_ends_when_the_test_ends(live_server):
    LONG_POLLS.install()
    club = Club.objects.create(name="Live", slug="live", visibility=Club.Visibility.PUBLIC)
    record = bot_record(1)
    game = import_game(club, dict(record, events=record["events"][:10]))
    answers = []

    def follow():
        url = f"{live_server.url}/api/games/{game.pk}/events/?after=10&wait=25"
        with urllib.request.urlopen(url, timeout=30) as response:
            answers.append(json.load(response))

    thread = threading.Thread(target=follow)
    thread.start()
    assert LONG_POLLS.wait_until_running(1)
    assert LONG_POLLS.end_all()
    thread.join(timeout=10)
    assert not thread.is_alive() and LONG_POLLS.running == 0
    assert answers[0]["seq"] == 10 and answers[0]["events"] == []
