"""The season's page in headless Chromium at phone (390 px) and laptop (1280 px) widths: the
table's priority columns (rank, player, score, evenings) on a phone, every evening's column on a
laptop, nothing wider than the screen, the TD's controls a thumb's size. Screenshots in
.ci/out/screenshots/season-390.png and season-1280.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.tournaments.models import Tournament
from tests.browser.test_phone_layout import check_fits
from tests.conftest import client_for
from tests.seasons.test_seasons import add, played_evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots"


@pytest.mark.parametrize("width", [390, 1280])
def test_the_season_page_fits(open_as, club, scorer, width):
    api = client_for(scorer)
    evenings = [played_evening(api, {1: [[70, 30]], 2: [[45, 55]]}) for _ in range(3)]
    for n, tid in enumerate(evenings):
        Tournament.objects.filter(pk=tid).update(name=f"Monthly evening {n + 1}")
    sid = api.post("/api/clubs/home/seasons/", {"name": "Season 2027", "header": {"best": 2}}, format="json").json()[
        "id"
    ]
    assert add(api, sid, [{"type": "evening_added", "tournament": t} for t in evenings], 0).status_code == 201
    page = open_as(scorer, f"/clubs/{club.slug}/seasons/{sid}/", viewport={"width": width, "height": 900})
    check_fits(page, f"season page, {width} px")
    evening_columns = page.locator("#season-table thead th.lo")
    assert evening_columns.count() == 3
    assert evening_columns.first.is_visible() == (width > 480), "per-evening columns: laptop only"
    assert page.locator("#season-table tbody tr").count() == 8
    for control in page.locator("#add-evening select, #add-evening button, #season-evenings button").all():
        box = control.bounding_box()
        assert box and box["height"] >= 44, "a scorer's thumb"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"season-{width}.png"), full_page=True)
