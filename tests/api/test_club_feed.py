"""A club's feed and its webhooks (issue 37, item 3): what a club's bot posts, following the
visibility rule, long-pollable, and delivered signed to a local server with retries and a log."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.db import DatabaseError, connection, transaction

from games.clubs import feed
from games.clubs.models import FeedEntry, Webhook, WebhookDelivery
from games.engine import random_record
from tests.api.test_db_roles import app_role  # noqa: F401 - the fixture
from tests.conftest import client_for


def _play(client, club="home", seed=3, hands=1) -> int:
    """A game of `hands` hands, played to its end by bots (one batch)."""
    record = random_record(seed=seed, options={"hands": hands})
    created = client.post(
        "/api/games/",
        {"club": club, "variant": "nanking", "options": {"hands": hands}, "players": record["players"]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game = created.json()["id"]
    answer = client.post(f"/api/games/{game}/events/", {"expected_seq": 0, "events": record["events"]}, format="json")
    assert answer.status_code == 201, answer.json()
    return game


def _feed(client, club="home", **query):
    answer = client.get(f"/api/clubs/{club}/feed/", query, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200, answer.json()
    return answer.json()


@pytest.mark.django_db
def test_a_started_and_finished_game_are_in_the_feed_numbered_from_one(club, scorer_client, anon):
    game = _play(scorer_client)
    body = _feed(anon)
    assert [(e["seq"], e["kind"], e["game"]) for e in body["entries"]] == [
        (1, "game_started", game),
        (2, "game_finished", game),
    ]
    finished = body["entries"][1]["details"]
    score = anon.get(f"/api/games/{game}/score/").json()
    assert finished["totals"] == score["totals"] and finished["winner"] == score["winner"]
    assert body["last"] == 2 and body["more"] is False
    assert _feed(anon, after=1)["entries"][0]["seq"] == 2
    assert _feed(anon, after=2)["entries"] == []


@pytest.mark.django_db
def test_an_undo_of_the_last_event_reopens_and_the_next_finish_reports_again(club, scorer_client, anon):
    game = _play(scorer_client)
    seq = anon.get(f"/api/games/{game}/").json()["seq"]
    undo = scorer_client.post(
        f"/api/games/{game}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json"
    )
    assert undo.status_code == 201
    assert [e["kind"] for e in _feed(anon)["entries"]][-1] == "game_reopened"


@pytest.mark.django_db
def test_an_entry_stores_no_score_and_reads_the_game_as_its_record_says_now(club, scorer_client, anon):
    """One truth: the feed row keeps that the game finished, not a copy of its score; after an undo
    the earlier game_finished entry reads the reopened game (no totals), never a stale score."""
    game = _play(scorer_client)
    stored = FeedEntry.objects.get(club__slug="home", kind="game_finished", game_id=game)
    assert "totals" not in stored.details and "winner" not in stored.details
    seq = anon.get(f"/api/games/{game}/").json()["seq"]
    scorer_client.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": [{"type": "undo"}]}, format="json")
    finished = next(e for e in _feed(anon)["entries"] if e["kind"] == "game_finished")
    assert finished["details"]["status"] != "finished"
    assert "totals" not in finished["details"]


@pytest.mark.django_db
def test_a_members_only_clubs_feed_is_a_404_for_strangers_and_read_by_members(make_user, make_club, scorer_client):
    viewer = make_user("vera")
    make_club("quiet", visibility="members", viewer=viewer)
    assert client_for(None).get("/api/clubs/quiet/feed/").status_code == 404
    assert client_for(viewer).get("/api/clubs/quiet/feed/").status_code == 200


@pytest.mark.django_db
def test_unknown_query_parameters_and_bad_numbers_are_refused(club, anon):
    assert anon.get("/api/clubs/home/feed/?since=3").json()["code"] == "unknown_parameters"
    assert anon.get("/api/clubs/home/feed/?after=-1").status_code == 400


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_feed_is_append_only_for_the_app(app_role, club, scorer_client):
    _play(scorer_client, hands=1)
    entry = FeedEntry.objects.filter(club=club).first()
    for change in (
        lambda: FeedEntry.objects.filter(pk=entry.pk).update(kind="game_finished"),
        lambda: FeedEntry.objects.filter(pk=entry.pk).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            change()


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_answers_when_an_entry_is_committed(club, scorer_client, anon):
    started = time.monotonic()
    threading.Timer(0.5, lambda: (feed.ratings_recomputed(club.pk, 7), connection.close())).start()
    body = _feed(anon, after=0, wait=10)
    assert [e["kind"] for e in body["entries"]] == ["ratings_recomputed"]
    assert body["entries"][0]["details"] == {"games": 7}
    assert time.monotonic() - started < 9  # it answered on the entry, not at the deadline


class _Receiver(BaseHTTPRequestHandler):
    received: list = []
    answers: list = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((dict(self.headers), body))
        status = type(self).answers.pop(0) if type(self).answers else 204
        self.send_response(status)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver(settings):
    settings.TICHU_WEBHOOK_PRIVATE_ADDRESSES = True  # the test server listens on 127.0.0.1
    _Receiver.received, _Receiver.answers = [], []
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook", _Receiver
    server.shutdown()


def _register(client, url, kinds=None):
    answer = client.post(
        "/api/clubs/home/webhooks/",
        {"url": url, **({"kinds": kinds} if kinds else {})},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    return answer


@pytest.mark.django_db(transaction=True)
def test_webhooks_receive_signed_entries_of_their_kinds_retry_and_keep_a_log(make_user, make_club, receiver):
    url, handler = receiver
    admin = make_user("ada")
    make_club("home", admin=admin)
    client = client_for(admin)
    made = _register(client, url, kinds=["game_finished"])
    assert made.status_code == 201, made.json()
    secret = made.json()["secret"]
    assert "secret" not in client.get("/api/clubs/home/webhooks/").json()[0]  # shown once
    handler.answers = [500]  # the first attempt fails: retried
    game = _play(client)
    assert len(handler.received) == 2  # game_started is not one of its kinds; the finish twice
    for headers, body in handler.received:
        expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Tichu-Signature"] == expected
        assert headers["X-Tichu-Event"] == "game_finished"
        assert json.loads(body)["game"] == game
    assert handler.received[0][0]["X-Tichu-Delivery"] == handler.received[1][0]["X-Tichu-Delivery"]
    log = client.get(f"/api/clubs/home/webhooks/{made.json()['id']}/").json()
    assert [(d["attempt"], d["status_code"], d["delivered"]) for d in log] == [(2, 204, True), (1, 500, False)]


@pytest.mark.django_db(transaction=True)
def test_a_receiver_that_never_answers_well_is_tried_the_set_number_of_times(make_user, make_club, receiver, settings):
    settings.TICHU_WEBHOOK_ATTEMPTS = 3
    url, handler = receiver
    admin = make_user("ada")
    make_club("home", admin=admin)
    client = client_for(admin)
    assert _register(client, url).status_code == 201
    handler.answers = [503] * 10
    feed.ratings_recomputed(Webhook.objects.get().club_id, 1)
    assert list(WebhookDelivery.objects.values_list("attempt", "delivered").order_by("attempt")) == [
        (1, False),
        (2, False),
        (3, False),
    ]


@pytest.mark.django_db
def test_only_admins_register_webhooks_and_private_addresses_are_refused(make_user, make_club):
    admin, scorer = make_user("ada"), make_user("sam")
    make_club("home", admin=admin, scorer=scorer)
    assert _register(client_for(scorer), "https://example.org/hook").status_code == 403
    refused = _register(client_for(admin), "http://127.0.0.1:9/hook").json()
    assert refused["code"] == "webhook_url_private" and "private network" in refused["message"]
    assert _register(client_for(admin), "ftp://example.org/").status_code == 400
    assert _register(client_for(admin), "https://example.org/", kinds=["nope"]).status_code == 400
    assert Webhook.objects.count() == 0


def test_the_signature_is_hmac_sha256_of_the_exact_body():
    from games.clubs.webhooks import signature

    assert signature("k", b"{}") == "sha256=" + hmac.new(b"k", b"{}", hashlib.sha256).hexdigest()
    assert signature("k", b"{}") != signature("k", b"{ }")


class _HoldGame:
    """A hold rule (games.holds) that holds back the games it is given, as a duplicate tournament
    holds its tables' games until the round closes."""

    def __init__(self) -> None:
        self.held: set[int] = set()

    def game_held(self, game, user) -> bool:
        return game.pk in self.held

    def unlisted(self, user) -> set[int]:
        return set(self.held)

    def rating_held(self) -> set[int]:
        return set(self.held)

    def code_sees_hands(self, game) -> bool:
        return True


