"""The club's imports page (/clubs/<slug>/imports/) in a browser at phone and laptop widths: a
running job's progress, no sideways scroll on a phone, the page reloading itself while it runs."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Club, ImportJob, Membership
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_club_admin_follows_a_running_import(browser, live_server, width):
    club = Club.objects.create(slug="bsw", name="BSW history", visibility="public")
    admin = get_user_model().objects.create_user("ada", password="pw")
    Membership.objects.create(user=admin, club=club, role="admin")
    job = ImportJob.objects.create(club=club, files_total=200, files_done=57, files_skipped=3, files_failed=1,
                                   games_stored=57)
    client = Client()
    client.force_login(admin)
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clubs/bsw/imports/")
        row = page.locator(f"#imports tr[data-job='{job.pk}']")
        assert "61 / 200 files" in row.inner_text()
        assert page.locator("progress").get_attribute("value") == "61"
        assert page.locator("meta[http-equiv='refresh']").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"imports-{width}.png"), full_page=True)  # to look at
        ImportJob.objects.filter(pk=job.pk).update(files_done=196)
        expect(page.locator("progress")).to_have_attribute("value", "200", timeout=15_000)  # it reloaded itself
    finally:
        context.close()
