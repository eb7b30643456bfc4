"""The TD's short round at a phone's width (issue 31, item 2), in headless Chromium: the round
page's "Record a short round" form (table, hands played, reason) stores the event, the table's
card says so, and its paper form then takes the two hands played; the form fits 390 px with
controls a thumb can hit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.models import Membership
from games.tournaments import selectors
from games.tournaments.models import Tournament
from tests.tournament_api.test_short_round import dtm_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def td(make_user, make_club):
    user = make_user("td")
    Membership.objects.create(club=make_club("home"), user=user, role=Membership.Role.SCORER)
    return user


def test_a_short_round_recorded_on_a_phone(open_as, td, tmp_path):
    shots = Path(os.environ.get("TICHU_SHOTS") or tmp_path)
    tid = dtm_round(td)
    page = open_as(td, f"/tournaments/{tid}/", {"width": 390, "height": 844})
    page.click("#short-round summary")
    page.select_option("#short-table", "1")
    page.select_option("#short-hands", "2")
    page.fill("#short-reason", "time ran out")
    for control in ("#short-table", "#short-hands", "#short-reason", "#record-short"):
        box = page.locator(control).bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 390, (control, box)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / "short_round_form_390.png"), full_page=False)
    page.click("#record-short")
    page.wait_for_selector("text=Table 1 played a short round: 2 hands.")
    card = page.locator(".table-card[data-table='1']")
    assert card.locator(".short").inner_text() == "Short round: 2 hands (time ran out)."
    card.locator("details.paper summary").click()
    assert card.locator(".hand-line").count() == 2
    for i, (ns, ew) in enumerate([(60, 40), (30, 70)]):
        card.locator(f"input[name='hand_{i}_0']").fill(str(ns))
        card.locator(f"input[name='hand_{i}_1']").fill(str(ew))
    card.locator("details.paper button").click()
    page.wait_for_selector("text=Table 1 recorded from paper.")
    assert page.locator(".table-card[data-table='1']").get_attribute("data-status") == "paper"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / "short_round_done_390.png"), full_page=True)
    table = selectors.state_at(Tournament.objects.get(pk=tid)).rounds[0].tables[1]
    assert list(table.result["score"]) == [90, 110]
    assert not page.errors
