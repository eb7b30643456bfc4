"""Issue 34 item 7: two players at 390 px, each in a browser context of their own, open their seat
links and play a round of Tien Zi Que to its end through the seat pages: draws, discards (a card
tapped, then "Discard the ..."), every Chow and Pung the page offers (a button per card to keep),
a reshuffle when the stock runs out and the page offers it. Which seat is to act is read from the
server (games.online.selectors); the acting itself is done on the page. Screenshots at 360, 390
and 1280 px are left in .ci/out/screenshots/online-tzq-*.png."""

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
MAX_ACTIONS = 600  # a round takes far fewer; a stuck table fails instead of looping


@pytest.fixture
def table():
    club = Club.objects.create(name="Net Club", slug="net-club")
    user = get_user_model().objects.create_user("opener", password="pw")
    Membership.objects.create(club=club, user=user, role="viewer")
    return services.open_table(
        club=club, variant="tien-zi-que", options={"preset": "rio"}, players=["Ann", "Bob"], user=user
    )


def shown(page, seq: int) -> None:
    page.wait_for_selector(f"#table[data-seq='{seq}']")


def act_on_page(page, view: dict) -> str:
    """The seat's next move, made with the page's own controls; the kind of move made."""
    keep = page.locator("#actions .tzq-combos button.keep")
    if keep.count():  # a Chow or a Pung: the round ends sooner
        kind = keep.first.get_attribute("data-type")
        keep.first.click()
        return kind
    draw = page.locator("#actions button", has_text="Draw from the stock")
    if draw.count():
        draw.click()
        return "draw"
    reshuffle = page.locator("#actions button", has_text="into the stock")
    if reshuffle.count():
        reshuffle.click()
        return "reshuffle"
    discard = page.locator("#actions button[data-type='discard']")
    assert discard.is_disabled()  # nothing to discard before a card is tapped
    card = min((a["card"] for a in view["actions"] if a["type"] == "discard"), key=lambda c: helps(c, view))
    page.locator(f"#hand .hand-card[data-card='{card}']").first.click()
    page.locator("#actions button", has_text="Discard the").click()
    return "discard"


def helps(card: str, view: dict) -> int:
    """How much a card helps the seat's hand (the same face twice, a Tien Zi Que): keep those."""
    hand = view["state"]["hands"][view["seat"]]
    return 10 if card.startswith("J") else sum(1 for c in hand if c[:-1] == card[:-1])


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def picture(page) -> bool:
    """Screenshots of a seat's page at 360, 390 and 1280 px, each without horizontal scroll."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in (360, 1280, 390):
        page.set_viewport_size({"width": width, "height": 844})
        assert no_horizontal_scroll(page)
        page.screenshot(path=str(SCREENSHOTS / f"online-tzq-seat-{width}.png"), full_page=True)
    return True


def test_two_phones_play_a_round_of_tien_zi_que(browser, live_server, table):
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
    assert pages[0].locator("#hand .hand-card").count() == 5
    assert pages[0].locator("#stock-count").inner_text() == "Stock: 44"
    dealt = record_of(game)["events"][0]["hands"]
    for seat, page in enumerate(pages):  # each page shows its own hand, the other's as a count only
        shown(page, game.seq)
        mine = [c.get_attribute("data-card") for c in page.locator("#hand .hand-card").all()]
        assert sorted(mine) == sorted(dealt[seat])
        assert page.locator(f"#table .chip[data-seat='{1 - seat}'] .count").first.inner_text() == "5 cards"
    made: list[str] = []
    pictured = False
    for _ in range(MAX_ACTIONS):
        game.refresh_from_db()
        state = engine.state_json(engine.fold(record_of(game)))
        if state["score_sheet"]:
            break
        views = [selectors.seat_view(s) for s in seats]
        mover = next(i for i, v in enumerate(views) if v["actions"])
        assert not views[1 - mover]["actions"]  # one seat acts at a time
        shown(pages[mover], game.seq)
        claims = any(a["type"] in ("pung", "chow") for a in views[mover]["actions"])
        if not pictured and claims and any(state["score_piles"]):
            pictured = picture(pages[mover])  # a claim offered, a score pile on the table
        made.append(act_on_page(pages[mover], views[mover]))
        pages[mover].wait_for_selector("#actions[data-busy='0']", state="attached")  # the answer is in
        assert pages[mover].locator("#refusal").is_hidden(), pages[mover].locator("#refusal").inner_text()
    line = state["score_sheet"][0]
    assert line["round"] == 1 and (line["drawn"] or line["winner"] in (0, 1))
    assert {"draw", "discard"} <= set(made) and {"pung", "chow"} & set(made)
    for page in pages:  # both pages follow the table into round 2 and say how round 1 ended
        shown(page, Game.objects.get(pk=game.pk).seq)
        assert page.locator("#last-round").inner_text().startswith("Round 1:")
        assert page.errors == []
        assert no_horizontal_scroll(page)
    buttons = pages[0].locator("#actions button").all() + pages[1].locator("#actions button").all()
    assert buttons and all(b.bounding_box()["height"] >= 44 for b in buttons)
    cards = pages[0].locator("#hand .hand-card").all()
    assert all(c.bounding_box()["height"] >= 44 and c.bounding_box()["width"] >= 44 for c in cards)
    assert pictured
