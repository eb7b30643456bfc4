"""The replay page in headless Chromium for a player seated in a game in play: their own hand
face up, the others face down, at phone and laptop widths (tests/plugins/browser.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import engine
from games.models import Club, GameSeat
from tests.replay.conftest import bot_record, import_game
from tests.replay.expect import DOM_VIEW_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEAT = 2


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_a_seated_player_steps_through_the_hand_in_play_seeing_only_their_hand(
    browser, live_server, viewport, tmp_path
):
    club = Club.objects.create(name="Live", slug="live")
    record = dict(bot_record(1), events=bot_record(1)["events"][:80])
    game = import_game(club, record)
    user = get_user_model().objects.create_user("pia", password="pw")
    player = GameSeat.objects.get(game=game, seat=SEAT).player
    player.user = user
    player.save()
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    try:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=60")
        page.wait_for_selector("#replay[data-ready='1']")
        assert "your own hand" in page.text_content("#hidden-note")
        replay = engine.Replay(record)
        for _ in range(4):
            page.keyboard.press("ArrowRight")
            n = page.evaluate("() => window.tichuReplay.at")
            view = page.evaluate(DOM_VIEW_JS)
            full = engine.state_json(replay.state_at(n))
            assert view["hands"][SEAT] == full["hands"][SEAT] and full["hands"][SEAT]
            for s, hand in enumerate(view["hands"]):
                assert s == SEAT or (set(hand) <= {"?"} and len(hand) == len(full["hands"][s]))
        page.screenshot(path=str(tmp_path / f"seated-{viewport['width']}.png"), full_page=False)
    finally:
        context.close()
