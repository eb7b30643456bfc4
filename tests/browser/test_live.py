"""Live: a replay of a game in play follows new events as they are stored (static/shared/live.js,
the long poll of games/live.py), in a second browser context, within a second; a viewer who has
stepped back is not dragged forward, only told there is more; the frames stay masked."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Club, Game, Membership
from tests.replay.conftest import bot_record, import_game
from tests.replay.expect import DOM_VIEW_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START = 70  # events stored when the pages open: a hand in play


@pytest.fixture
def setting(live_server):
    club = Club.objects.create(name="Live Club", slug="live-club", visibility=Club.Visibility.PUBLIC)
    user = get_user_model().objects.create_user("scorer", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    record = bot_record(1)
    game = import_game(club, dict(record, events=record["events"][:START]))
    assert Game.objects.get(pk=game.pk).status == "active"
    return game, user, record


def scorer_page(browser, live_server, user):
    """A second context, signed in as the scorer: it appends through the API as the entry page does."""
    client = Client()
    client.force_login(user)
    context = browser.new_context()
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
    page.goto(f"{live_server.url}/api/games/")  # a page of the site, for fetch and its CSRF cookie
    return context, page


APPEND_JS = """async ([game, events, seq]) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1]
    || (await (await fetch('/accounts/sign-in/')).text(), (document.cookie.match(/csrftoken=([^;]+)/) || [])[1]);
  const r = await fetch(`/api/games/${game}/events/`, {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf || ''},
    body: JSON.stringify({events, expected_seq: seq})});
  return r.status;
}"""


def test_a_second_context_sees_an_append_within_a_second(browser, page, live_server, setting):
    game, user, record = setting
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready='1'][data-live-status='live']", timeout=30_000)
    assert page.evaluate("() => window.tichuReplay.at") == START
    context, scorer = scorer_page(browser, live_server, user)
    try:
        status = scorer.evaluate(APPEND_JS, [game.pk, record["events"][START : START + 1], START])
        assert status == 201
        started = time.monotonic()
        page.wait_for_function(f"() => window.tichuReplay.at === {START + 1}", timeout=5_000)
        elapsed = time.monotonic() - started
        assert elapsed < 1.0, f"the replay followed after {elapsed:.2f} s"
        assert page.inner_text("#pos-len") == str(START + 1)
        # the frames came through the reader's visibility: an outsider sees no hand of the hand in play
        assert all(set(h) <= {"?"} for h in page.evaluate(DOM_VIEW_JS)["hands"])

        # a viewer who has stepped back stays there and is told there is more
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        back = page.evaluate("() => window.tichuReplay.at")
        assert scorer.evaluate(APPEND_JS, [game.pk, record["events"][START + 1 : START + 3], START + 1]) == 201
        page.wait_for_selector("#live-note:not([hidden])", timeout=5_000)
        assert page.evaluate("() => window.tichuReplay.at") == back
        assert page.inner_text("#live-count") == "2 new events"
        page.click("#live-latest")
        assert page.evaluate("() => window.tichuReplay.at") == START + 3
        assert page.is_hidden("#live-note")
    finally:
        context.close()


def test_a_lost_connection_reconnects_and_catches_up_by_seq(page, live_server, setting):
    game, user, record = setting
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready='1'][data-live-status='live']", timeout=30_000)
    from games.services import append_events

    # the connection is lost: from now on every request of the live channel fails
    for pattern in ("**/api/games/*/events/*", "**/replay/data/"):
        page.route(pattern, lambda route: route.abort())
    append_events(game=game.pk, events=record["events"][START : START + 3], expected_seq=START, user=user)
    page.wait_for_selector("#replay[data-live-status='reconnecting']", timeout=30_000)
    assert page.evaluate("() => window.tichuReplay.at") == START
    append_events(game=game.pk, events=record["events"][START + 3 : START + 4], expected_seq=START + 3, user=user)
    for pattern in ("**/api/games/*/events/*", "**/replay/data/"):
        page.unroute(pattern)
    # back: it asks again from the last seq it had handled, and catches up on all four
    page.wait_for_function(f"() => window.tichuReplay.at === {START + 4}", timeout=15_000)
    page.wait_for_selector("#replay[data-live-status='live']", timeout=5_000)


def test_the_banners_follow_the_game_to_its_end(browser, page, live_server, setting):
    """A game that ends while it is watched: "still being played" goes, "Game over" comes, and the
    live note stops, without a reload (issue 39, item 5: the banners follow the game's state)."""
    game, user, record = setting
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready='1'][data-live-status='live']", timeout=30_000)
    assert page.is_visible("#hidden-note")
    context, scorer = scorer_page(browser, live_server, user)
    try:
        rest = record["events"][START:]
        for at in range(0, len(rest), 50):  # in batches, as a scorer enters them
            assert scorer.evaluate(APPEND_JS, [game.pk, rest[at : at + 50], START + at]) == 201
        page.wait_for_function(f"() => window.tichuReplay.at === {START + len(rest)}", timeout=10_000)
        page.wait_for_selector("#hidden-note", state="hidden", timeout=5_000)
        assert "Game over" in page.inner_text("#replay")
        assert Game.objects.get(pk=game.pk).status == "finished"
    finally:
        context.close()
