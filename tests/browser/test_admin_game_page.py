"""A game's admin page shows its events as a read-only table (games/admin.py `GameAdmin.events`).
Django's admin cuts a field's content at its row (`.form-row { overflow: hidden }`): at phone width
the table's payload and time columns were cut off, out of reach. The table scrolls inside a box of
its own instead, at 390 px as at 1280, and the page itself never scrolls sideways."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Game
from tests.browser.test_claims_phone import session_for
from tests.browser.test_phone_layout import OUTSIDE_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: the events table's nearest box that does not let it overflow, and whether its right edge
#: can be scrolled into that box
REACH_JS = """() => {
  const table = document.querySelector('table.game-events');
  let box = table.parentElement;
  while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
  box.scrollLeft = box.scrollWidth;
  const t = table.getBoundingClientRect(), b = box.getBoundingClientRect();
  return {overflow: getComputedStyle(box).overflowX, tableRight: t.right, boxRight: b.right,
          rows: table.querySelectorAll('tr').length};
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_games_events_reach_their_last_column(browser, live_server, width, tmp_path):
    call_command("seed_demo", "--games", "1")
    game = Game.objects.get()
    admin = get_user_model().objects.create_superuser("root", password="pw")
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies(session_for(admin, live_server))
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/games/game/{game.pk}/change/")
    page.locator("table.game-events").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"admin_game_{width}.png"), full_page=False)
    layout = page.evaluate(OUTSIDE_JS)
    assert layout["pageScroll"] <= 0, layout
    reach = page.evaluate(REACH_JS)
    assert reach["rows"] == game.seq + 1  # a head row and one per event
    assert reach["overflow"] in ("auto", "scroll"), reach  # not "hidden": nothing cut out of reach
    assert reach["tableRight"] <= reach["boxRight"] + 1, reach
    context.close()
