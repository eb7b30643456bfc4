"""The season's page in headless Chromium at phone (390 px) and laptop (1280 px) widths: the
table's priority columns (rank, player, score, evenings) on a phone, every evening's column on a
laptop, nothing wider than the screen, the TD's controls a thumb's size. Screenshots in
.ci/out/screenshots/season-390.png and season-1280.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.tournaments.models import Season, Tournament
from tests.browser.target_sizes import problems
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


@pytest.mark.parametrize("width", [390, 1280])
def test_the_season_form_takes_a_table_of_points_and_shows_a_refusal_at_its_field(open_as, club, scorer, width):
    """The TD types a table of points that goes up: the core refuses it, the words stand under the
    points' field and nothing is stored; typed again from the first place down, the season is made."""
    page = open_as(scorer, f"/clubs/{club.slug}/tournaments/", viewport={"width": width, "height": 900})
    check_fits(page, f"tournaments and seasons, {width} px")
    assert problems(page) == [], f"tap targets, {width} px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"season-list-{width}.png"), full_page=True)
    form = page.locator("#new-season")
    form.locator("input[name=name]").fill("Race 2027")
    form.locator("select[name=scoring]").select_option("table")
    form.locator("input[name=points_table]").fill("10, 20, 30")
    form.locator("button[type=submit]").click()
    error = page.locator("#error-points_table")
    error.wait_for()
    assert "at least the points of the place after it" in error.inner_text()
    assert error.locator("[data-code=malformed]").count() == 1
    assert not Season.objects.exists(), "nothing stored on a refusal"
    field = page.locator("#new-season [data-field=points_table]")
    assert field.locator("input").input_value() == "10, 20, 30", "the form comes back as typed"
    field_box, error_box = field.locator("input").bounding_box(), error.bounding_box()
    assert field_box and error_box and 0 <= error_box["y"] - field_box["y"] < 150, "the refusal next to its field"
    check_fits(page, f"season form refused, {width} px")
    assert problems(page) == [], f"tap targets, {width} px"
    for control in page.locator("#new-season select, #new-season input:not([type=hidden]), #new-season button").all():
        box = control.bounding_box()
        assert box and box["height"] >= 44, "a scorer's thumb"
    SHOTS.mkdir(parents=True, exist_ok=True)
    form.screenshot(path=str(SHOTS / f"season-form-refused-{width}.png"))

    page.locator("#new-season input[name=points_table]").fill("30; 20; 10")
    page.locator("#new-season button[type=submit]").click()
    page.locator("#season-heading").wait_for()
    season = Season.objects.get()
    assert season.header["points_table"] == [30, 20, 10]
    assert "30, 20, 10" in page.locator("#season-rules").inner_text()
    assert page.locator("#season-csv").is_visible() and page.locator("#season-pdf").is_visible()
    check_fits(page, f"season made, {width} px")
    assert problems(page) == [], f"tap targets, {width} px"
    page.screenshot(path=str(SHOTS / f"season-table-scoring-{width}.png"), full_page=True)
