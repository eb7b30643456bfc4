"""Each hand's deal at a glance in the replay (issue 39, static/replay/deal.js) at 390 and 1280 px:
the cards dealt to each seat, sorted, what each passed and received, as the record's own draws and
pushes say; it follows the hand picker; a seat's view and a game in play show only what the reader
may see. Screenshots in .ci/out/screenshots/."""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Club
from replay.frames.deals import deck_order
from tests.replay.conftest import bot_record, import_game
from tests.replay.test_deals import expected_deal, record_hands

from .test_phone_layout import OUTSIDE_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {390: {"width": 390, "height": 844}, 1280: {"width": 1280, "height": 800}}

GLANCE_JS = """() => {
  const q = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  const box = document.getElementById('deal-glance');
  const bySeat = (row, cls) => Object.fromEntries(q('.' + cls, row).map(s => [s.dataset.seat, q('.card', s).map(c => c.dataset.card)]));
  return {
    hidden: box.hidden,
    title: document.getElementById('deal-h').textContent,
    seats: q('.deal-seat', box).map(row => ({
      seat: +row.dataset.seat,
      dealt: q('.dealt .card', row).map(c => c.dataset.card),
      outlined: q('.dealt .card.passed', row).map(c => c.dataset.card),
      passed: bySeat(row, 'gave'),
      received: bySeat(row, 'got'),
    })),
  };
}"""


@pytest.fixture
def game(live_server):
    club = Club.objects.create(name="Open Table", slug="open-table")
    return import_game(club, bot_record(1))


def glance(page) -> dict:
    return page.evaluate(GLANCE_JS)


def hand_start(k: int) -> int:
    """The position of hand k's shuffle (1-based) in bot game 1."""
    return [i for i, e in enumerate(bot_record(1)["events"]) if e["type"] == "shuffle"][k - 1] + 1


def assert_deal(shown: dict, k: int) -> None:
    want = expected_deal(record_hands(bot_record(1))[k - 1], 4)
    order = deck_order("nanking")
    assert shown["title"] == f"Hand {k} as dealt"
    for seat, row in enumerate(shown["seats"]):
        assert row["seat"] == seat
        assert row["dealt"] == sorted(want["dealt"][seat], key=order.__getitem__)
        assert row["passed"] == want["passed"][seat] and row["received"] == want["received"][seat]
        assert Counter(row["outlined"]) == Counter(c for cards in want["passed"][seat].values() for c in cards)


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_the_deal_of_the_current_hand_at_a_glance(browser, live_server, game, width):
    page = browser.new_context(viewport=VIEWPORTS[width]).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={hand_start(3) + 80}&view=all")
    page.wait_for_selector("#replay[data-ready='1']")
    assert_deal(glance(page), 3)
    assert page.locator("#deal-hint").is_visible()  # "the cards each player passed are outlined"
    fits = page.evaluate(OUTSIDE_JS)
    assert fits["pageScroll"] <= 0 and fits["outside"] == [], fits
    box = page.locator("#deal-glance").bounding_box()
    assert box and box["width"] <= width
    page.locator("#deal-glance").scroll_into_view_if_needed()
    page.screenshot(path=f".ci/out/screenshots/replay_deal_{width}.png")
    # the hand picker moves the glance to that hand's deal (at its shuffle, before a card is dealt)
    page.locator("#hand-chips a:nth-child(5)").click()
    assert page.evaluate("() => window.tichuReplay.at") == hand_start(5)
    assert_deal(glance(page), 5)
    # before the first hand there is no deal to show
    page.keyboard.press("Home")
    assert glance(page)["hidden"] is True


def test_a_seats_view_shows_only_that_seats_deal_and_exchange(page, live_server, game):
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={hand_start(2) + 70}&view=1")
    page.wait_for_selector("#replay[data-ready='1']")
    want = expected_deal(record_hands(bot_record(1))[1], 4)
    seats = glance(page)["seats"]
    assert Counter(seats[1]["dealt"]) == Counter(want["dealt"][1])
    assert seats[1]["passed"] == want["passed"][1] and seats[1]["received"] == want["received"][1]
    for other in (0, 2, 3):
        assert seats[other]["dealt"] == ["?"] * 14
        assert set(seats[other]["passed"]) <= {"1"} and set(seats[other]["received"]) <= {"1"}


@pytest.mark.parametrize("width", sorted(VIEWPORTS))
def test_a_game_in_play_shows_no_hand_in_play(browser, live_server, width):
    club = Club.objects.create(name="Open Table", slug="open-table")
    record = bot_record(1)
    cut = hand_start(2) + 70  # hand 2 in play, past its exchange
    game = import_game(club, dict(record, events=record["events"][:cut]))
    page = browser.new_context(viewport=VIEWPORTS[width]).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready='1']")
    shown = glance(page)
    assert shown["title"] == "Hand 2 as dealt"
    assert [row["dealt"] for row in shown["seats"]] == [["?"] * 14] * 4
    assert all(set(cards) == {"?"} for row in shown["seats"] for cards in row["passed"].values())
    assert page.locator("#deal-glance .card:not(.back)").count() == 0
    page.locator("#deal-glance").scroll_into_view_if_needed()
    page.screenshot(path=f".ci/out/screenshots/replay_deal_live_{width}.png")
    page.locator("#hand-chips a:nth-child(1)").click()  # hand 1 is over: its deal is open
    assert_deal(glance(page), 1)
