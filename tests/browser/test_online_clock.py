"""Issue 34 item 4 in a browser at 390 px: a member takes an empty seat from the table's page
(the seat's link is hers from then on), the table deals, and the club's turn clock counts on both
players' pages: the seat whose turn it is sees its time and what happens when it runs out, the
other sees "Waiting for ..." with the time left; when it runs out the bot plays that one action,
marked in the record, and both pages move on. Screenshots: .ci/out/screenshots/online-take-seat-390.png,
online-clock-turn-390.png, online-clock-waiting-390.png (and -1280), online-clock-grand-390.png."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import engine, snapshots
from games.models import Club, Game, Membership, Player
from games.online import record_marks, selectors, services
from games.online.models import OnlineSeat, OnlineSettings
from tests.browser.test_online_table import PHONE, act_on_page, no_horizontal_scroll, shown
from tests.plugins.browser import DEFAULT_TIMEOUT_MS, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SECONDS = 10  # the shortest clock a club may set (turn_clock.MIN_SECONDS)


@pytest.fixture
def people():
    club = Club.objects.create(name="Net Club", slug="net-club")
    OnlineSettings.objects.create(club=club, turn_seconds=SECONDS)
    users = {}
    for name in ("opener", "eve"):
        users[name] = get_user_model().objects.create_user(name, password="pw")
        Membership.objects.create(club=club, user=users[name], role="viewer")
    Player.objects.create(club=club, name="Eve", user=users["eve"])
    table = services.open_table(
        club=club,
        variant="nanking",
        options={"preset": "rio"},
        players=["Ada", "Ben", "Cyd", "Dot"],
        user=users["opener"],
        bots=[2, 3],
    )
    return table, users


def seat_page(browser, url: str):
    context = browser.new_context(viewport=PHONE, locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    page.goto(url)
    return page


def controls_fit(page) -> None:
    assert no_horizontal_scroll(page)
    for button in page.locator("main button:visible").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44, button.inner_text()


def test_a_member_takes_a_seat_and_the_turn_clock_runs_out_into_one_bot_action(browser, live_server, open_as, people):
    table, users = people
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ada_seat = OnlineSeat.objects.get(table=table, seat=0)
    ada = seat_page(browser, f"{live_server.url}/online/seat/{ada_seat.secret}/")
    ada.click("#take-seat button")
    ada.wait_for_selector("#status")
    assert "Waiting for every player" in ada.locator("#status").inner_text()

    # Ben never came: Eve takes his seat from the table's page and lands on its new link
    eve = open_as(users["eve"], f"/clubs/net-club/online/{table.pk}/", viewport=PHONE)
    assert eve.locator("form.take-seat").count() == 3  # Ben's seat, nobody's yet, and the bots' two
    controls_fit(eve)
    eve.screenshot(path=str(SCREENSHOTS / "online-take-seat-390.png"), full_page=True)
    eve.click("li[data-seat='1'] form.take-seat button")
    eve.wait_for_url(re.compile(r"/online/seat/"))
    eve_seat = OnlineSeat.objects.get(table=table, seat=1)
    assert eve_seat.player.name == "Eve" and eve.url.endswith(f"/online/seat/{eve_seat.secret}/")
    game = Game.objects.get(pk=table.game_id)
    assert record_marks.seats_taken(game.header) == [{"seat": 1, "from": 0, "player": "Eve"}]

    # the Grand Tichu decision: both see their clock and what running out means
    shown(ada, game.seq)
    shown(eve, game.seq)
    ada.wait_for_selector("#clock:not([hidden])")
    assert "Eve" in ada.locator("#table").inner_text()  # her page, opened before, names who plays now
    assert "no Grand Tichu" in ada.locator("#clock").inner_text()
    controls_fit(ada)
    ada.screenshot(path=str(SCREENSHOTS / "online-clock-grand-390.png"), full_page=True)
    pages = {0: (ada, ada_seat), 1: (eve, eve_seat)}
    for page, seat in pages.values():
        act_on_page(page, selectors.seat_view(seat))
        page.wait_for_selector("#actions[data-busy='0']", state="attached")
    for page, seat in pages.values():  # the exchange, made by each on the page
        view = selectors.seat_view(seat)
        shown(page, view["seq"])
        if view["push_due"]:  # the page names Ben's seat by who plays it now: Eve
            act_on_page(page, {**view, "state": {**view["state"], "players": view["names"]}})
            page.wait_for_selector("#actions[data-busy='0']", state="attached")

    # the play: the person whose turn it is (the bots play theirs at once) lets the clock run out
    game.refresh_from_db()
    state = snapshots.state_at(game, game.seq)
    turn = engine.state_json(state)["turn"]
    assert turn in pages, "the table waits for a person"
    mover, waiter = pages[turn][0], pages[1 - turn][0]
    seq = game.seq
    for page in (mover, waiter):
        shown(page, seq)
        page.wait_for_selector("#clock:not([hidden])")
    assert "the bot plays this one action for you" in mover.locator("#clock").inner_text()
    name = "Ada" if turn == 0 else "Eve"
    assert re.search(rf"Waiting for {name}: 0:\d\d left", waiter.locator("#clock").inner_text())
    controls_fit(mover)
    controls_fit(waiter)
    mover.screenshot(path=str(SCREENSHOTS / "online-clock-turn-390.png"), full_page=True)
    waiter.screenshot(path=str(SCREENSHOTS / "online-clock-waiting-390.png"), full_page=True)
    waiter.set_viewport_size({"width": 1280, "height": 800})
    assert no_horizontal_scroll(waiter) and waiter.locator("#clock").is_visible()
    waiter.screenshot(path=str(SCREENSHOTS / "online-clock-waiting-1280.png"), full_page=True)

    # nobody acts: the pages' polls come back when it runs out, and the bot plays the one action
    waiter.wait_for_function(f"() => Number(document.querySelector('#table').dataset.seq) > {seq}", timeout=30_000)
    game.refresh_from_db()
    played = game.events.get(seq=seq + 1)
    assert played.payload["seat"] == turn and played.type in ("play", "pass")
    assert {"seat": turn, "from": seq, "to": seq + 1, "policy": "greedy", "why": "clock"} in (
        record_marks.bot_marks(game.header)
    )
    assert OnlineSeat.objects.get(table=table, seat=turn).bot == ""  # the seat is still its player's
