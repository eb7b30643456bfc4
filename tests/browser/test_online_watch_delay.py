"""Issue 34 item 5 in a browser at 390 px: a club watches its tables on a delay of 6 events. The
watcher's page says so and shows the table as it stood 6 events ago, no hand in play; when the
table plays on, the page follows, still 6 behind, never at the present. Screenshots:
.ci/out/screenshots/online-watch-delay-390.png and -1280.png."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from games.models import Club, Game, Membership
from games.online import services
from games.online.models import OnlineSettings
from tests.browser.test_online_table import PHONE, no_horizontal_scroll, shown
from tests.online.play import join_all, step
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DELAY = 6


def test_a_watcher_follows_the_table_six_events_behind(open_as):
    club = Club.objects.create(name="Net Club", slug="net-club")
    OnlineSettings.objects.create(club=club, watch_delay_events=DELAY)
    watcher = get_user_model().objects.create_user("wendy", password="pw")
    Membership.objects.create(club=club, user=watcher, role="viewer")
    table = services.open_table(
        club=club, variant="nanking", options={"preset": "rio"}, players=["Ada", "Ben", "Cyd", "Dot"], user=watcher
    )
    join_all(table)
    rng = random.Random(11)
    while Game.objects.get(pk=table.game_id).seq < 20:
        assert step(table, rng)
    now = Game.objects.get(pk=table.game_id).seq

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = open_as(watcher, f"/clubs/net-club/online/{table.pk}/watch/", viewport=PHONE)
    shown(page, now - DELAY)
    assert "6 events ago" in page.locator("#watch-delay").inner_text()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / "online-watch-delay-390.png"), full_page=True)

    # the table plays on: the watcher's page moves with it, still six events behind
    assert step(table, rng) and step(table, rng)
    later = Game.objects.get(pk=table.game_id).seq
    shown(page, later - DELAY)
    assert page.locator(f"#table[data-seq='{later}']").count() == 0

    wide = open_as(watcher, f"/clubs/net-club/online/{table.pk}/watch/", viewport={"width": 1280, "height": 900})
    shown(wide, later - DELAY)
    wide.screenshot(path=str(SCREENSHOTS / "online-watch-delay-1280.png"), full_page=True)
