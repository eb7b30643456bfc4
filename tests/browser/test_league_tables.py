"""The league's two tables in headless Chromium at phone (360 px) and laptop (1280 px) widths:
both tables shown, the club's choice first, the predictive rating's range visible, nothing wider
than the screen but the tables' own scroll boxes. Screenshots in .ci/out/screenshots/league/."""
from __future__ import annotations

from pathlib import Path

import pytest

from games.models import Club
from games.ratings import services
from games.ratings.fixtures import load_history
from games.ratings.synthetic import synthetic_history

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots" / "league"


@pytest.fixture
def club(db):
    club = Club.objects.create(name="League", slug="league-club")
    _, games = synthetic_history(60, 8, seed=3)
    load_history(club, games)
    services.recompute_club(club.pk)
    return club


@pytest.mark.parametrize("width", [360, 1280], ids=["phone", "laptop"])
def test_both_tables_in_the_clubs_order(browser, live_server, club, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        for leads, first in (("elo", "Elo table"), ("predictive", "Predictive rating")):
            Club.objects.filter(pk=club.pk).update(league_leads_with=leads)
            page.goto(live_server.url + f"/clubs/{club.slug}/league/")
            headings = page.locator("main h2").all_inner_texts()
            assert headings[0] == first and set(headings) == {"Elo table", "Predictive rating"}
            assert page.locator("#league-elo tbody tr").count() == 8
            assert page.locator("#league-predictive td.range").count() == 8
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"league-{leads}-{width}.png"), full_page=True)
        assert errors == []
    finally:
        context.close()
