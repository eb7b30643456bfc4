"""A whole tournament evening at a phone's width, in headless Chromium (issue 33, items 6 and 9).

The director, on a 390 px phone, creates the tournament (four fixed pairs, Swiss, DTM, two rounds
of one hand: the smallest evening with a second round), registers the entries, publishes round 1
and opens round 1's table cards. Each table's phone opens its round-1 card's code, and only that:
it enters the hand from the score sheet, sends the result, hands the phone to the opponents who
confirm, and once round 2 is published the same page leads on to round 2's game at that table; no
rescan. After round 2 the director finishes, and the tables' pages say so.

Every page of the evening is measured on the way (tests/browser/target_sizes.py: no sideways
scroll, every target 24 x 24 px or spaced, the scorer's controls 44 x 44) and shot at 390 and
1280 px under the screenshots directory (.ci/out/screenshots/evening/, or $TICHU_SHOTS).
A second test counts the taps of a Tichu hand from the score sheet: at most 4 plus its digits."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import tournament as core
from games.models import Club, Game, Membership
from games.tournaments import selectors, table_codes
from games.tournaments.models import TableGame, Tournament
from tests.browser.target_sizes import problems
from tests.plugins.browser import SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
PAIRS = ["Anna & Ben", "Cleo & Dan", "Eva & Finn", "Gus & Hanna"]
# each round's one hand at each table: (who went out first, North/South card points)
HANDS = {1: {1: (0, 70), 2: (1, 45)}, 2: {1: (2, 60), 2: (3, 35)}}


@pytest.fixture
def director(live_server):
    club = Club.objects.create(name="Home", slug="home", time_zone="Europe/Berlin")
    user = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    return user


class Evening:
    """The pages visited, each measured and shot at both widths."""

    def __init__(self) -> None:
        self.shots = Path(os.environ.get("TICHU_SHOTS") or SCREENSHOTS / "evening")
        self.shots.mkdir(parents=True, exist_ok=True)
        self.found: dict[str, list[str]] = {}

    def visit(self, page, name: str, *, scorer: bool = False) -> None:
        page.wait_for_load_state("load")
        self.found[name] = problems(page, scorer=scorer)
        page.screenshot(path=str(self.shots / f"{name}_390.png"), full_page=True)
        page.set_viewport_size(LAPTOP)
        page.screenshot(path=str(self.shots / f"{name}_1280.png"), full_page=True)
        page.set_viewport_size(PHONE)

    def failures(self) -> dict[str, list[str]]:
        failed = {name: found for name, found in self.found.items() if found}
        (self.shots / "target_sizes.json").write_text(json.dumps(failed, indent=1, ensure_ascii=False))
        return failed


def play_the_table(phone, evening: Evening, round_number: int, table: int, pins: tuple[str, str]) -> None:
    """The table's one hand from the score sheet, its result sent and confirmed on the same phone."""
    first, points = HANDS[round_number][table]
    phone.wait_for_selector("#entry[data-ready='1']")
    assert phone.locator("h1").inner_text().startswith(f"Round {round_number} · Table {table}")
    if table == 1:
        evening.visit(phone, f"r{round_number}_entry", scorer=True)
    phone.check(f"#out-0-{first}")
    phone.fill("#points-0", str(points))
    phone.wait_for_selector("#hand-check.ok")
    phone.click("#save-hand")
    phone.wait_for_selector("#game-over", state="visible")
    if table == 1:
        evening.visit(phone, f"r{round_number}_game_over", scorer=True)
    phone.click("#to-result")
    phone.wait_for_selector("#send-result")
    if table == 1:
        evening.visit(phone, f"r{round_number}_send", scorer=True)
    phone.fill("#send-pin", pins[0])
    phone.click("#send-result")
    phone.wait_for_selector("#confirm-result")
    assert "Hand the phone to your opponents." in phone.locator("#answer-side").inner_text()
    if table == 1:
        evening.visit(phone, f"r{round_number}_confirm", scorer=True)
    phone.fill("#answer-pin", pins[1])
    phone.click("#confirm-result")
    phone.wait_for_selector("#lead-on")
    if table == 1:
        evening.visit(phone, f"r{round_number}_done")


