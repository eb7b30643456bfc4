"""A club's webhooks page in a browser at 390 and 1280 px: an admin adds a webhook (its secret shown
once), a game finishes and the delivery appears in the log, the admin removes it after confirming;
no sideways scroll, every control at least 24 px."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.clubs.models import Webhook, WebhookDelivery
from games.engine import random_record
from games.models import Club, Membership
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class _Ok(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver(settings):
    settings.TICHU_WEBHOOK_PRIVATE_ADDRESSES = True
    server = HTTPServer(("127.0.0.1", 0), _Ok)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def _signed_in(browser, live_server, user, width):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-GB")
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
    for control in page.locator("main button, main summary, main input, main a").all():
        if control.is_visible():
            box = control.bounding_box()
            assert box["height"] >= 24 and box["width"] >= 24, (control.evaluate("e => e.outerHTML"), box)


@pytest.mark.parametrize("width", [390, 1280])
def test_an_admin_adds_a_webhook_sees_its_deliveries_and_removes_it(browser, live_server, receiver, width):
    club = Club.objects.create(slug="tuesday", name="Tuesday Club", visibility="public")
    ada = get_user_model().objects.create_user("ada", password="pw")
    Membership.objects.create(user=ada, club=club, role="admin")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = _signed_in(browser, live_server, ada, width)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/clubs/tuesday/")
        page.locator("#webhooks-link").click()
        page.wait_for_url("**/clubs/tuesday/webhooks/")
        assert page.locator("#no-webhooks").is_visible()
        page.locator("input[name=url]").fill(receiver)
        page.get_by_label("a game finished").check()
        page.locator("#webhook-form button").click()
        page.wait_for_url("**/clubs/tuesday/webhooks/")
        hook = Webhook.objects.get()
        assert hook.secret in page.locator(".messages").inner_text()
        assert hook.kinds == ["game_finished"]

        record = random_record(seed=1, options={"hands": 1})
        services.game_create(club=club, variant="nanking", options={"hands": 1}, players=record["players"], user=ada)
        services.append_events(game=club.games.get().pk, events=record["events"], expected_seq=0, user=ada)
        assert WebhookDelivery.objects.filter(delivered=True).count() == 1
        page.reload()
        log = page.locator(".delivery-log li")
        assert log.count() == 1 and "delivered (answer 204)" in log.inner_text()
        _fits(page)
        page.screenshot(path=str(SCREENSHOTS / f"club-webhooks-{width}.png"), full_page=True)

        page.locator("details[data-confirm=remove-webhook] summary").click()
        page.get_by_role("button", name="Yes, remove this webhook").click()
        page.wait_for_url("**/clubs/tuesday/webhooks/")
        assert page.locator("#no-webhooks").is_visible()
    finally:
        context.close()
    assert not Webhook.objects.exists()
