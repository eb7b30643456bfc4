"""A seat link opened with GET never joins (a link preview opens it too): the page says "Take
...'s seat" with a button whose POST (CSRF-checked) joins. Wrong seat links are throttled per
client address (games/online/seat_throttle.py); and the game API cannot append to an online
table's game (its seats play it)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, Membership
from games.online.models import OnlineSeat
from tests.conftest import client_for
from tests.online.play import join_all, open_four


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def test_get_shows_the_seat_and_joins_nothing_post_with_csrf_joins(club, member):
    table = open_four(club, member)
    seat = OnlineSeat.objects.get(table=table, seat=1)
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(2):
        page = client.get(f"/online/seat/{seat.secret}/")
        assert page.status_code == 200 and b"Take Ben's seat at table" in page.content
        assert client.head(f"/online/seat/{seat.secret}/").status_code == 200
    seat.refresh_from_db()
    assert seat.joined_at is None
    assert client.post(f"/online/seat/{seat.secret}/").status_code == 403  # no CSRF token
    seat.refresh_from_db()
    assert seat.joined_at is None
    token = client.cookies["csrftoken"].value
    joined = client.post(f"/online/seat/{seat.secret}/", {"csrfmiddlewaretoken": token})
    assert joined.status_code == 302 and joined["Location"] == f"/online/seat/{seat.secret}/"
    seat.refresh_from_db()
    assert seat.joined_at is not None
    assert b'id="online-config"' in client.get(f"/online/seat/{seat.secret}/").content


def test_wrong_seat_links_are_throttled_per_address_a_right_one_too_once_at_the_limit(club, member, settings):
    settings.TICHU_TABLE_CODE_FAILURES_PER_ADDRESS = 3
    table = open_four(club, member)
    seat = OnlineSeat.objects.get(table=table, seat=0)
    guesser = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="203.0.113.7")
    for n in range(3):
        assert guesser.get(f"/online/seat/wrong-{n}/").status_code == 404
    for url in (f"/online/seat/{seat.secret}/", f"/online/seat/{seat.secret}/view/", "/online/seat/wrong-9/"):
        refused = guesser.get(url)
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0, url
    assert guesser.get(f"/online/seat/{seat.secret}/view/").json()["code"] == "throttled"
    assert b"Too many wrong seat links" in guesser.get(f"/online/seat/{seat.secret}/").content
    other = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="198.51.100.2")
    assert other.get(f"/online/seat/{seat.secret}/").status_code == 200  # another address is not held up
    for _ in range(5):  # the right link counts nothing
        assert other.get(f"/online/seat/{seat.secret}/view/").status_code == 200


def test_the_scorer_api_cannot_append_to_an_online_tables_game(club, member, scorer):
    table = open_four(club, member)
    join_all(table)
    game = Game.objects.get(pk=table.game_id)
    seq = game.seq
    answer = client_for(scorer).post(
        f"/api/games/{game.pk}/events/",
        {"expected_seq": seq, "events": [{"type": "grand_tichu", "seat": 0}]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "played_online"
    assert "online table" in answer.json()["message"]
    assert Game.objects.get(pk=game.pk).seq == seq
    ordinary = client_for(scorer).post(
        "/api/games/", {"club": club.slug, "variant": "nanking", "players": ["A", "B", "C", "D"]}, format="json"
    )
    other = ordinary.json()["id"]
    appended = client_for(scorer).post(
        f"/api/games/{other}/events/", {"expected_seq": 0, "events": [{"type": "shuffle", "seat": 0}]}, format="json"
    )
    assert appended.status_code == 201  # any other game of the club: as before


def test_a_directors_correction_is_the_one_write_a_person_makes_on_an_online_game(club, member, scorer):
    """A TD's ruling on a finished hand (hand_corrected, issue 31) reaches an online table's game as
    any game's; anything else from a person is still refused."""
    import random

    from tests.online.play import step

    table = open_four(club, member, options={"hands": 1})
    join_all(table)
    rng = random.Random(4)
    while Game.objects.get(pk=table.game_id).status != Game.Status.FINISHED:
        assert step(table, rng)
    game = Game.objects.get(pk=table.game_id)
    api = client_for(scorer)
    ruling = {"type": "hand_corrected", "hand": 1, "out": [0, 2], "reason": "a ruling after the game"}
    mixed = api.post(
        f"/api/games/{game.pk}/events/",
        {"expected_seq": game.seq, "events": [ruling, {"type": "undo"}]},
        format="json",
    )
    assert mixed.status_code == 400 and mixed.json()["code"] == "played_online"
    corrected = api.post(f"/api/games/{game.pk}/events/", {"expected_seq": game.seq, "events": [ruling]}, format="json")
    assert corrected.status_code == 201, corrected.json()
    score = api.get(f"/api/games/{game.pk}/score/").json()
    assert score["hands"][0]["kind"] == "hand_corrected"
