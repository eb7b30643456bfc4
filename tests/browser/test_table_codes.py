"""Table codes in headless Chromium: the director prints the round's table cards (code and QR),
a player at a table with no account types the code on a phone and records a hand, which is stored
as made with that code; the code opens nothing else."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Club, Event, Membership
from games.tournaments import services, table_codes
from games.tournaments.models import TableCodeWrite

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 2}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


@pytest.fixture
def published(live_server):
    club = Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    tid = services.tournament_create(club=club, name="Thursday", header=HEADER, user=td).body["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    services.append_events(tournament_id=tid, events=events, expected_seq=0, user=td)
    pairing = {
        "type": "round_paired",
        "round": 1,
        "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
        "byes": [],
    }
    services.append_events(tournament_id=tid, events=[pairing], expected_seq=4, user=td)
    links = services.make_round_games(tournament_id=tid, round_number=1, user=td)
    return td, tid, {link.table: link.game_id for link in links}


def test_cards_then_a_phone_enters_its_table_with_the_code(browser, live_server, published, tmp_path):
    td, tid, games = published
    client = Client()
    client.force_login(td)
    context = browser.new_context(viewport=LAPTOP)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tid}/")
    page.click("#table-cards")
    cards = page.locator(".code-card")
    assert cards.count() == 2
    assert page.locator(".code-card .qr svg").count() == 2
    first = cards.nth(0)
    assert "Anna & Ben" in first.inner_text() and "Cleo & Dan" in first.inner_text()
    printed = first.locator(".code").inner_text()
    assert table_codes.normalise(printed) is not None
    # each pair's PIN for the evening on its own slip (issue 33), not on the card the table shares
    slips = page.locator("#pin-slips .pin-slip")
    assert slips.count() == 4
    by_pair = {slip.inner_text().split(":")[0]: slip.locator(".code").inner_text() for slip in slips.all()}
    ns_pin, ew_pin = by_pair["Anna & Ben"], by_pair["Cleo & Dan"]
    assert ns_pin not in first.inner_text() and ew_pin not in first.inner_text()
    page.screenshot(path=str(tmp_path / "table_cards.png"), full_page=True)
    context.close()

    phone = browser.new_context(viewport=PHONE)  # no account, no cookie
    table = phone.new_page()
    table.goto(f"{live_server.url}/t/")
    table.fill("#code", printed.lower())
    table.click("form:has(#code) button[type=submit]")  # not the language switcher's button
    table.wait_for_url(f"**/games/{games[1]}/enter/")
    table.wait_for_selector("#entry[data-ready='1']")
    table.screenshot(path=str(tmp_path / "entry_with_code.png"), full_page=True)
    table.check("#out-0-0")
    table.fill("#points-0", "70")
    table.wait_for_selector("#hand-check.ok")
    table.click("#save-hand")
    table.wait_for_selector("#entry[data-seq='1'][data-busy='0']", state="attached")
    assert Event.objects.filter(game_id=games[1]).count() == 1
    assert Event.objects.get(game_id=games[1], seq=1).recorded_by_id is None
    write = TableCodeWrite.objects.get(game_id=games[1])
    assert write.code.code == table_codes.normalise(printed)

    table.check("#out-0-1")
    table.fill("#points-0", "40")
    table.wait_for_selector("#hand-check.ok")
    table.click("#save-hand")
    table.wait_for_selector("#entry[data-seq='2'][data-busy='0']", state="attached")
    table.goto(f"{live_server.url}/t/{printed}/")  # the game is over: the code opens its result
    table.fill("#send-pin", ns_pin.lower())
    table.screenshot(path=str(tmp_path / "result_send.png"), full_page=True)
    table.click("#send-result")
    table.wait_for_selector("#confirm-result")
    assert "East/West (Cleo & Dan)" in table.locator("#answer-side").inner_text()
    table.fill("#answer-pin", ew_pin)
    table.fill("#reason", "hand 2 was 50:50")
    table.screenshot(path=str(tmp_path / "result_answer.png"), full_page=True)
    table.click("#dispute-result")
    table.wait_for_selector("#table-result[data-confirmation='disputed']")
    table.screenshot(path=str(tmp_path / "result_disputed.png"), full_page=True)
    assert table.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    response = table.goto(f"{live_server.url}/games/{games[2]}/enter/")
    assert "/accounts/" in table.url or response.status in (403, 404), "the other table's game stays closed"
    response = table.goto(f"{live_server.url}/t/ACDE-FGHJ/")
    assert response.status == 404
    assert table.locator("[role=alert]").is_visible()
    phone.close()

    context = browser.new_context(viewport=PHONE)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tid}/")
    assert "hand 2 was 50:50" in page.locator("#disputed").inner_text()
    page.screenshot(path=str(tmp_path / "td_disputed.png"), full_page=True)
    page.locator("#disputed a").click()
    page.wait_for_url(f"**/games/{games[1]}/replay/")
    context.close()
