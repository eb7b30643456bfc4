"""GET /api/games/{id}/events/?after=N&wait=S: the long poll of games/live.py."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games import live
from games.models import Club, Membership
from games.services import append_events
from tests.replay.conftest import bot_record, import_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def setting(client):
    club = Club.objects.create(name="Live Club", slug="live-club", visibility=Club.Visibility.PUBLIC)
    user = get_user_model().objects.create_user("scorer", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    record = bot_record(1)
    return import_game(club, dict(record, events=record["events"][:70])), user, record


def test_without_new_events_it_waits_its_time_and_answers_empty(client, setting, monkeypatch):
    game, _, _ = setting
    started = time.monotonic()
    body = client.get(f"/api/games/{game.pk}/events/?after=70&wait=1").json()
    assert time.monotonic() - started >= 0.9
    assert body["events"] == [] and body["seq"] == 70


def test_it_answers_as_soon_as_an_event_is_stored(client, setting):
    game, user, record = setting

    def append_later():
        time.sleep(0.5)
        append_events(game=game.pk, events=record["events"][70:71], expected_seq=70, user=user)
        connection.close()

    thread = threading.Thread(target=append_later)
    started = time.monotonic()
    thread.start()
    body = client.get(f"/api/games/{game.pk}/events/?after=70&wait=10").json()
    elapsed = time.monotonic() - started
    thread.join()
    assert 0.4 < elapsed < 2.0
    assert body["seq"] == 71 and [e["seq"] for e in body["events"]] == [71]
    # masked like any read: an outsider does not see the cards of the hand in play
    assert body.get("redacted")


def test_events_already_there_answer_at_once(client, setting):
    game, _, _ = setting
    started = time.monotonic()
    body = client.get(f"/api/games/{game.pk}/events/?after=60&wait=20").json()
    assert time.monotonic() - started < 1.0 and len(body["events"]) == 10


def test_the_wait_is_bounded(setting):
    game, _, _ = setting
    started = time.monotonic()
    assert live.wait_for_seq(game.pk, 70, 0.3, poll=0.05) == 70
    assert 0.25 <= time.monotonic() - started < 1.0
    assert live.MAX_WAIT <= 25


def test_a_bad_wait_is_a_coded_error(client, setting):
    game, _, _ = setting
    response = client.get(f"/api/games/{game.pk}/events/?after=70&wait=soon")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


@pytest.mark.postgres
def test_on_postgresql_a_commit_wakes_the_wait_without_a_read_on_a_timer(setting, monkeypatch):
    """The wait LISTENs for its game's head (migration games/0030's trigger): with the timed reads
    set to 30 s, only the notification of the append's commit can end it within the bound."""
    game, user, record = setting
    monkeypatch.setattr(live, "POLL_INTERVAL", 30.0)
    monkeypatch.setattr(live, "LISTEN_RECHECK", 30.0)

    def append_later():
        time.sleep(0.3)
        append_events(game=game.pk, events=record["events"][70:71], expected_seq=70, user=user)
        connection.close()

    thread = threading.Thread(target=append_later)
    started = time.monotonic()
    thread.start()
    seq = live.wait_for_seq(game.pk, 70, 20)
    elapsed = time.monotonic() - started
    thread.join()
    assert seq == 71 and elapsed < 5, elapsed
    # the connection listens to nothing afterwards (a kept connection serves the next request)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_listening_channels()")
        assert cursor.fetchone()[0] == 0


@pytest.mark.postgres
def test_on_postgresql_a_wait_inside_a_transaction_reads_on_its_timer(setting):
    """A LISTEN inside a transaction waits for its commit: there the wait reads the head instead."""
    from django.db import transaction

    game, _, _ = setting
    started = time.monotonic()
    with transaction.atomic():
        assert live.wait_for_seq(game.pk, 70, 0.3, poll=0.05) == 70
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_listening_channels()")
            assert cursor.fetchone()[0] == 0
    assert time.monotonic() - started < 2
