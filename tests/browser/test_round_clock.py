"""A round's clock in headless Chromium (issue 33, item 4): the director starts it on the laptop,
the projector and a table's phone (opened with the table's code, at 390 px) count down to the
same end, also when the phone's own clock is two hours wrong; at the end the phone says time is
up. The phone's time is Playwright's fake clock, moved by hand: nothing waits for real time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from django.contrib.auth import get_user_model

from games.models import Club, Membership
from games.tournaments import table_codes
from games.tournaments.models import Tournament
from tests.browser.test_table_night import evening
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def seconds(text: str) -> int:
    parts = [int(p) for p in text.strip().split(":")]
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def no_sideways_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_the_clock_counts_down_alike_on_the_projector_and_a_phone_with_a_wrong_clock(browser, open_as, live_server):
    club = Club.objects.create(name="Home", slug="home", time_zone="Europe/Berlin")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    tid, _games = evening(td)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    laptop = open_as(td, f"/tournaments/{tid}/", LAPTOP)
    laptop.fill("#clock-minutes", "30")
    laptop.click("#start-clock")
    laptop.wait_for_selector("#round-clock")
    assert 25 * 60 < seconds(laptop.text_content("#clock-left")) <= 30 * 60
    laptop.screenshot(path=str(SCREENSHOTS / "round_clock_director_1280.png"), full_page=False)
    projector = open_as(td, f"/tournaments/{tid}/projector/", LAPTOP)
    assert projector.locator("#round-clock").is_visible()
    projector.screenshot(path=str(SCREENSHOTS / "round_clock_projector_1280.png"), full_page=False)

    row = table_codes.live_codes(Tournament.objects.get(pk=tid))[1]
    phone_context = browser.new_context(viewport=PHONE, locale="en-GB")
    phone = phone_context.new_page()
    wrong = datetime.now(timezone.utc) - timedelta(hours=2)  # the phone's own clock is two hours behind
    phone.clock.install(time=wrong)
    phone.clock.pause_at(wrong + timedelta(seconds=5))  # ahead of the installed clock, which runs meanwhile
    phone.goto(f"{live_server.url}/t/{table_codes.printed(row.code)}/")
    phone.wait_for_selector("#round-clock")
    left = seconds(phone.text_content("#clock-left"))
    assert 25 * 60 < left <= 30 * 60, "counted from the server's instant, not the phone's clock"
    assert "Round 1: time left" in phone.text_content("#round-clock")
    assert no_sideways_scroll(phone)
    phone.screenshot(path=str(SCREENSHOTS / "round_clock_entry_390.png"), full_page=False)

    phone.clock.run_for(60_000)  # a minute on the phone's clock
    assert seconds(phone.text_content("#clock-left")) == left - 60
    phone.clock.run_for(left * 1000)
    assert phone.text_content("#clock-left") == "Time is up: finish the hand you are playing."
    assert "clock-up" in phone.get_attribute("#round-clock", "class")
    assert no_sideways_scroll(phone)
    phone.screenshot(path=str(SCREENSHOTS / "round_clock_entry_up_390.png"), full_page=False)
    for page in (laptop, projector, phone):
        assert not page.errors
