"""/api/docs/ (Swagger UI) and /api/redoc/ (ReDoc) from the project's own static files: they
render the API's operations with every request to another host refused, under the site's
Content-Security-Policy (a violation fails the test: tests/plugins/browser.py)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def offline(page, live_server) -> list[str]:
    """Refuse every request that leaves the live server; returns the list of those refused."""
    own = urlsplit(live_server.url).netloc
    refused: list[str] = []

    def route(request_route):
        url = request_route.request.url
        if urlsplit(url).netloc == own or url.startswith(("data:", "blob:")):
            request_route.continue_()
        else:
            refused.append(url)
            request_route.abort()

    page.route("**/*", route)
    return refused


@pytest.mark.parametrize("width", [390, 1280])
def test_swagger_ui_lists_the_operations_offline(page, live_server, width):
    page.set_viewport_size({"width": width, "height": 900})
    refused = offline(page, live_server)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/games/{id}/events/" in [p.replace("\u200b", "") for p in paths]
    assert page.locator(".opblock-post").count() >= 5
    assert refused == []


def test_redoc_lists_the_operations_offline(page, live_server):
    refused = offline(page, live_server)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("[data-section-id^='tag/']", timeout=20_000)
    assert page.get_by_text("/api/games/{id}/events/").count() >= 1
    assert refused == []
    # the sidebar credit's logo comes inline (games/api/redoc.py), not from Redocly's CDN: the
    # browser fixture fails the test on any Content-Security-Policy violation
    assert page.get_by_text("API docs by Redocly").count() == 1
    assert page.evaluate("() => [...document.images].map(i => i.src).filter(s => s.includes('cdn.redoc.ly'))") == []
