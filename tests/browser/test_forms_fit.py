"""Issue 33, findings 5 and 7 in a browser at 390 and 1280 px: the new-tournament form shows what
applies to the choice and moves the system when individuals are chosen; withdrawing asks to
confirm; the pairing speaks a player's words first; the standings rank nobody before the first
result; the score sheet says nothing red before a field was used. Screenshots are written for a
person to look at (TICHU_SCREENSHOTS, default .ci/out/screenshots)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Club, Membership
from games.tournaments.models import TableGame, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
PLAYERS = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hanna"]


@pytest.fixture
def director(live_server):
    club = Club.objects.create(name="Home", slug="home", time_zone="Europe/Berlin")
    user = get_user_model().objects.create_user("td", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    return user


def _shot(name: str):
    from tests.plugins.browser import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return str(SCREENSHOTS / name)


def visible(page, field: str) -> bool:
    return page.is_visible(f"[data-field='{field}']")


def fits_the_width(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_new_tournament_form_fits_the_choice(open_as, director, width):
    page = open_as(director, "/clubs/home/tournaments/new/", WIDTHS[width])
    page.wait_for_selector("#tournament-form[data-fitted='1']")
    assert page.input_value("#id_system") == "swiss"
    assert not visible(page, "grand_tichu") and not visible(page, "target") and visible(page, "hands_per_round")
    assert not visible(page, "tiebreak_2"), "a 2nd tie-break applies once there is a 1st"
    page.select_option("#id_entrants", "individuals")
    assert page.input_value("#id_system") == "individual", "individuals move the system to one that fits"
    assert "it fits the entrants" in page.text_content("#form-status")
    assert page.locator("#id_system option[value='swiss']").is_disabled()
    page.screenshot(path=_shot(f"forms-new-tournament-individuals-{width}.png"), full_page=True)
    page.select_option("#id_entrants", "pairs")
    page.select_option("#id_system", "duplicate")
    assert page.input_value("#id_scoring") == "matchpoints"
    assert visible(page, "grand_tichu") and not visible(page, "length") and not visible(page, "bye_result")
    page.select_option("#id_system", "swiss")
    assert page.input_value("#id_scoring") == "round_vp" and not visible(page, "grand_tichu")
    page.select_option("#id_length", "target")
    assert visible(page, "target") and not visible(page, "hands_per_round")
    page.select_option("#id_scoring", "dtm")
    assert not visible(page, "length") and visible(page, "hands_per_round"), "DTM counts per hand"
    assert page.text_content("#form-status") == "", "no line about an earlier move"
    assert not page.is_visible("[data-field='hands_per_round'] .hint"), "the boards hint is duplicate's"
    page.select_option("#id_tiebreak_1", "points")
    assert visible(page, "tiebreak_2")
    assert fits_the_width(page)
    page.screenshot(path=_shot(f"forms-new-tournament-dtm-{width}.png"), full_page=True)
    page.fill("#id_name", "Thursday")
    page.select_option("#id_entrants", "individuals")
    page.click("#create-tournament")
    page.wait_for_selector("#register-form")
    assert Tournament.objects.get().header["system"] == "individual"
    assert not page.errors


def test_an_evening_start_withdraw_pairing_standings_and_the_score_sheet(open_as, director):
    td = open_as(director, "/clubs/home/tournaments/new/", WIDTHS["laptop"])
    td.fill("#id_name", "Thursday individuals")
    td.select_option("#id_entrants", "individuals")
    td.select_option("#id_scoring", "dtm")
    td.fill("#id_rounds", "3")
    td.click("#create-tournament")
    td.wait_for_selector("#register-form")
    tournament = Tournament.objects.get()
    td.fill("#id_names", "\n".join(PLAYERS + ["Ida"]))
    td.click("#register")
    td.wait_for_selector("#entries li:nth-child(9)")
    # before any play nobody has a rank
    ranks = td.locator("#standings tbody tr td:first-child").all_text_contents()
    assert [r.strip() for r in ranks] == ["–"] * 9 and td.is_visible("#no-ranks")
    assert td.locator("#standings-section h2").count() == 1 and td.locator("#standings caption").count() == 0
    for width, size in WIDTHS.items():
        page = open_as(director, f"/tournaments/{tournament.pk}/", size)
        assert fits_the_width(page)
        page.screenshot(path=_shot(f"forms-tournament-before-play-{width}.png"), full_page=True)
    # withdrawing asks to confirm: the first tap only opens the question
    ida = td.locator("#entries li").nth(8)
    ida.locator("summary").click()
    assert "Withdraw Ida?" in ida.text_content() and "withdrawn" not in ida.text_content().split("?")[-1]
    box = ida.locator("summary").bounding_box()
    assert box["height"] >= 24 and box["width"] >= 24
    td.screenshot(path=_shot("forms-withdraw-confirm-laptop.png"), full_page=True)
    ida.locator("button[value='withdraw']").click()
    td.wait_for_selector("text=Withdrawn.")
    assert td.locator("#entries li").nth(8).locator(".badge").text_content() == "withdrawn"
    # the pairing in a player's words; the algebra behind "details"
    for width, size in WIDTHS.items():
        pair = open_as(director, f"/tournaments/{tournament.pk}/pair/", size)
        assert "everyone partners everyone else exactly once" in pair.text_content("#explanation-plain")
        assert not pair.is_visible("text=whist design"), "the design's algebra is behind details"
        assert fits_the_width(pair)
        pair.screenshot(path=_shot(f"forms-pairing-{width}.png"), full_page=True)
    pair.click("#explanation-details summary")
    assert pair.is_visible("text=whist design")
    pair.click("#publish")
    pair.wait_for_selector("#round[data-round='1']")
    # the score sheet on a phone: nothing red before a field was used
    game = TableGame.objects.filter(tournament=tournament, round=1).order_by("table").first().game
    sheet = open_as(director, f"/games/{game.pk}/enter/", WIDTHS["phone"])
    sheet.wait_for_selector("#entry[data-ready='1']")
    if sheet.is_visible("#tab-sheet"):
        sheet.click("#tab-sheet")
    assert sheet.text_content("#hand-check").strip() == ""
    assert sheet.locator("#hand-check.bad").count() == 0
    sheet.screenshot(path=_shot("forms-score-sheet-untouched-phone.png"), full_page=True)
    sheet.check("#out-0-0")
    assert "Card points" not in sheet.text_content("#hand-check"), "the points field was not used yet"
    sheet.fill("#points-0", "60")
    sheet.wait_for_selector("#hand-check.ok")
    sheet.click("#save-hand")
    sheet.wait_for_selector("#entry[data-seq='1'][data-busy='0']", state="attached")
    assert sheet.text_content("#hand-check").strip() == "", "a saved hand leaves an empty form without a red line"
    sheet.click("#save-hand")  # Save on the empty form says what is missing
    sheet.wait_for_function("() => document.getElementById('hand-check').textContent === 'Who went out first?'")
    # DTM has no Grand Tichu: the sheet does not offer it
    assert sheet.locator("#call-0-grand_tichu").count() == 0
    assert sheet.locator("#call-0-tichu").count() == 1
    assert not sheet.errors and not td.errors
    # a table kept on paper under DTM: each hand's line and its double victory, no VP to type
    for width, size in WIDTHS.items():
        page = open_as(director, f"/tournaments/{tournament.pk}/", size)
        paper = page.locator("details.paper").first
        paper.locator("summary").click()
        assert paper.locator("input[name='vp_0']").count() == 0 and paper.locator(".hand-line").count() == 4
        assert fits_the_width(page)
        for field in paper.locator("input[type='number'], select").all():
            box = field.bounding_box()
            assert box["height"] >= 24 and box["width"] >= 24
        page.screenshot(path=_shot(f"forms-dtm-paper-lines-{width}.png"), full_page=True)
    lines = [(130, 70, ""), (0, 200, "1"), (50, 50, ""), (80, 20, "")]
    for i, (ns, ew, dv) in enumerate(lines):
        paper.locator(f"input[name='hand_{i}_0']").fill(str(ns))
        paper.locator(f"input[name='hand_{i}_1']").fill(str(ew))
        paper.locator(f"select[name='dv_{i}']").select_option(dv)
    paper.locator("button[type='submit']").click()
    page.wait_for_selector("text=recorded from paper")
    stored = tournament.events.order_by("-seq").first()
    assert stored.type == "result_recorded" and stored.payload["hands"][1] == {"points": [0, 200], "double_victory": 1}
    assert fits_the_width(page) and not page.errors
