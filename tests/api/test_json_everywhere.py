"""Every response under /api/ is JSON in the project's error shape, whatever went wrong and
wherever: unmatched paths with any method (no HTML CSRF page), paths holding a newline (`%0A`),
a refused Host, a CSRF failure, a server error. Outside /api/ Django's own pages stay."""

from __future__ import annotations

import json

import pytest
from django.test import Client, RequestFactory

from games.api.exceptions import api_bad_request, api_csrf_failure, api_forbidden, api_page_not_found, server_error

pytestmark = pytest.mark.django_db


def assert_json_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:200])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert body["code"] == code and isinstance(body["message"], str) and body["message"]
    return body


@pytest.fixture
def browser(make_user):
    """A signed-in browser session: Django enforces CSRF on its unsafe requests."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("browser"))
    return client


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/api/nowhere/", "/api/games/1/nothing", "/api/"])
def test_an_unsafe_method_on_an_unmatched_path_is_a_json_404(browser, method, path):
    assert_json_error(getattr(browser, method)(path), 404, "not_found")
    assert_json_error(getattr(Client(enforce_csrf_checks=True), method)(path), 404, "not_found")


@pytest.mark.parametrize("path", ["/api/games/%0A/", "/api/%0a", "/api/games/1/events/%0A", "/api/\n/x", "/api/%0D%0A"])
def test_a_path_with_a_newline_is_a_json_404(path):
    assert_json_error(Client().get(path), 404, "not_found")
    assert_json_error(Client(enforce_csrf_checks=True).post(path), 404, "not_found")


def test_a_refused_host_is_json_400_under_api_only(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    assert_json_error(Client().get("/api/ping/", HTTP_HOST="evil.example"), 400, "bad_request")
    page = Client().get("/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and not page["Content-Type"].startswith("application/json")


def test_the_handlers_answer_json_under_api_and_html_elsewhere():
    rf = RequestFactory()
    api, page = rf.post("/api/clubs/"), rf.post("/clubs/1/league/")
    assert_json_error(api_csrf_failure(api, reason="CSRF cookie not set."), 403, "csrf_failed")
    assert_json_error(api_forbidden(api, exception=None), 403, "permission_denied")
    assert_json_error(api_page_not_found(api, exception=None), 404, "not_found")
    assert_json_error(api_bad_request(api, exception=None), 400, "bad_request")
    assert_json_error(server_error(api), 500, "server_error")
    for handler, status in (
        (api_csrf_failure, 403),
        (api_forbidden, 403),
        (api_page_not_found, 404),
        (api_bad_request, 400),
    ):
        kwargs = {"reason": "x"} if handler is api_csrf_failure else {"exception": None}
        response = handler(page, **kwargs)
        assert response.status_code == status and "json" not in response["Content-Type"]


def test_a_signed_in_write_without_the_csrf_token_is_json_403(browser):
    assert_json_error(
        browser.post("/api/clubs/", {"name": "X", "slug": "x"}, content_type="application/json"),
        403,
        "permission_denied",
    )


def test_a_wrong_method_on_the_schema_and_token_views_is_json_405():
    assert_json_error(Client().delete("/api/schema/"), 405, "method_not_allowed")
    assert_json_error(Client().get("/api/auth/token/"), 405, "method_not_allowed")
