"""Duplicate Tichu and the print-ready pages in headless Chromium, at a phone's and a laptop's
width: the TD creates a duplicate tournament from the form (Grand Tichu off), reads the movement,
enters two tables' board scores on paper and sees each board's matchpoints; the pairings and
score-sheet pages print without the site around them (print media, and Chromium's own PDF read
back). Screenshots go to /tmp/tnight/ when that folder exists, else the test's tmp_path."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from games.models import Club, Membership
from games.tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def director(live_server):
    club = Club.objects.create(name="Home", slug="home")
    td = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=td, role="scorer")
    return td


def shots(tmp_path) -> Path:
    folder = Path("/tmp/tnight")
    return folder if folder.is_dir() else tmp_path


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_duplicate_round_from_the_form_to_the_boards_matchpoints(open_as, director, live_server, tmp_path, viewport):
    page = open_as(director, "/clubs/home/tournaments/new/", viewport)
    page.fill("#id_name", "Duplicate night")
    page.select_option("#id_system", "duplicate")
    page.select_option("#id_scoring", "matchpoints")
    page.fill("#id_hands_per_round", "2")
    page.fill("#id_rounds", "")
    page.click("#create-tournament")
    page.wait_for_selector("#register-form")
    tournament = Tournament.objects.get(name="Duplicate night")
    assert tournament.header["grand_tichu"] is False and tournament.board_secret
    page.fill("#register-form textarea", "Anna & Ben\nCleo & Dan\nEva & Finn\nGus & Hanna")
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#duplicate-link")
    with page.expect_navigation():
        page.click("#duplicate-link")
    assert page.locator("table.movement").count() == 3
    assert "boards 1–2" in page.locator("table.movement").first.inner_text()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots(tmp_path) / f"duplicate_movement_{viewport['width']}.png"), full_page=True)
    # pair round 1 from the movement, then two paper results
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/pair/")
    page.click("#publish")
    page.wait_for_selector("#round[data-round='1']")
    for table, lines in ((1, ((100, 0), (20, 80))), (2, ((50, 50), (20, 80)))):
        card = page.locator(f".table-card[data-table='{table}']")
        card.locator("details.paper summary").click()
        for i, (a, b) in enumerate(lines):
            card.locator("details.paper input[type=number]").nth(2 * i).fill(str(a))
            card.locator("details.paper input[type=number]").nth(2 * i + 1).fill(str(b))
        card.locator("details.paper button[type=submit]").click()
        page.wait_for_selector(f".table-card[data-table='{table}'][data-status='result']")
    with page.expect_navigation():
        page.click("#duplicate-link")
    board1 = page.locator("table.board[data-board='1'] tbody tr")
    assert board1.count() == 2
    mps = sorted(tuple(c.inner_text() for c in row.locator("td.mp").all()) for row in board1.all())
    assert mps == [("0", "1"), ("1", "0")]
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots(tmp_path) / f"duplicate_boards_{viewport['width']}.png"), full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_print_pages_print_without_the_site(open_as, director, live_server, tmp_path, viewport):
    from games.tournaments import services

    tid = services.tournament_create(
        club=Club.objects.get(slug="home"),
        name="Thursday",
        user=director,
        header={"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 4},
    ).body["id"]
    events = [
        {"type": "entry_registered", "entry": f"e{i}", "players": p}
        for i, p in enumerate([["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"], ["Ida", "Jo"]])
    ]
    services.append_events(tournament_id=tid, events=events, expected_seq=0, user=director)
    pairing = {
        "type": "round_paired",
        "round": 1,
        "byes": ["e4"],
        "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
    }
    services.append_events(tournament_id=tid, events=[pairing], expected_seq=5, user=director)
    page = open_as(director, f"/tournaments/{tid}/", viewport)
    with page.expect_navigation():
        page.click("#print-pairings")
    assert page.locator("#by-table tbody tr").count() == 2
    # seats by name (issue 33): every player, the seated ones with their table and seat, the bye's too
    by_name = {row.locator("td").first.inner_text(): row for row in page.locator("#by-name tbody tr").all()}
    assert len(by_name) == 10 and {"Anna", "Ben", "Ida", "Jo"} <= set(by_name)
    assert by_name["Anna"].locator("td").nth(1).inner_text() == "1"
    assert "Bye: Ida & Jo" in page.locator("#byes").inner_text()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots(tmp_path) / f"print_pairings_{viewport['width']}.png"), full_page=True)
    page.emulate_media(media="print")
    assert not page.locator("header").first.is_visible() if page.locator("header").count() else True
    assert not page.locator(".no-print").first.is_visible()
    page.emulate_media(media="screen")
    page.goto(f"{live_server.url}/tournaments/{tid}/rounds/1/sheets/")
    sheet = page.locator(".sheet[data-table='1']")
    assert [c.inner_text() for c in sheet.locator(".hand-no").all()] == ["1", "2", "3", "4"]
    assert sheet.locator("th.check").inner_text() == "Check = 100"
    assert no_horizontal_scroll(page), "the wide sheet scrolls inside its own box on a phone"
    page.screenshot(path=str(shots(tmp_path) / f"print_sheets_{viewport['width']}.png"), full_page=True)
    if viewport is LAPTOP:  # Chromium's own print of the page: one sheet a page, text read back
        page.emulate_media(media="print")
        pdf = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
        texts = [p.extract_text() for p in pdf.pages]
        assert len(texts) == 2, "one page a table"
        assert "table 1" in texts[0] and "Check = 100" in texts[0] and "table 2" in texts[1]
        assert "Sign in" not in texts[0] and "Tournaments" not in texts[0].split("score sheet")[0]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_a_dtm_sheet_prints_dtms_rules_and_a_vp_column(open_as, director, live_server, tmp_path, viewport):
    """Issue 31 item 4: a DTM sheet says a double victory scores 100, has no Grand Tichu, says how
    VP are counted per hand and has a VP column per side; it still fits a phone (it scrolls in its box)."""
    from games.tournaments import services

    tid = services.tournament_create(
        club=Club.objects.get(slug="home"),
        name="DTM night",
        user=director,
        header={"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 2},
    ).body["id"]
    events = [
        {"type": "entry_registered", "entry": f"e{i}", "players": p}
        for i, p in enumerate([["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]])
    ]
    services.append_events(tournament_id=tid, events=events, expected_seq=0, user=director)
    pairing = {
        "type": "round_paired",
        "round": 1,
        "byes": [],
        "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
    }
    services.append_events(tournament_id=tid, events=[pairing], expected_seq=4, user=director)
    page = open_as(director, f"/tournaments/{tid}/rounds/1/sheets/", viewport)
    sheet = page.locator(".sheet[data-table='1']")
    heads = [h.inner_text() for h in sheet.locator("thead th").all()]
    assert heads[-2:] == ["VP N/S", "VP E/W"]
    rules = sheet.locator("p.hint").inner_text()
    assert "a double victory scores 100" in rules and "no Grand Tichu" in rules and "VP per hand" in rules
    assert "Grand Tichu ±200" not in rules
    assert no_horizontal_scroll(page), "the wide sheet scrolls inside its own box on a phone"
    page.screenshot(path=str(shots(tmp_path) / f"print_sheets_dtm_{viewport['width']}.png"), full_page=True)
