"""The table card through the evening in headless Chromium (issue 33, items 1 and 3), at 390 and
1280 px: after the last hand the entry page leads to the result (with its VP), the phone goes to
the opponents who confirm, the page says where everyone sits once round 2 is published and opens
round 2's game at the same table with the same card (no rescan); when the director replaces the
card, the phone is told in words to scan the new one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from games.models import Club, Membership
from games.tournaments import result_sides, services, table_codes
from games.tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 1}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]
HAND = {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [70, 30]}


def evening(td):
    club = Club.objects.get(slug="home")
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
    return tid, {link.table: link.game_id for link in links}


def next_round(td, tid: int, other_game: int) -> dict[int, int]:
    """The director takes table 2's result, closes round 1 and publishes round 2."""
    game_services.append_events(game=other_game, events=[HAND], expected_seq=0, user=td)
    services.record_result_from_game(tournament_id=tid, round_number=1, table=2, user=td)
    seq = Tournament.objects.get(pk=tid).seq
    pairing = {
        "type": "round_paired",
        "round": 2,
        "tables": [{"table": 1, "sides": [["e0"], ["e2"]]}, {"table": 2, "sides": [["e1"], ["e3"]]}],
        "byes": [],
    }
    services.append_events(
        tournament_id=tid, events=[{"type": "round_closed", "round": 1}, pairing], expected_seq=seq, user=td
    )
    return {link.table: link.game_id for link in services.make_round_games(tournament_id=tid, round_number=2, user=td)}


@pytest.mark.parametrize("width", [390, 1280])
def test_the_card_leads_the_table_through_the_evening(browser, live_server, tmp_path, width):
    shots = Path(os.environ.get("TICHU_SHOTS") or tmp_path)
    Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=Club.objects.get(slug="home"), user=td, role="scorer")
    tid, games = evening(td)
    row = table_codes.live_codes(Tournament.objects.get(pk=tid))[1]
    code, (ns_pin, ew_pin) = table_codes.printed(row.code), result_sides.a_pin_per_side(row)

    phone = browser.new_context(viewport={"width": width, "height": 844}, locale="en-GB")
    table = phone.new_page()
    table.goto(f"{live_server.url}/t/{code}/")
    table.wait_for_selector("#entry[data-ready='1']")
    assert table.title().startswith("Enter · Round 1 · Table 1"), table.title()
    assert table.locator("h1").inner_text().startswith("Round 1 · Table 1")
    assert not table.locator("#game-over").is_visible()
    table.check("#out-0-0")
    table.fill("#points-0", "70")
    table.wait_for_selector("#hand-check.ok")
    table.click("#save-hand")
    table.wait_for_selector("#game-over", state="visible")  # the last hand: the way on, no rescan
    table.screenshot(path=str(shots / f"night_{width}_game_over.png"), full_page=False)
    assert table.locator("#to-result").bounding_box()["height"] >= 44
    table.click("#to-result")
    table.fill("#send-pin", ns_pin)
    table.click("#send-result")
    table.wait_for_selector("#confirm-result")
    assert "Hand the phone to your opponents." in table.locator("#answer-side").inner_text()
    assert table.locator("#result-vp").is_visible()
    table.screenshot(path=str(shots / f"night_{width}_answer.png"), full_page=True)
    table.fill("#answer-pin", ew_pin)
    table.click("#confirm-result")
    table.wait_for_selector("#next-wait")
    table.screenshot(path=str(shots / f"night_{width}_wait.png"), full_page=True)

    round2 = next_round(td, tid, games[2])
    table.click("#check-again")
    table.wait_for_selector("#next-seats")
    seats = table.locator("#next-seats").inner_text()
    assert "Anna: table 1, North" in seats and "Cleo: table 2, North" in seats, seats
    table.screenshot(path=str(shots / f"night_{width}_next_seats.png"), full_page=True)
    assert table.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    table.click("#open-next")
    table.wait_for_url(f"**/games/{round2[1]}/enter/")
    table.wait_for_selector("#entry[data-ready='1']")
    assert table.locator("h1").inner_text().startswith("Round 2 · Table 1")

    # the director replaces table 1's card while the scorer types: the phone is told what to do
    services.reissue_table_code(tournament_id=tid, round_number=2, table=1, user=td)
    table.check("#out-0-1")
    table.fill("#points-0", "40")
    table.wait_for_function("() => document.getElementById('hand-check').textContent.includes('scan the new card')")
    words = table.locator("#hand-check").inner_text()  # the engine's check already answers with the words
    assert "scan the new card on table 1" in words and "role" not in words, words
    table.click("#refresh")
    table.wait_for_selector("#alert[data-code='table_code_reissued']", state="visible")
    assert "scan the new card on table 1" in table.locator("#alert-text").inner_text()
    table.screenshot(path=str(shots / f"night_{width}_replaced.png"), full_page=False)
    table.reload()
    assert "scan the new card on table 1" in table.locator("#code-ended").inner_text()
    assert table.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    phone.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_seat_list_on_the_projector_and_in_print(browser, live_server, tmp_path, width):
    shots = Path(os.environ.get("TICHU_SHOTS") or tmp_path)
    Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=Club.objects.get(slug="home"), user=td, role="scorer")
    tid, _games = evening(td)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tid}/projector/")
    assert page.locator("#seats li").count() == 8
    assert "Anna" in page.locator("#seats li").nth(0).inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    main = page.locator("main").bounding_box()
    assert main["width"] >= width * 0.9, "the projector fills the screen"
    page.screenshot(path=str(shots / f"projector_{width}.png"), full_page=True)
    page.goto(f"{live_server.url}/tournaments/{tid}/rounds/1/pairings/")
    assert page.locator("#by-name tbody tr").count() == 8
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / f"seats_print_{width}.png"), full_page=True)
    context.close()
