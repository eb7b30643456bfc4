"""Proves the Playwright harness (tests/plugins/browser.py) against pytest-django's live_server."""

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.django_db
def test_admin_login_page_title(page, live_server):
    response = page.goto(live_server.url + "/admin/login/")
    assert response.status == 200
    assert page.title() == "Log in | Django site admin"
    assert page.locator("input[name=username]").is_visible()
