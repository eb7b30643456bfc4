"""Results to post in headless Chromium (issue 33, item 8): the results page at 390 and 1280 px,
and the one-file summary opened on its own at 390 px (as a club's member would open it from a
mail): no sideways scroll, every link and button at least 24 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from games.models import Club, Membership
from games.tournaments import services
from games.tournaments.models import Tournament
from tests.browser.test_table_night import HAND, evening
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# what the page itself holds (the site's bar is the site's); in the file, every link
SMALL = """(where) => [...document.querySelectorAll(where)]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
  .filter(([t, r]) => r.width < 24 || r.height < 24).map(([t, r]) => `${t} ${r.width}x${r.height}`)"""


#: the elements reaching past the screen's right edge (what a sideways scroll would be for)
WIDEST = """() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth)
  .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 60))"""


def finished(td) -> int:
    tid, games = evening(td)
    for table, game in games.items():
        game_services.append_events(game=game, events=[HAND], expected_seq=0, user=td)
        services.record_result_from_game(tournament_id=tid, round_number=1, table=table, user=td)
    seq = Tournament.objects.get(pk=tid).seq
    services.append_events(
        tournament_id=tid,
        events=[
            {"type": "round_closed", "round": 1},
            {
                "type": "round_paired",
                "round": 2,
                "byes": [],
                "tables": [{"table": 1, "sides": [["e0"], ["e2"]]}, {"table": 2, "sides": [["e1"], ["e3"]]}],
            },
        ],
        expected_seq=seq,
        user=td,
    )
    for link in services.make_round_games(tournament_id=tid, round_number=2, user=td):
        game_services.append_events(game=link.game_id, events=[HAND], expected_seq=0, user=td)
        services.record_result_from_game(tournament_id=tid, round_number=2, table=link.table, user=td)
    seq = Tournament.objects.get(pk=tid).seq
    services.append_events(
        tournament_id=tid,
        events=[{"type": "round_closed", "round": 2}, {"type": "tournament_finished"}],
        expected_seq=seq,
        user=td,
    )
    return tid


@pytest.mark.parametrize("width", [390, 1280])
def test_the_results_page_and_its_file_fit_a_phone(browser, live_server, width):
    club = Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    tid = finished(td)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tid}/results/")
    assert page.locator("#results-entries article").count() == 4
    assert page.locator("#results-entries a.replay").count() == 8
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate(SMALL, "main a, main button") == []
    page.screenshot(path=str(SCREENSHOTS / f"results_page_{width}.png"), full_page=True)
    if width == 390:
        body = page.request.get(f"{live_server.url}/tournaments/{tid}/results.html?lang=uk").text()
        # a club's own address is longer than the test server's: the file's source line must wrap
        page.set_content(body.replace(live_server.url, "https://tichu.club-example.org/records" * 2))
        assert page.evaluate("() => document.documentElement.lang") == "uk"
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), page.evaluate(WIDEST)
        assert page.evaluate(SMALL, "a, button") == []
        page.screenshot(path=str(SCREENSHOTS / "results_file_uk_390.png"), full_page=True)
    assert not page.errors
