"""The club archive's pages in a browser at 390 px: a club admin downloads the archive from
"Export", a site administrator uploads it on "Import a club" under a new slug; neither page
scrolls sideways and their buttons are at least 24 px."""

from __future__ import annotations

import gzip
import json

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Club, Game, Membership
from tests.plugins.browser import SCREENSHOTS
from tests.replay.conftest import bot_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _signed_in(browser, live_server, user, width=390):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 800}, accept_downloads=True)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = page.locator("form .button.primary").bounding_box()
    assert box["height"] >= 24 and box["width"] >= 24, box  # docs: 24 px (44 is for a scorer's thumb)


def test_an_admin_downloads_the_archive_and_a_site_administrator_imports_it(browser, live_server, tmp_path):
    club = Club.objects.create(slug="tuesday", name="Tuesday Club", visibility="public")
    ada = get_user_model().objects.create_user("ada", password="pw")
    Membership.objects.create(user=ada, club=club, role="admin")
    services.game_import(club=club, record=bot_record(1), user=ada)
    root = get_user_model().objects.create_user("root", password="pw", is_superuser=True, is_staff=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    context = _signed_in(browser, live_server, ada)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/clubs/tuesday/")
        page.locator("#export-link").click()
        page.wait_for_url("**/clubs/tuesday/export/")
        _fits(page)
        page.screenshot(path=str(SCREENSHOTS / "club-export-390.png"), full_page=True)
        with page.expect_download() as download:
            page.locator("#export-form button").click()
        path = tmp_path / download.value.suggested_filename
        download.value.save_as(path)
    finally:
        context.close()
    assert path.name.startswith("tuesday-") and path.name.endswith(".tichu-club.jsonl.gz")
    assert json.loads(gzip.decompress(path.read_bytes()).splitlines()[0])["club"] == "tuesday"

    context = _signed_in(browser, live_server, root)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/new-club/")
        page.locator("#import-club-link a").click()
        page.wait_for_url("**/import-club/")
        _fits(page)
        assert page.locator("input[type=file]").bounding_box()["height"] >= 24
        page.locator("input[type=file]").set_input_files(str(path))
        page.locator("input[name=slug]").fill("tuesday-again")
        page.screenshot(path=str(SCREENSHOTS / "club-import-390.png"), full_page=True)
        page.locator("#club-import-form button").click()
        page.wait_for_url("**/clubs/tuesday-again/")
        assert "Imported the club “Tuesday Club” with 1 game." in page.content()
        page.screenshot(path=str(SCREENSHOTS / "club-imported-390.png"), full_page=True)
    finally:
        context.close()
    assert Game.objects.filter(club__slug="tuesday-again").count() == 1
