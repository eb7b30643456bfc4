"""The game page and the new-game form in plain words, in Chromium at phone and laptop widths:
places and names, every house rule with its label and its one-line help, the presets described,
and nothing wider than the screen."""

from __future__ import annotations

import pytest

from games import engine
from tests.replay.conftest import import_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [360, 1280]
NO_OVERFLOW_JS = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.parametrize("width", WIDTHS)
def test_game_page_shows_places_rules_and_their_help(page, live_server, width):
    from games.models import Club

    club = Club.objects.create(name="Words", slug="words", visibility="public")
    record = {
        "format": engine.FORMAT,
        "variant": "nanking",
        "options": {"preset": "abacus", "hands": 4},
        "players": ["Anna", "Ben", "Cleo", "Dan"],
        "events": [],
    }
    game = import_game(club, record)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("h1").inner_text().startswith("Tichu")
    places = page.locator("#players td.place").all_inner_texts()
    assert places == ["South", "East", "North", "West"]
    rules = page.locator("#house-rules")
    for option in engine.game_info("nanking").options:
        row = rules.locator(f"tr[data-option='{option.name}']")
        assert row.locator("th").inner_text() == option.label
        assert row.locator("td.doc").inner_text() == option.help
        assert row.locator("td.doc").is_visible()
    assert rules.locator("tr[data-option='preset'] td.value").inner_text().startswith("Abacus edition")
    for table in ("#players", "#house-rules"):  # (the score sheet scrolls sideways on its own)
        assert page.evaluate(
            f"() => document.querySelector('{table}').getBoundingClientRect().right <= window.innerWidth"
        )
    page.screenshot(path=f".ci/out/game-page-plain-words-{width}.png", full_page=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_new_game_form_describes_presets_and_options(page, live_server, width, django_user_model):
    from games.models import Club, Membership

    club = Club.objects.create(name="Words", slug="words", visibility="public")
    user = django_user_model.objects.create_user("scorer", password="pw")
    Membership.objects.create(user=user, club=club, role=Membership.Role.SCORER)
    page.set_viewport_size({"width": width, "height": 900})
    page.context.add_cookies([_session_cookie(live_server, user)])
    page.goto(f"{live_server.url}/clubs/{club.slug}/new-game/")
    labels = page.locator("#variant option").all_inner_texts()
    assert labels == [g.full_label for g in engine.games()]
    assert page.locator("#preset option").all_inner_texts()[0] == "Rio Grande edition (the default)"
    assert "Abacus edition" in page.locator("#preset-help").inner_text()
    page.locator("#options summary").click()
    page.select_option("#variant", "tien-zi-que")
    shown = page.locator(".variant-options[data-variant='tien-zi-que'] .opt-name")
    assert shown.all_inner_texts() == [o.label for o in engine.game_info("tien-zi-que").options]
    assert page.locator(".seat-row[data-seat='0'] .seat-no").inner_text() == "Player 1"
    assert page.evaluate(NO_OVERFLOW_JS)
    page.screenshot(path=f".ci/out/new-game-plain-words-{width}.png", full_page=True)


def _session_cookie(live_server, user) -> dict:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live_server.url,
    }
