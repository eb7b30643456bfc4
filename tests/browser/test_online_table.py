"""Issue 34: four players at 390 px, each in a browser context of their own, open their seat
links and play a whole hand of Tichu at an online table through the seat pages: Grand Tichu
decisions, the exchange card by card, plays (the first the engine offers) and passes, the Dragon's gift when it falls. Which seat is to act
is read from the server (games.online.selectors); the acting itself is done on the page.
Screenshots at 360, 390 and 1280 px are left in .ci/out/screenshots/online-*.png."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import engine
from games.models import Club, Game, Membership
from games.online import selectors, services
from games.online.models import OnlineSeat
from tests.online.test_services import record_of
from tests.plugins.browser import DEFAULT_TIMEOUT_MS, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
MAX_ACTIONS = 400  # a hand takes far fewer; a stuck table fails instead of looping


@pytest.fixture
def table():
    club = Club.objects.create(name="Net Club", slug="net-club")
    user = get_user_model().objects.create_user("opener", password="pw")
    Membership.objects.create(club=club, user=user, role="viewer")
    return services.open_table(
        club=club, variant="nanking", options={"preset": "rio"}, players=["Ada", "Ben", "Cyd", "Dot"], user=user
    )


def shown(page, seq: int) -> None:
    page.wait_for_selector(f"#table[data-seq='{seq}']")


def act_on_page(page, view: dict) -> None:
    """The seat's next move, made with the page's own controls."""
    labels = {b.inner_text(): b for b in page.locator("#actions button").all()}
    if "No Grand Tichu" in labels:
        labels["No Grand Tichu"].click()
        return
    if view["push_due"]:
        for target in view["push_due"]:
            page.locator("#hand .hand-card:not([disabled]):not(.selected)").first.click()
            name = view["state"]["players"][int(target)]
            page.locator("#actions button", has_text=f"Give to {name}").click()
        page.locator("#actions button", has_text="Send the exchange").click()
        return
    gift = [a for a in view["actions"] if a["type"] == "dragon_gift"]
    if gift:
        page.locator("#actions button", has_text="Give the trick to").first.click()
        return
    play = next((a for a in view["actions"] if a["type"] == "play" and a["seat"] == view["state"]["turn"]), None)
    if play is None:  # nothing beats the trick: pass
        page.locator("#actions button", has_text="Pass").click()
        return
    for card in play["cards"]:
        page.locator(f"#hand .hand-card[data-card='{card}']").click()
    page.locator("#actions .button.primary").first.click()


def moves_on(action: dict, state: dict) -> bool:
    """Whether the action is one the table waits for (not a call, not a bomb out of turn)."""
    kind = action["type"]
    return kind in ("no_grand_tichu", "pass", "dragon_gift") or (kind == "play" and state["turn"] == action["seat"])


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def picture(page) -> bool:
    """Screenshots of a seat's page at 360, 390 and 1280 px, each without horizontal scroll."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in (360, 1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        assert no_horizontal_scroll(page)
        page.screenshot(path=str(SCREENSHOTS / f"online-seat-{width}.png"), full_page=True)
    return True


def test_four_phones_play_a_whole_hand(browser, live_server, table):
    seats = list(OnlineSeat.objects.filter(table=table).order_by("seat"))
    pages = []
    for seat in seats:
        context = browser.new_context(viewport=PHONE, locale="en-GB", extra_http_headers={"Accept-Language": "en"})
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        page.goto(f"{live_server.url}/online/seat/{seat.secret}/")
        page.click("#take-seat button")  # the link shows the seat; its button joins it
        pages.append(page)
    game = Game.objects.get(pk=table.game_id)
    shown(pages[0], game.seq)  # the first page learns of the deal by its long poll
    assert pages[0].locator("#hand .hand-card").count() == 8
    assert pages[0].locator("#table .chip .count").first.inner_text() == "8 cards"
    saw_trick_taken = pictured = False
    for _ in range(MAX_ACTIONS):
        game.refresh_from_db()
        state = engine.state_json(engine.fold(record_of(game)))
        saw_trick_taken |= any(t["cards"] for t in state.get("tricks_won") or [])
        if state["score_sheet"]:
            break
        if not pictured and state["phase"] == "play" and len(state["trick"]) >= 2:
            pictured = picture(pages[state["turn"]])  # a trick on the table
        views = [selectors.seat_view(s) for s in seats]
        mover = next(i for i, v in enumerate(views) if v["push_due"] or any(moves_on(a, state) for a in v["actions"]))
        shown(pages[mover], game.seq)
        act_on_page(pages[mover], views[mover])
        pages[mover].wait_for_selector("#actions[data-busy='0']", state="attached")  # the answer is in
        assert pages[mover].locator("#refusal").is_hidden(), pages[mover].locator("#refusal").inner_text()
    assert state["score_sheet"], "the hand was not finished"
    assert saw_trick_taken
    for page in pages:
        assert page.errors == []
        assert no_horizontal_scroll(page)
    sizes = [b for b in pages[0].locator("#actions button").all()]
    assert all(b.bounding_box()["height"] >= 44 for b in sizes)
    assert pictured
