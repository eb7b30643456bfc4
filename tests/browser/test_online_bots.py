"""Issue 34 items 4 and 5 in a browser at 390 px: one person plays a whole hand of Tichu against
and with three of the engine's bots (the bots move in the person's own requests), while a club
member watches the table from another browser context and sees no hand while it is played.
Screenshots: .ci/out/screenshots/online-bots-390.png, online-watch-390.png."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import engine
from games.models import Club, Game, Membership
from games.online import selectors, services
from games.online.models import OnlineSeat
from tests.browser.test_online_table import PHONE, act_on_page, moves_on, no_horizontal_scroll, shown
from tests.online.test_services import record_of
from tests.plugins.browser import DEFAULT_TIMEOUT_MS, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MAX_ACTIONS = 200  # the person's moves in a hand are far fewer; a stuck table fails instead


@pytest.fixture
def opener():
    return get_user_model().objects.create_user("opener", password="pw")


@pytest.fixture
def table(opener):
    club = Club.objects.create(name="Net Club", slug="net-club")
    Membership.objects.create(club=club, user=opener, role="viewer")
    return services.open_table(
        club=club,
        variant="nanking",
        options={"preset": "rio"},
        players=["Ada", "Ben", "Cyd", "Dot"],
        user=opener,
        bots=[1, 2, 3],
    )


def test_one_person_and_three_bots_play_a_hand_and_a_member_watches(browser, live_server, open_as, opener, table):
    watcher = open_as(opener, f"/clubs/net-club/online/{table.pk}/watch/", viewport=PHONE)
    context = browser.new_context(viewport=PHONE, locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    seat = OnlineSeat.objects.get(table=table, seat=0)
    page.goto(f"{live_server.url}/online/seat/{seat.secret}/")
    page.click("#take-seat button")  # the link shows the seat; its button joins it
    game = Game.objects.get(pk=table.game_id)
    shown(page, game.seq)
    assert page.locator("#table .badge.bot").count() == 3
    pictured = False
    for _ in range(MAX_ACTIONS):
        game.refresh_from_db()
        state = engine.state_json(engine.fold(record_of(game)))
        if state["score_sheet"]:
            break
        view = selectors.seat_view(seat)
        assert view["push_due"] or any(moves_on(a, state) for a in view["actions"]), "the table waits for a bot"
        shown(page, game.seq)
        if not pictured and state["phase"] == "play" and state["trick"]:
            shown(watcher, game.seq)  # the watcher follows the table by its long poll
            assert watcher.locator("#hand .hand-card").count() == 0
            assert watcher.locator("#table .chip .count").count() == 4
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "online-bots-390.png"), full_page=True)
            watcher.screenshot(path=str(SCREENSHOTS / "online-watch-390.png"), full_page=True)
            pictured = True
        act_on_page(page, view)
        page.wait_for_selector("#actions[data-busy='0']", state="attached")
        assert page.locator("#refusal").is_hidden(), page.locator("#refusal").inner_text()
    assert state["score_sheet"], "the hand was not finished"
    assert pictured
    game.refresh_from_db()
    shown(watcher, game.seq)
    hands = selectors.watch_view(table)["state"]["hands"]
    assert all(set(h) <= {"?"} for h in hands)  # the next hand is in play: hidden again
    for p in (page, watcher):
        assert p.errors == []
        assert no_horizontal_scroll(p)
    assert watcher.locator("section[aria-labelledby='hand-h']").is_hidden()
    assert all(b.bounding_box()["height"] >= 44 for b in page.locator("#actions button").all())
