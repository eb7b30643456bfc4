"""Nothing typed is lost (issue 33, item 2): a deal, an exchange, the cards picked for a play and a
score-sheet line typed on the entry page and not sent yet survive a reload (a phone that discarded
the tab) and are put back with a note; once the server has the entry, the draft is gone."""

from __future__ import annotations

import os

import pytest

from games.services import append_events
from tests.browser.test_entry import PHONE, club, first_hand, game, open_entry, scorer, wait_seq  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("TICHU_SHOTS")  # a folder for the screenshots, to look at


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=False)


def drafts(page, game) -> dict:
    return page.evaluate(
        """(prefix) => Object.fromEntries(Object.keys(localStorage)
        .filter((k) => k.startsWith(prefix)).map((k) => [k.slice(prefix.length), JSON.parse(localStorage.getItem(k))]))""",
        f"tichu-entry:game-{game.pk}:draft:",
    )


def reload(page) -> None:
    page.reload()
    page.wait_for_selector("#entry[data-ready='1']")


def test_a_deal_being_tapped_survives_a_reload(open_as, game):
    events = first_hand()
    first_draw = next(i for i, e in enumerate(events) if e["type"] == "draw")
    append_events(game=game, events=events[:first_draw], expected_seq=0, user=scorer())
    page = open_entry(open_as, game, viewport=PHONE)
    page.click("#tab-cards")
    seat = events[first_draw]["seat"]
    cards = [e["card"] for e in events[first_draw:] if e["type"] == "draw" and e["seat"] == seat][:5]
    if page.get_attribute(f"#deal-seat-{seat}", "aria-pressed") != "true":
        page.click(f"#deal-seat-{seat}")
    for card in cards:
        page.click(f"#deal-group .pick[data-card='{card}']")
    page.wait_for_function(
        "(n) => document.querySelector('#deal-seat-' + n + ' .n').textContent.startsWith('5/')", arg=seat
    )
    # kept soon after the tap (draft.js saveSoon), not in the tap's own handler
    page.wait_for_function(
        "([key, seat, n]) => ((JSON.parse(localStorage.getItem(key) || 'null') || {}).deal || {})[seat]?.length === n",
        arg=[f"tichu-entry:game-{game.pk}:draft:{first_draw}", str(seat), len(cards)],
    )
    assert drafts(page, game)[str(first_draw)]["deal"][str(seat)] == cards

    reload(page)  # the phone discarded the tab: the 5 taps are back, and said
    page.wait_for_selector("#entry[data-restored='1']", state="attached")
    assert "Restored from this phone: the deal being tapped" in page.text_content("#status")
    assert page.text_content(f"#deal-seat-{seat} .n").startswith("5/")
    assert page.get_attribute("#tab-cards", "aria-selected") == "true"
    shot(page, "draft_deal_390.png")


def test_an_exchange_being_tapped_survives_a_reload(open_as, game):
    events = first_hand()
    first_push = next(i for i, e in enumerate(events) if e["type"] == "push")
    append_events(game=game, events=events[:first_push], expected_seq=0, user=scorer())
    page = open_entry(open_as, game, viewport=PHONE)
    page.click("#tab-cards")
    push = events[first_push]
    if page.get_attribute(f"#push-seat-{push['seat']}", "aria-pressed") != "true":
        page.click(f"#push-seat-{push['seat']}")
    slots = page.eval_on_selector_all("#push-dock .push-slot", "els => els.map(e => e.dataset.slot)")
    for slot in slots[:2]:
        page.click(f".seat-box[data-seat='{push['seat']}'] .pick[data-card='{push['cards'][slot]}']")
    placed = {slot: push["cards"][slot] for slot in slots[:2]}
    page.wait_for_function(
        "(n) => Object.keys(window.tichuEntry.state.exchange.slots[n] || {}).length === 2", arg=push["seat"]
    )
    reload(page)
    page.wait_for_selector("#entry[data-restored='1']", state="attached")
    assert "the exchange being tapped" in page.text_content("#status")
    assert page.evaluate("(n) => window.tichuEntry.state.exchange.slots[n]", push["seat"]) == placed
    shot(page, "draft_exchange_390.png")


def test_a_score_sheet_line_survives_a_reload_and_goes_once_sent(open_as, game):
    page = open_entry(open_as, game, viewport=PHONE)
    page.check("#out-0-2")
    page.fill("#points-0", "35")
    page.wait_for_selector("#hand-check.ok")
    reload(page)
    page.wait_for_selector("#entry[data-restored='1']", state="attached")
    assert "the hand typed in the score sheet" in page.text_content("#status")
    assert page.is_checked("#out-0-2") and page.input_value("#points-0") == "35"
    page.wait_for_selector("#hand-check.ok")  # checked again by the engine
    page.click("#save-hand")
    wait_seq(page, 1)
    page.wait_for_function(
        f"() => !Object.keys(localStorage).some((k) => k.startsWith('tichu-entry:game-{game.pk}:draft:'))"
    )
    reload(page)
    assert page.get_attribute("#entry", "data-restored") is None and not page.is_checked("#out-0-2")
