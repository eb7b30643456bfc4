"""A player's own place in the browser (issue 39) at 390 and 1280 px: the home (/me/) fits and
shows the last game first; from it, hand 3, trick 2 of one's last game in at most 4 taps with no
scrolling (the replay opens from one's seat, the hand and trick pickers on the first screen); the
marks under the slider; the step buttons keep their place when a hand is dealt. Screenshots in
.ci/out/screenshots/."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import engine
from games.models import Club, Player
from games.ratings import services as rating_services
from replay.data import replay_data
from replay.moments import moments
from tests.api.helpers import grand_double, record
from tests.replay.conftest import bot_record, import_game

from .test_phone_layout import OUTSIDE_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {390: {"width": 390, "height": 844}, 1280: {"width": 1280, "height": 800}}


@pytest.fixture
def player(live_server):
    club = Club.objects.create(name="Open Table", slug="open-table", visibility=Club.Visibility.PUBLIC)
    bot = bot_record(1)
    for k in range(3):  # older, short games of the same four
        import_game(
            club,
            record(
                [grand_double(k % 2)] * 3, players=bot["players"], meta={"played_at": f"2025-03-0{k + 1}T19:00:00Z"}
            ),
        )
    game = import_game(club, bot)  # dated by its import: the last game
    rating_services.recompute_club(club.pk)
    user = get_user_model().objects.create_user(username="me", password="pw")
    Player.objects.filter(club=club, name=bot["players"][0]).update(user=user)
    return user, game


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_hand_3_trick_2_of_my_last_game_in_4_taps_without_scrolling(open_as, player, width):
    user, game = player
    found = moments(replay_data(game, engine.EVERYTHING), [0])
    target = found.hands[2].tricks[1]
    page = open_as(user, "/me/", VIEWPORTS[width])
    fits = page.evaluate(OUTSIDE_JS)
    assert fits["pageScroll"] <= 0 and fits["outside"] == [], fits
    assert page.locator("#my-evenings li[data-game]").count() == 4
    page.screenshot(path=f".ci/out/screenshots/me_home_{width}.png", full_page=True)
    height = VIEWPORTS[width]["height"]

    def tap(selector):
        box = page.locator(selector).bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, f"{selector} not on the screen: {box}"
        assert box["height"] >= 24 and box["width"] >= 24, f"{selector} is too small to tap: {box}"
        page.locator(selector).click()

    tap("#last-replay")  # 1
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.get_attribute("#replay", "data-view") == "0"  # from my seat
    tap("#hand-chips a:nth-child(3)")  # 2
    assert page.evaluate("() => window.tichuReplay.at") == found.hands[2].at
    tap("#trick-chips a:nth-child(2)")  # 3
    assert page.evaluate("() => window.tichuReplay.at") == target
    assert page.evaluate("() => window.scrollY") == 0  # no scrolling
    assert page.inner_text("#hand-no") == str(found.hands[2].number) and page.inner_text("#trick-no") == "2"
    assert f"at={target}" in page.url
    fits = page.evaluate(OUTSIDE_JS)
    assert fits["pageScroll"] <= 0 and fits["outside"] == [], fits
    page.screenshot(path=f".ci/out/screenshots/me_replay_moment_{width}.png")


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_slider_marks_my_calls_and_buttons_that_stay(open_as, player, width):
    user, game = player
    found = moments(replay_data(game, engine.EVERYTHING), [0])
    page = open_as(user, f"/games/{game.pk}/replay/?at={found.hands[1].at - 1}", VIEWPORTS[width])
    page.wait_for_selector("#replay[data-ready='1']")
    marks = page.locator("#slider-marks .mark")
    assert marks.count() == len(found.hands) + len(found.calls) + len(found.bombs) + len(found.mine)
    where = "() => document.getElementById('nav-next').getBoundingClientRect().top + window.scrollY"
    before = page.evaluate(where)  # on the page, wherever the window is scrolled
    for _ in range(20):  # the shuffle and the first cards dealt: the table grows
        page.locator("#nav-next").click()
    after = page.evaluate(where)
    assert abs(after - before) <= 2, (before, after)
    mine = [c for c in found.calls if c["seat"] == 0]
    if mine:
        page.locator("#my-calls a").first.click()
        assert page.evaluate("() => window.tichuReplay.at") == mine[0]["at"]
    page.screenshot(path=f".ci/out/screenshots/me_replay_marks_{width}.png")
