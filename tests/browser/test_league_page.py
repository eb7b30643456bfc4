"""The league's page in headless Chromium at phone (390 px) and laptop (1280 px) widths: the
table's priority columns (rank, team, played, points, difference) on a phone, won/drawn/lost on a
laptop, nothing wider than the screen, links at least 24 px. Screenshots in
.ci/out/screenshots/league-390.png and league-1280.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_phone_layout import check_fits
from tests.conftest import client_for
from tests.leagues.test_league_page import EVENTS
from tests.leagues.test_leagues import add, new_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots"


@pytest.mark.parametrize("width", [390, 1280])
def test_the_league_page_fits(open_as, club, scorer, width):
    api = client_for(scorer)
    lid = new_league(api)
    assert add(api, lid, EVENTS, 0).status_code == 201
    page = open_as(scorer, f"/clubs/{club.slug}/leagues/{lid}/", viewport={"width": width, "height": 900})
    check_fits(page, f"league page, {width} px")
    assert page.locator("#league-table tbody tr").count() == 4
    won = page.locator("#league-table thead th.lo").first
    assert won.is_visible() == (width > 480), "won, drawn, lost: laptop only"
    assert page.locator("#league-table tr.zone-promotion .zone-mark").inner_text() == "up"
    assert page.locator("#league-fixtures .league-round").count() == 6
    for link in page.locator("main a, .crumbs a").all():
        if link.is_visible():
            box = link.bounding_box()
            assert box and box["height"] >= 24, link.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"league-{width}.png"), full_page=True)
