"""Phone layouts (#18 item 5) at 360, 390 and 430 px: the page never scrolls sideways, no element
sticks out of the screen (wide tables scroll inside their own box), the replay's seats overlap
neither each other nor the buttons, its event and score are on the first screen, and a swipe steps."""

from __future__ import annotations

import pytest

from games.models import Club
from tests.replay.conftest import bot_record, import_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 430)
HEIGHT = 780

#: every visible element's box, except those inside a box that scrolls sideways (their overflow is the
#: box's scroll range, not the page's)
OUTSIDE_JS = """() => {
  const w = document.documentElement.clientWidth, out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.classList.contains('skip') || el.classList.contains('vh')) continue;  // off-screen on purpose: skip link, screen-reader text
    let p = el.parentElement, scrolled = false;
    while (p && p !== document.body) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { scrolled = true; break; }
      p = p.parentElement;
    }
    if (!scrolled && (r.left < -1 || r.right > w + 1)) out.push(el.tagName + '#' + el.id + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  return {pageScroll: document.documentElement.scrollWidth - w, outside: out.slice(0, 10)};
}"""

OVERLAP_JS = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map(e => [e, e.getBoundingClientRect()]);
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const seats = boxes('#table .seat'), buttons = boxes('#controls .btn:not([hidden]), #controls input, #controls select');
  const center = boxes('#table .center');
  const bad = [];
  seats.forEach(([a, ra], i) => {
    buttons.forEach(([b, rb]) => { if (hit(ra, rb)) bad.push('seat ' + a.dataset.seat + ' over ' + (b.id || b.tagName)); });
    seats.slice(i + 1).forEach(([b, rb]) => { if (hit(ra, rb)) bad.push('seat ' + a.dataset.seat + ' over seat ' + b.dataset.seat); });
    center.forEach(([b, rb]) => { if (hit(ra, rb)) bad.push('seat ' + a.dataset.seat + ' over the trick'); });
    const t = document.getElementById('table').getBoundingClientRect();
    if (ra.left < t.left - 1 || ra.right > t.right + 1 || ra.top < t.top - 1 || ra.bottom > t.bottom + 1) bad.push('seat ' + a.dataset.seat + ' outside the table');
  });
  return bad;
}"""


@pytest.fixture
def game(live_server):
    club = Club.objects.create(
        name="Open Table with a rather long name", slug="open-table", visibility=Club.Visibility.PUBLIC
    )
    return import_game(club, bot_record(1))


def phone(browser, width):
    context = browser.new_context(viewport={"width": width, "height": HEIGHT}, has_touch=True, is_mobile=True)
    return context, context.new_page()


def check_fits(page, where):
    result = page.evaluate(OUTSIDE_JS)
    assert result["pageScroll"] <= 0, f"{where}: the page scrolls sideways by {result['pageScroll']} px"
    assert result["outside"] == [], f"{where}: outside the screen: {result['outside']}"


@pytest.mark.parametrize("width", WIDTHS)
def test_replay_fits_a_phone(browser, live_server, game, width):
    context, page = phone(browser, width)
    try:
        record = bot_record(1)
        # a trick of several plays, a long straight among them if the game has one
        longest = max(range(len(record["events"])), key=lambda i: len(record["events"][i].get("cards") or []))
        for at in (0, 60, longest + 1, len(record["events"])):
            page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={at}")
            page.wait_for_selector("#replay[data-ready='1']")
            check_fits(page, f"replay at {at}, {width} px")
            assert page.evaluate(OVERLAP_JS) == [], f"at {at}, {width} px"
            for sel in ("#event-text", "#totals"):  # on the first screen, without scrolling
                box = page.locator(sel).bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, sel
        page.screenshot(path=f".ci/out/screenshots/phone_replay_{width}.png", full_page=True)
        # a swipe to the left steps forward, to the right back
        page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=60")
        page.wait_for_selector("#replay[data-ready='1']")
        swipe = """([dx]) => { const t = document.getElementById('table'), r = t.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + 40;
          const touch = (cx) => new Touch({identifier: 1, target: t, clientX: cx, clientY: y});
          t.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(x)], changedTouches: [touch(x)], bubbles: true}));
          t.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [touch(x + dx)], bubbles: true})); }"""
        page.evaluate(swipe, [-120])
        assert page.evaluate("() => window.tichuReplay.at") == 61
        page.evaluate(swipe, [120])
        page.evaluate(swipe, [120])
        assert page.evaluate("() => window.tichuReplay.at") == 59
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_score_sheet_league_and_club_pages_fit_a_phone(browser, live_server, game, width):
    context, page = phone(browser, width)
    try:
        for path in (f"/games/{game.pk}/", "/clubs/open-table/", "/clubs/open-table/league/", "/clubs/"):
            page.goto(live_server.url + path)
            check_fits(page, f"{path} at {width} px")
        # the score sheet is wider than a phone: it scrolls in its own box, the running totals included
        page.goto(f"{live_server.url}/games/{game.pk}/")
        sheet = page.locator("table.sheet").first
        assert sheet.evaluate("t => getComputedStyle(t).overflowX") == "auto"
        assert sheet.evaluate("t => t.scrollWidth > t.clientWidth")
        sheet.evaluate("t => { t.scrollLeft = t.scrollWidth; }")
        total = page.locator("table.sheet td.total").first.bounding_box()
        assert total and total["x"] + total["width"] <= width + 1
        page.screenshot(path=f".ci/out/screenshots/phone_sheet_{width}.png", full_page=True)
    finally:
        context.close()
