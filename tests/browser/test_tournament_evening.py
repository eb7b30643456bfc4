"""A whole club evening run from the tournament director's pages in headless Chromium: eight
individuals, three rounds of four hands (DTM), each table's hands entered on a phone from the
score sheet of its game, results taken from the games, rounds closed; the standings on the page
are the core's fold of what was stored."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import tournament as core
from games.models import Club, Event, Game, Membership
from games.tournaments import selectors
from games.tournaments.models import TableGame, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
PLAYERS = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hanna"]
# The hand lines of each table, North/South card points first; hand 3 of table 2 is a double victory.
SCORING = "dtm"
HANDS = {1: [60, 35, 75, 50], 2: [20, 55, None, 100]}


@pytest.fixture
def director(live_server):
    club = Club.objects.create(name="Home", slug="home", time_zone="Europe/Berlin")
    user = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    return user


def enter_table(page, hands: list[int | None]) -> None:
    """Four score-sheet lines on the table's entry page: seat 0 out first; a None is a double
    victory of North/South."""
    page.wait_for_selector("#entry[data-ready='1']")
    for n, points in enumerate(hands, 1):
        page.check("#out-0-0")
        if points is None:
            page.check("#double-victory")
        else:
            page.fill("#points-0", str(points))
        page.wait_for_selector("#hand-check.ok")
        page.click("#save-hand")
        page.wait_for_selector(f"#entry[data-seq='{n}'][data-busy='0']", state="attached")
        if points is None:
            page.uncheck("#double-victory")


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_an_evening_of_eight_individuals(open_as, director, live_server):
    td = open_as(director, "/clubs/home/", LAPTOP)
    td.click("#tournaments-link")
    td.click("#new-tournament")
    td.fill("#id_name", "Thursday individuals")
    td.select_option("#id_entrants", "individuals")
    td.select_option("#id_system", "individual")
    td.select_option("#id_scoring", SCORING)
    td.fill("#id_rounds", "3")
    td.fill("#id_hands_per_round", "4")
    td.click("#create-tournament")
    td.wait_for_selector("#register-form")
    tournament = Tournament.objects.get()
    td.fill("#id_names", "\n".join(PLAYERS))
    td.click("#register")
    td.wait_for_selector("#entries li:nth-child(8)")

    for round_number in (1, 2, 3):
        td.click("#pair-next")
        td.wait_for_selector("#explanation")
        assert "repeated partners: 0" in td.text_content("#explanation")
        td.click("#publish")
        td.wait_for_selector(f"#round[data-round='{round_number}']")
        links = {link.table: link.game for link in TableGame.objects.filter(tournament=tournament, round=round_number)}
        assert sorted(links) == [1, 2]
        for table, game in links.items():  # each table's scorer, on a phone
            scorer_page = open_as(director, f"/games/{game.pk}/enter/", PHONE)
            enter_table(scorer_page, HANDS[table])
            assert not scorer_page.errors
            assert Game.objects.get(pk=game.pk).status == "finished"
            scorer_page.context.close()
        td.reload()
        assert td.locator(".table-card[data-status='finished']").count() == 2
        td.click("#take-results")
        td.wait_for_selector(".table-card[data-status='result'] >> nth=1")
        td.click("#close-round")
        td.wait_for_selector(f"text=Round {round_number} closed.")

    td.click("#finish")
    td.wait_for_selector("text=final standings")
    record = selectors.record(tournament)
    expected = core.standings_json(core.fold(record))["standings"]
    rows = td.locator("#standings tbody tr")
    assert rows.count() == 8
    shown = [
        (rows.nth(i).get_attribute("data-entry"), rows.nth(i).locator("td.vp").text_content().strip()) for i in range(8)
    ]
    assert shown == [(line["entry"], f"{line['vp']:g}") for line in expected]
    # every partner pairing happened at most once (a whist design for eight players)
    partners = set()
    for event in record["events"]:
        if event["type"] == "round_paired":
            for t in event["tables"]:
                for side in t["sides"]:
                    pair = frozenset(side)
                    assert pair not in partners
                    partners.add(pair)
    # the hands behind each result: the crosstable links to the games' replays
    assert td.locator("#crosstable a[href$='/replay/']").count() == 8 * 3
    assert Event.objects.filter(game__tournament_table__tournament=tournament).count() == 2 * 3 * 4
    td.screenshot(path=str(_shot("tournament-laptop.png")), full_page=True)

    phone = open_as(director, f"/tournaments/{tournament.pk}/", PHONE)
    assert no_horizontal_scroll(phone)
    # the start at the club's clock, and the page says which clock (replay/templatetags/club_clock.py)
    started = phone.get_attribute("#summary time", "datetime")
    assert started.endswith(("+01:00", "+02:00")), started
    assert phone.text_content("#clock-note").strip() == "Times on this page are Europe/Berlin time."
    phone.screenshot(path=str(_shot("tournament-phone.png")), full_page=True)
    standings = open_as(director, f"/tournaments/{tournament.pk}/standings/?round=1", PHONE)
    assert "after round 1" in standings.text_content("#standings-heading")  # the table is labelled by it
    assert no_horizontal_scroll(standings)
    projector = open_as(director, f"/tournaments/{tournament.pk}/projector/", LAPTOP)
    assert projector.locator("meta[http-equiv='refresh']").count() == 1
    assert not td.errors


def _shot(name: str):
    from tests.plugins.browser import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name