def test_a_whole_evening_at_390_px_with_round_1_cards_only(browser, open_as, director, live_server):
    evening = Evening()
    td = open_as(director, "/clubs/home/", PHONE)
    td.click("#tournaments-link")
    td.click("#new-tournament")
    evening.visit(td, "new_tournament")
    td.fill("#id_name", "Thursday")
    td.select_option("#id_entrants", "pairs")
    td.select_option("#id_system", "swiss")
    td.select_option("#id_scoring", "dtm")
    td.fill("#id_rounds", "2")
    td.fill("#id_hands_per_round", "1")
    td.click("#create-tournament")
    td.wait_for_selector("#register-form")
    tournament = Tournament.objects.get()
    td.fill("#id_names", "\n".join(PAIRS))
    td.click("#register")
    td.wait_for_selector("#entries li:nth-child(4)")
    evening.visit(td, "entries")

    td.click("#pair-next")
    td.wait_for_selector("#explanation")
    evening.visit(td, "pair_round_1")
    td.click("#publish")
    td.wait_for_selector("#round[data-round='1']")
    evening.visit(td, "round_1")
    td.click("#table-cards")
    evening.visit(td, "table_cards_round_1")
    # the round-1 cards (each table's code) and each pair's slip (its PIN for the evening, issue
    # 33), read from the printed page: the only things the phones and the players are given
    slips = {}
    for text in td.locator("#pin-slips .pin-slip").all_inner_texts():
        name, pin = text.split(": your PIN for the evening")
        slips[name.strip()] = pin.strip()
    assert len(slips) == 4 and len(set(slips.values())) == 4, slips
    for path, name in (("pairings", "print_pairings"), ("sheets", "print_sheets")):
        td.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/{path}/")
        evening.visit(td, name)

    cards = {number: table_codes.printed(row.code) for number, row in table_codes.live_codes(tournament).items()}
    assert sorted(cards) == [1, 2]

    def pins(round_number: int, table: int) -> tuple[str, str]:
        """The PIN of the pair at each side of the table this round: the pairs change tables."""
        state = selectors.state_at(Tournament.objects.get(pk=tournament.pk))
        sides = selectors.round_of(state, round_number).tables[table].sides
        return slips[state.entries[sides[0][0]].name], slips[state.entries[sides[1][0]].name]

    phones = {}
    for table, code in cards.items():
        phones[table] = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        phones[table].goto(f"{live_server.url}/t/{code}/")
        play_the_table(phones[table], evening, 1, table, pins(1, table))
        assert phones[table].locator("#next-wait").is_visible(), "round 2 is not published yet: the page says so"

    td.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    assert td.locator(".table-card[data-status='result']").count() == 2
    td.click("#close-round")
    td.wait_for_selector("text=Round 1 closed.")
    evening.visit(td, "round_1_closed")
    td.click("#pair-next")
    td.click("#publish")
    td.wait_for_selector("#round[data-round='2']")

    for table in cards:  # the same page leads on: no rescan
        phone = phones[table]
        phone.click("#check-again")
        phone.wait_for_selector("#next-seats")
        if table == 1:
            evening.visit(phone, "r1_next_seats")
        phone.click("#open-next")
        play_the_table(phone, evening, 2, table, pins(2, table))
        assert phone.locator("#last-round").is_visible(), "the last round: nothing more to wait for"

    td.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    td.click("#close-round")
    td.wait_for_selector("text=Round 2 closed.")
    td.click("#finish")
    td.wait_for_selector("text=final standings")
    evening.visit(td, "finished")
    for path, name in (("standings/", "standings"), ("projector/", "projector"), ("results/", "results")):
        td.goto(f"{live_server.url}/tournaments/{tournament.pk}/{path}")
        evening.visit(td, name)
    phones[1].reload()  # the card has done its work: the phone is told so, in words
    assert "The tournament has finished" in phones[1].locator("#code-ended").inner_text()
    evening.visit(phones[1], "card_after_the_end", scorer=True)

    # the evening's numbers: four games of one hand, standings the core's fold of what was stored
    assert Game.objects.filter(tournament_table__tournament=tournament, status="finished").count() == 4
    assert TableGame.objects.filter(tournament=tournament).count() == 4
    expected = core.standings_json(core.fold(selectors.record(tournament)))["standings"]
    td.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    shown = [row.get_attribute("data-entry") for row in td.locator("#standings tbody tr").all()]
    assert shown == [line["entry"] for line in expected]
    assert evening.failures() == {}
    for page in [td, *phones.values()]:
        assert not page.errors


def test_a_tichu_hand_from_the_score_sheet_takes_4_taps_and_its_digits(browser, director, live_server):
    """Tichu by Anna (1 tap), Anna out first (1), the points field (1) and its digits, Save (1)."""
    from games.tournaments import services

    club = Club.objects.get(slug="home")
    header = {"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 1, "hands_per_round": 1}
    tid = services.tournament_create(club=club, name="Taps", header=header, user=director).body["id"]
    events = [{"type": "entry_registered", "entry": f"e{i}", "players": p.split(" & ")} for i, p in enumerate(PAIRS)]
    pairing = {
        "type": "round_paired",
        "round": 1,
        "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
        "byes": [],
    }
    services.append_events(tournament_id=tid, events=[*events, pairing], expected_seq=0, user=director)
    link = services.make_round_games(tournament_id=tid, round_number=1, user=director)[0]
    code = table_codes.printed(table_codes.live_codes(Tournament.objects.get(pk=tid))[link.table].code)
    phone = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server.url}/t/{code}/")
    phone.wait_for_selector("#entry[data-ready='1']")
    taps = 0

    def tap(selector: str) -> None:
        nonlocal taps
        box = phone.locator(selector).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (selector, box)
        phone.tap(selector)
        taps += 1

    tap("#call-0-tichu")
    tap("#out-0-0")
    tap("#points-0")
    phone.keyboard.type("70")
    phone.wait_for_selector("#hand-check.ok")
    tap("#save-hand")
    phone.wait_for_selector("#game-over", state="visible")
    assert taps <= 4
    stored = list(Game.objects.get(pk=link.game_id).events.order_by("seq").values_list("payload", flat=True))
    assert stored[-1]["calls"] == {"0": "tichu"} and stored[-1]["out"][0] == 0 and stored[-1]["points"] == [70, 30]
    assert not phone.errors
