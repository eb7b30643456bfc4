"""The league's page in headless Chromium at phone (390 px) and laptop (1280 px) widths: the
table's priority columns (rank, team, played, points, difference) on a phone, won/drawn/lost on a
laptop, nothing wider than the screen, links at least 24 px. Screenshots in
.ci/out/screenshots/league-390.png and league-1280.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api.helpers import grand_double
from tests.api.test_append import create_game
from tests.browser.test_phone_layout import check_fits
from tests.conftest import client_for
from tests.leagues.test_league_page import EVENTS
from tests.leagues.test_leagues import add, new_league

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots"


def _league_with_games(api, club) -> int:
    """EVENTS' league, with R6-2 from the table's game, then reopened (shown, counted nowhere),
    and another finished game the TD may take a match's result from."""
    lid = new_league(api)
    assert add(api, lid, EVENTS, 0).status_code == 201
    game = create_game(api, club)  # a match from the table's game, then reopened: shown, counted nowhere
    assert (
        api.post(
            f"/api/games/{game}/events/", {"expected_seq": 0, "events": [grand_double(0)] * 3}, format="json"
        ).status_code
        == 201
    )
    linked = [{"type": "match_result", "match": "R6-2", "game": game}]
    assert add(api, lid, linked, len(EVENTS)).status_code == 201
    assert (
        api.post(
            f"/api/games/{game}/events/", {"expected_seq": 3, "events": [{"type": "undo"}]}, format="json"
        ).status_code
        == 201
    )
    other = create_game(api, club)  # a finished game the TD may take a match's result from
    assert (
        api.post(
            f"/api/games/{other}/events/", {"expected_seq": 0, "events": [grand_double(1)] * 3}, format="json"
        ).status_code
        == 201
    )
    return lid


@pytest.mark.parametrize("width", [390, 1280])
def test_the_league_page_fits(open_as, club, scorer, width):
    lid = _league_with_games(client_for(scorer), club)
    page = open_as(scorer, f"/clubs/{club.slug}/leagues/{lid}/", viewport={"width": width, "height": 900})
    page.click('[data-match="R6-1"] details.match-form > summary')
    assert page.locator('[data-match="R6-1"] .from-game-form select option').count() == 1
    check_fits(page, f"league page, {width} px")
    assert page.locator("#league-table tbody tr").count() == 4
    won = page.locator("#league-table thead th.lo").first
    assert won.is_visible() == (width > 480), "won, drawn, lost: laptop only"
    assert page.locator("#league-table tr.zone-promotion .zone-mark").inner_text() == "up"
    assert page.locator("#league-fixtures .league-round").count() == 6
    assert (
        page.locator('[data-match="R6-2"] a.from-game').inner_text() == "its game is not over yet: counted once it is"
    )
    assert page.locator('[data-match="R6-2"] details.match-form').count() == 0  # corrected on the game
    for link in page.locator("main a, .crumbs a").all():
        if link.is_visible():
            box = link.bounding_box()
            assert box and box["height"] >= 24, link.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"league-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_tds_league_forms_fit_a_thumb(open_as, club, scorer, width):
    """The TD's result form under a match (opened) and the new league form on the club's
    tournaments page: nothing wider than the screen, every target at least 24 px, the result's
    fields and button at least 44 px."""
    from tests.browser.target_sizes import problems

    lid = _league_with_games(client_for(scorer), club)
    page = open_as(scorer, f"/clubs/{club.slug}/leagues/{lid}/", viewport={"width": width, "height": 900})
    page.click('[data-match="R6-1"] details.match-form > summary')
    assert page.locator('[data-match="R6-1"] .from-game-form select option').count() == 1
    page.locator('li[data-match="R5-1"] summary').click()
    page.locator('li[data-match="R4-2"] summary').click()
    check_fits(page, f"league page of the TD, {width} px")
    assert problems(page) == []
    for control in page.locator(".match-form[open] input:not([type=hidden]), .match-form[open] button").all():
        box = control.bounding_box()
        assert box and box["height"] >= 44, "a scorer's thumb"
    page.locator('li[data-match="R5-1"] input[name=home]').fill("1005")
    page.locator('li[data-match="R5-1"] input[name=away]').fill("990")
    page.locator('li[data-match="R5-1"] button', has_text="Store the result").click()
    page.wait_for_load_state()
    assert "1005 : 990" in page.locator('li[data-match="R5-1"]').inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator('li[data-match="R4-2"] summary').click()
    page.screenshot(path=str(SHOTS / f"league-td-{width}.png"), full_page=True)
    listing = open_as(scorer, f"/clubs/{club.slug}/tournaments/", viewport={"width": width, "height": 900})
    check_fits(listing, f"tournaments page with the new league form, {width} px")
    assert problems(listing) == []
    for control in listing.locator(
        "#new-league input:not([type=hidden]), #new-league select, #new-league button"
    ).all():
        box = control.bounding_box()
        assert box and box["height"] >= 24
    listing.screenshot(path=str(SHOTS / f"league-new-{width}.png"), full_page=True)
