"""Issue 34 item 2 on a phone: Grand Seigneur's tribute at an online table. From the second hand
the Wretch gives their best cards to the Great Lord and the Great Lord returns as many of their
choice (five players: two cards each way, one between the second-last and the Lord). The giver's
page offers the cards the rules name (the engine's push_forced), ready to send; the receiver picks
theirs and gives them as one push of several cards. Screenshots in
.ci/out/screenshots/online-tribute-*.png."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from games.models import Club, Event, Membership
from games.online import selectors, services
from tests.browser.target_sizes import problems
from tests.online.play import join_all, step
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def at_the_tribute():
    """A five-seat table played from its seats' views up to the second hand's exchange: (the
    seats, {seat: its view}) of the seats that owe cards."""
    club = Club.objects.create(name="Net Club", slug="net-club")
    user = get_user_model().objects.create_user("opener", password="pw")
    Membership.objects.create(club=club, user=user, role="viewer")
    table = services.open_table(
        club=club, variant="grand-seigneur", options=None, players=["Ada", "Ben", "Cyd", "Dot", "Eve"], user=user
    )
    seats = join_all(table)
    rng = random.Random(5)
    for _ in range(3000):
        owing = {s.seat: v for s in seats if (v := selectors.seat_view(s))["push_due"]}
        if owing:
            return seats, owing
        assert step(table, rng), "nobody at the table can move"
    raise AssertionError("no tribute came")


def pushed(seat: int) -> dict | None:
    events = [e.payload for e in Event.objects.filter(type="push") if e.payload.get("seat") == seat]
    return events[-1]["cards"] if events else None


def test_the_wretch_sends_the_cards_the_rules_name_and_the_great_lord_picks_theirs(
    browser, live_server, at_the_tribute
):
    seats, owing = at_the_tribute
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    giver = max((s for s in owing if owing[s]["push_forced"]), key=lambda s: max(owing[s]["push_due"].values()))
    ((target, count),) = owing[giver]["push_due"].items()
    receiver = int(target)
    assert count == 2 and owing[receiver]["push_due"] == {str(giver): 2} and not owing[receiver]["push_forced"]
    by_seat = {s.seat: s for s in seats}

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/online/seat/{by_seat[giver].secret}/")
    page.wait_for_selector("#actions button")
    forced = owing[giver]["push_forced"][target]
    assert "tribute" in page.inner_text("#status").lower()
    assert page.locator("#hand .hand-card.given").count() == 2, "the two best cards are set aside"
    assert sorted(page.eval_on_selector_all("#hand .hand-card.given", "bs => bs.map(b => b.dataset.card)")) == sorted(
        forced
    )
    assert problems(page, scorer=True) == []
    for width in (360, 1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        page.screenshot(path=str(SCREENSHOTS / f"online-tribute-giver-{width}.png"), full_page=True)
    page.locator("#actions button", has_text="Send the exchange").click()
    page.wait_for_function("() => document.querySelector('#actions').dataset.busy === '0'")
    assert sorted(pushed(giver)[target]) == sorted(forced)

    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live_server.url}/online/seat/{by_seat[receiver].secret}/")
    page.wait_for_selector("#hand .hand-card")
    give = page.locator("#actions button", has_text="Give 2 cards to")
    assert give.is_disabled(), "two cards are chosen first"
    chosen = [page.locator("#hand .hand-card").nth(i).get_attribute("data-card") for i in (0, 1)]
    for card in chosen:
        page.locator(f"#hand .hand-card[data-card='{card}']").first.click()
    give.click()
    assert problems(page, scorer=True) == []
    page.screenshot(path=str(SCREENSHOTS / "online-tribute-receiver-390.png"), full_page=True)
    page.locator("#actions button", has_text="Send the exchange").click()
    page.wait_for_function("() => document.querySelector('#actions').dataset.busy === '0'")
    assert sorted(pushed(receiver)[str(giver)]) == sorted(chosen)