@pytest.mark.django_db
def test_a_held_game_has_no_entry_until_its_hold_ends(club, scorer_client, anon, monkeypatch):
    from games import holds, hooks
    from games.models import Game

    rule = _HoldGame()
    monkeypatch.setattr(holds, "_rules", [*holds._rules, rule])
    record = random_record(seed=5, options={"hands": 1})
    game = scorer_client.post(
        "/api/games/",
        {"club": "home", "variant": "nanking", "options": {"hands": 1}, "players": record["players"]},
        format="json",
    ).json()["id"]
    rule.held.add(game)
    assert (
        scorer_client.post(
            f"/api/games/{game}/events/", {"expected_seq": 0, "events": record["events"]}, format="json"
        ).status_code
        == 201
    )
    assert [e["kind"] for e in _feed(anon)["entries"]] == ["game_started"]
    started = _feed(anon)["entries"][0]["details"]  # read now: the game is over, but held
    assert started["status"] == "finished" and "totals" not in started and "winner" not in started
    rule.held.clear()  # the round closed: the app that held it says so (games.holds' contract)
    hooks.finished_game_changed.send(Game.objects.get(pk=game))
    assert [(e["kind"], e["game"]) for e in _feed(anon)["entries"]] == [("game_started", game), ("game_finished", game)]
    assert "totals" in _feed(anon)["entries"][0]["details"]  # the hold ended: every entry reads the score
