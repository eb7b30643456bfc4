"""The standings, the crosstable and the projector on a phone (issue 33, item 6) in headless
Chromium at 360, 390 and 430 px, after three rounds (so the "Perf." column shows): the page does not
scroll sideways, no table scrolls inside its box either (priority columns for the standings,
stacked rows for the crosstable), and every link and button on the page's content is at least
24 x 24 px."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from games import tournament as core
from games.models import Club, Membership
from games.tournaments import selectors, services
from games.tournaments.models import Tournament
from tests.browser.test_table_night import HAND, PAIRS
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 3, "hands_per_round": 1}

#: every visible link, button and form control of the page's content narrower or lower than 24 px
SMALL = """() => [...document.querySelectorAll('main a, main button, main input, main select, main summary')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.textContent.trim() || e.name || e.tagName, e.getBoundingClientRect()])
  .filter(([t, r]) => r.width < 24 || r.height < 24).map(([t, r]) => `${t} ${r.width}x${r.height}`)"""
#: tables wider than their box (they would scroll inside it)
WIDE = """() => [...document.querySelectorAll('main table')].filter(t => {
  const box = t.parentElement; return t.getBoundingClientRect().width > box.clientWidth + 1; }).map(t => t.id || t.className)"""


def three_rounds(td) -> int:
    club = Club.objects.get(slug="home")
    tid = services.tournament_create(club=club, name="Thursday", header=HEADER, user=td).body["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    services.append_events(tournament_id=tid, events=events, expected_seq=0, user=td)
    for number in (1, 2, 3):
        tournament = Tournament.objects.get(pk=tid)
        pairing = core.propose(selectors.state_at(tournament)).event()
        services.append_events(tournament_id=tid, events=[pairing], expected_seq=tournament.seq, user=td)
        for link in services.make_round_games(tournament_id=tid, round_number=number, user=td):
            game_services.append_events(game=link.game_id, events=[HAND], expected_seq=0, user=td)
            services.record_result_from_game(tournament_id=tid, round_number=number, table=link.table, user=td)
        seq = Tournament.objects.get(pk=tid).seq
        services.append_events(
            tournament_id=tid, events=[{"type": "round_closed", "round": number}], expected_seq=seq, user=td
        )
    return tid


@pytest.mark.parametrize("width", [360, 390, 430])
def test_the_standings_and_the_projector_fit_a_phone(browser, live_server, width):
    club = Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    tid = three_rounds(td)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_context(viewport={"width": width, "height": 844}, locale="en-GB").new_page()
    for name in ("standings", "projector"):
        page.goto(f"{live_server.url}/tournaments/{tid}/{name}/")
        if name == "standings":
            assert page.locator("#standings th", has_text="Perf.").is_visible(), "the column the issue names"
            assert page.locator("#crosstable a").count() == 12
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), name
        assert page.evaluate(WIDE) == [], name
        assert page.evaluate(SMALL) == [], name
        page.screenshot(path=str(SCREENSHOTS / f"phone_{name}_{width}.png"), full_page=True)
    assert not page.errors
