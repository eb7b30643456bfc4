"""The replay finds a moment (issue 39): the hand picker, the current hand's tricks, the marks on
the slider (hand starts, calls, bombs, the reader's own plays) and "your Tichu call", read off the
frames (replay/moments.py), checked against the game's record and frames."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games import engine, visibility
from games.models import Player
from replay.data import replay_data
from replay.moments import moments

from .conftest import bot_record
from .dom import parse

pytestmark = pytest.mark.django_db


def test_moments_match_the_record(bot_game):
    data = replay_data(bot_game, engine.EVERYTHING)
    found = moments(data, [0])
    events = bot_record(1)["events"]
    assert [h.number for h in found.hands] == list(range(1, len(found.hands) + 1))
    assert [h.at for h in found.hands] == [n for n, e in enumerate(events, 1) if e["type"] == "shuffle"]
    assert [c["at"] for c in found.calls] == [
        n for n, e in enumerate(events, 1) if e["type"] in ("tichu", "grand_tichu")
    ]
    assert found.calls, "seed 1 has calls"
    grew = [
        n
        for n in range(1, data.length + 1)
        if len(data.frame_at(n)["bombs"]) > len(data.frame_at(n - 1)["bombs"])
        and data.frame_at(n).get("hand_number") == data.frame_at(n - 1).get("hand_number")
    ]
    assert found.bombs == grew and found.bombs, "seed 1 has bombs"
    assert found.mine == [n for n, e in enumerate(events, 1) if e["type"] == "play" and e["seat"] == 0]
    for h in found.hands:  # each trick of a hand starts with a lead in that hand
        assert all(data.frame_at(t)["hand_number"] == h.number and data.frame_at(t)["trick_no"] >= 1 for t in h.tricks)
        assert [data.frame_at(t)["trick_no"] for t in h.tricks] == list(range(1, len(h.tricks) + 1))


def test_the_replay_page_offers_hands_tricks_marks_and_my_calls(client, bot_game):
    user = get_user_model().objects.create_user(username="seat0", password="pw")
    first = bot_game.seats.get(seat=0).player
    Player.objects.filter(pk=first.pk).update(user=user)
    client.force_login(user)
    data = replay_data(bot_game, visibility.reader_sight(bot_game, user))
    found = moments(data, [0])
    third = found.hands[2]
    with translation.override("en"):
        root = parse(
            client.get(f"/games/{bot_game.pk}/replay/?at={third.tricks[1]}", HTTP_ACCEPT_LANGUAGE="en").content
        )
    hands = root.by_id("hand-chips").find_all("a")
    assert [a.text() for a in hands] == [str(h.number) for h in found.hands]
    assert hands[2].attrs.get("aria-current") == "true"
    tricks = root.by_id("trick-chips").find_all("a")
    assert [int(a.attrs["data-at"]) for a in tricks] == third.tricks
    assert tricks[1].attrs.get("aria-current") == "true" and tricks[1].attrs["href"].startswith(
        f"?at={third.tricks[1]}&"
    )
    marks = root.by_id("slider-marks").find_all("span")
    kinds = [m.attrs["class"].split()[1] for m in marks]
    assert kinds.count("mark-hand") == len(found.hands) and kinds.count("mark-call") == len(found.calls)
    assert kinds.count("mark-bomb") == len(found.bombs) and kinds.count("mark-mine") == len(found.mine)
    mine = [c for c in found.calls if c["seat"] == 0]
    links = root.by_id("my-calls").find_all("a") if mine else []
    assert [int(a.attrs["data-at"]) for a in links] == [c["at"] for c in mine]
    assert root.by_id("replay").attrs["data-view"] == "0"  # one's own game opens from one's seat


def test_positions_are_said_as_moves_with_grouped_numbers(client, bot_game):
    with translation.override("en"):
        page = client.get(f"/games/{bot_game.pk}/replay/?at=52", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # the slider's words (the panel's "move 52 of 2,395" is the script's, grouped alike: render.js)
    assert parse(page.encode()).by_id("slider").attrs["aria-valuetext"] == f"move 52 of {bot_game.seq:,}"
    assert "swipe" in parse(page.encode()).by_id("swipe-note").text()
