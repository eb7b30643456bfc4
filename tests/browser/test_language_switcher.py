"""The language switcher in a browser: choosing a language reloads the same replay at the same step
in that language, the choice stays for the next page, and the site's bar holds at phone width in
the longest language. Screenshots in .ci/out/screenshots/languages/."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from games.models import Club
from tests.browser.test_phone_layout import OUTSIDE_JS
from tests.replay.conftest import bot_record, import_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots" / "languages"


@pytest.fixture
def game(live_server):
    club = Club.objects.create(name="Club de Lyon", slug="lyon", visibility=Club.Visibility.PUBLIC)
    return import_game(club, bot_record(1))


def test_switching_language_keeps_the_replay_step_and_is_remembered(browser, live_server, game):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=17")
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.get_attribute("html", "lang") == "en"
    assert page.is_hidden("#language-go")  # the choice itself submits
    page.select_option("#language-select", "fr")
    page.wait_for_selector("html[lang='fr']")
    page.wait_for_selector("#replay[data-ready='1']")
    url = urlsplit(page.url)
    assert url.path == f"/games/{game.pk}/replay/" and parse_qs(url.query)["at"] == ["17"]
    assert page.inner_text("#sign-in-link") == "Se connecter"
    page.goto(f"{live_server.url}/accounts/sign-in/")
    assert page.inner_text("h1") == "Se connecter"  # remembered, though the browser says English


@pytest.mark.parametrize("width", (360, 390))
@pytest.mark.parametrize("lang", ("uk", "de"))
def test_the_site_bar_holds_at_phone_width_in_the_longest_languages(browser, live_server, game, width, lang):
    context = browser.new_context(viewport={"width": width, "height": 780}, locale=lang, is_mobile=True, has_touch=True)
    page = context.new_page()
    for path in ("/", "/accounts/sign-in/", f"/games/{game.pk}/replay/?at=5"):
        page.goto(live_server.url + path)
        assert page.get_attribute("html", "lang") == lang
        result = page.evaluate(OUTSIDE_JS)
        assert result["pageScroll"] <= 0 and result["outside"] == [], (path, result)
        switcher, bar = page.locator("#language-switcher").bounding_box(), page.locator("header.site").bounding_box()
        assert switcher["y"] + switcher["height"] <= bar["y"] + bar["height"] + 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-{lang}-{width}.png"))
