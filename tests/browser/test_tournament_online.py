"""Issue 34 item 6 in headless Chromium at 390 px: the TD plays a duplicate round online from the
round page (each table's seat links appear there), a player with no account opens their table's
page by its code and takes their seat (dealt the round's first board), and a signed-in player finds
their seat on their /me/ page. Screenshots in .ci/out/screenshots/tournament-online-*.png."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import tournament as core
from games.models import Club, GameSeat, Membership, Player
from games.online import services as online_services
from games.online.models import OnlineSeat, OnlineTable
from games.tournament.duplicate import board_deal
from games.tournaments import online_tables, selectors, services, table_codes
from games.tournaments.models import TableGame, Tournament
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 1}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


@pytest.fixture
def paired(live_server):
    club = Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    tid = services.tournament_create(club=club, name="Thursday", header=HEADER, user=td).body["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    services.append_events(tournament_id=tid, events=events, expected_seq=0, user=td)
    tournament = Tournament.objects.get(pk=tid)
    pairing = core.propose(selectors.state_at(tournament)).event()
    services.append_events(tournament_id=tid, events=[pairing], expected_seq=tournament.seq, user=td)
    return club, td, tournament


def signed_in(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    return context


def join_the_others(game_id: int, but: int) -> None:
    """The table's other players open their seat links (games.online.services.join)."""
    for other in OnlineSeat.objects.filter(table__game_id=game_id).exclude(seat=but):
        online_services.join(other)


def fits_a_phone(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"


def test_the_td_plays_a_round_online_and_a_player_takes_their_seat_by_the_tables_code(browser, live_server, paired):
    club, td, tournament = paired
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    director = signed_in(browser, live_server, td).new_page()
    director.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    director.click("#play-online")
    director.wait_for_selector("#online-1 .seat-link")
    assert OnlineTable.objects.count() == 2
    links = director.locator("#online-1 .seat-link")
    assert links.count() == 4
    game_id = TableGame.objects.get(tournament=tournament, round=1, table=1).game_id
    seated = list(GameSeat.objects.filter(game_id=game_id).order_by("seat").values_list("player__name", flat=True))
    assert [links.nth(i).inner_text() for i in range(4)] == seated, "the table's four players, by seat"
    assert all(links.nth(i).bounding_box()["height"] >= 44 for i in range(4)), "a thumb's target"
    fits_a_phone(director)
    director.locator("#online-1").scroll_into_view_if_needed()
    director.screenshot(path=str(SCREENSHOTS / "tournament-online-round-390.png"), full_page=True)

    code = table_codes.live_codes(tournament, [1])[1].code
    phone = browser.new_context(viewport=PHONE).new_page()  # no account: the table's code
    phone.goto(f"{live_server.url}/t/{code}/")
    phone.wait_for_selector("#online-seats .seat-link")
    seats = phone.locator("#online-seats .seat-link")
    assert seats.count() == 4
    fits_a_phone(phone)
    assert all(seats.nth(i).bounding_box()["height"] >= 44 for i in range(4))
    phone.screenshot(path=str(SCREENSHOTS / "tournament-online-code-390.png"), full_page=True)
    first = OnlineSeat.objects.select_related("player").get(table__game_id=game_id, seat=0)
    mine = phone.locator("#online-seats li[data-seat='0'] .seat-link")
    assert first.player.name in mine.inner_text()
    mine.click()
    phone.wait_for_url(f"**/online/seat/{first.secret}/")
    phone.click("#take-seat button")  # the link shows the seat; its button joins it
    join_the_others(game_id, but=0)  # the table deals its board once all four have opened their links
    phone.wait_for_selector("#hand .hand-card")
    board = board_deal(1, tournament.board_secret)
    shown = sorted(phone.locator("#hand .hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)"))
    assert shown == sorted(board[0]), "North holds board 1's North hand, as at every table"
    fits_a_phone(phone)
    phone.screenshot(path=str(SCREENSHOTS / "tournament-online-seat-390.png"), full_page=True)
    first.refresh_from_db()
    assert first.joined_at is not None

    director.reload()
    assert director.locator("#online-1 li[data-seat='0'] .badge").count() == 1, "the TD sees who has joined"


def test_a_signed_in_player_finds_their_seat_on_their_page(browser, live_server, paired):
    club, td, tournament = paired
    online_tables.publish_round(tournament_id=tournament.pk, round_number=1, user=td)
    cleo = get_user_model().objects.create_user("cleo", password="pw")
    Membership.objects.create(club=club, user=cleo, role="viewer")
    Player.objects.filter(club=club, name="Cleo").update(user=cleo)
    seat = OnlineSeat.objects.get(player__name="Cleo")
    page = signed_in(browser, live_server, cleo).new_page()
    page.goto(f"{live_server.url}/me/")
    link = page.locator("#my-online-seats a")
    assert link.count() == 1 and "Thursday" in link.inner_text()
    fits_a_phone(page)
    page.screenshot(path=str(SCREENSHOTS / "tournament-online-me-390.png"), full_page=True)
    link.click()
    page.wait_for_url(f"**/online/seat/{seat.secret}/")
    page.click("#take-seat button")
    join_the_others(seat.table.game_id, but=seat.seat)
    page.wait_for_selector("#hand .hand-card")
    response = page.goto(f"{live_server.url}/clubs/home/online/{seat.table_id}/")
    assert response.status == 404, "the table's page with every link is the TD's"
