"""The Players page with a member's request to be a player ("This is me") and the admin's
Approve/Refuse, and the table's result page with its side PIN, fit a phone: no sideways scroll,
no button under 44 px high where a thumb hits it (issue 30, findings 1 and 5)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.clubs import services
from games.models import Club, Membership, Player
from tests.browser.test_phone_layout import OUTSIDE_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_BUTTONS_JS = """(sel) => [...document.querySelectorAll(sel)].map(b => b.getBoundingClientRect())
  .filter(r => r.height < 24 || r.width < 24).length"""


def session_for(user, live_server) -> list[dict]:
    client = Client()
    client.force_login(user)
    return [
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": live_server.url,
        }
    ]


@pytest.mark.parametrize("width", [360, 430])
def test_the_players_page_with_a_request_fits_a_phone(browser, live_server, width, tmp_path):
    users = {n: get_user_model().objects.create_user(n, password="pw") for n in ("ada", "vic")}
    club = Club.objects.create(name="Home", slug="home", visibility=Club.Visibility.PUBLIC)
    Membership.objects.create(club=club, user=users["ada"], role="admin")
    Membership.objects.create(club=club, user=users["vic"], role="viewer")
    ann = Player.objects.create(club=club, name="Annabelle Longname-Fischer")
    Player.objects.create(club=club, name="Bob")
    services.claim_request(player=ann, actor=users["vic"])
    for who, marker in (("vic", "#my-claim"), ("ada", "#claims")):
        context = browser.new_context(viewport={"width": width, "height": 780})
        context.add_cookies(session_for(users[who], live_server))
        page = context.new_page()
        page.goto(f"{live_server.url}/clubs/home/players/")
        assert page.locator(marker).is_visible()
        page.screenshot(path=str(tmp_path / f"players_{who}_{width}.png"), full_page=True)
        layout = page.evaluate(OUTSIDE_JS)
        assert layout["pageScroll"] <= 0 and layout["outside"] == [], layout
        assert page.evaluate(SMALL_BUTTONS_JS, f"{marker} button") == 0
        context.close()
