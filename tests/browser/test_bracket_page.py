"""The bracket's page in headless Chromium at phone (390 px) and projector (1280 px) widths: an
eight-entry bracket with its consolation bracket, half played; on a phone the rounds stacked, on a
projector side by side; nothing wider than the screen, every control at least 24 px and the TD's
result controls a thumb's size (44 px). A result recorded by the form's button. Screenshots in
.ci/out/screenshots/bracket-390.png, bracket-1280.png and bracket-print-1280.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.brackets.test_brackets import append, new_bracket, seed
from tests.browser.target_sizes import problems
from tests.browser.test_phone_layout import check_fits
from tests.conftest import client_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots"
TEAMS = [
    ("The long-named Tuesday regulars", ["Anastasia Konstantinopoulou", "Bartholomew Featherstonehaugh"]),
    ("Blue", ["Cy", "Di"]),
    ("Red", ["Ed", "Flo"]),
    ("Green", ["Gil", "Hal"]),
    ("Gold", ["Ian", "Jo"]),
    ("Silver", ["Kai", "Lu"]),
    ("Iron", ["Mo", "Ned"]),
    ("Tin", ["Oz", "Pia"]),
]


@pytest.mark.parametrize("width", [390, 1280])
def test_the_bracket_page_fits(open_as, club, scorer, width):
    api = client_for(scorer)
    bid = new_bracket(api, {"best_of": 3, "consolation": True})
    entries = [{"entry": str(i), "name": n, "players": p} for i, (n, p) in enumerate(TEAMS, start=1)]
    assert seed(api, bid, {"expected_seq": 0, "by": "hand", "entries": entries}).status_code == 201
    results = [
        {"type": "match_result", "match": f"W1-{k}", "games": [[600, 400], [300, 700], [1000, 0]]} for k in (1, 2, 3)
    ]
    assert append(api, bid, results, 1).status_code == 201
    page = open_as(scorer, f"/clubs/{club.slug}/brackets/{bid}/", viewport={"width": width, "height": 900})
    # the last first-round match, recorded by the TD's form
    page.locator("#match-W1-4 summary").click()
    form = page.locator("#match-W1-4 form")
    form.locator("input[name=games]").fill("100-900, 200-800")
    form.locator("button").click()
    page.wait_for_selector("#bracket-consolation")
    for summary in page.locator("#bracket-consolation .match-form summary").all():
        summary.click()  # the TD's open forms measured too
    check_fits(page, f"bracket page, {width} px")
    assert problems(page) == []
    for control in page.locator(
        ".match-form summary, .match-form input:not([type=hidden]), .match-form select, .match-form button"
    ).all():
        if control.is_visible():
            box = control.bounding_box()
            assert box and box["height"] >= 44, "a scorer's thumb"
    rounds = page.locator("#bracket-main .bracket-round")
    assert rounds.count() == 3
    first, second = rounds.nth(0).bounding_box(), rounds.nth(1).bounding_box()
    if width == 390:
        assert second["y"] >= first["y"] + first["height"] - 1, "stacked on a phone"
    else:
        assert second["x"] >= first["x"] + first["width"] - 1 and abs(second["y"] - first["y"]) < 2, "side by side"
        assert page.locator("#bracket-main .bracket-rounds").evaluate("e => e.scrollWidth <= e.clientWidth"), (
            "three rounds fit a projector without scrolling"
        )
    assert "Silver" in page.locator("#match-W2-2").inner_text(), "the recorded winner (seed 6 over 3) moved on"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"bracket-{width}.png"), full_page=True)
    if width == 1280:
        page.goto(page.url.split("?")[0] + "?print=1")
        page.emulate_media(media="print")
        assert page.locator(".match-form").count() == 0 and not page.locator("header").first.is_visible()
        page.screenshot(path=str(SHOTS / "bracket-print-1280.png"), full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_tds_forms_to_create_and_seed_fit(open_as, club, scorer, width):
    """The club's tournaments page with its new-bracket form, then a new bracket's seed form, used
    by their buttons: nothing wider than the screen, no control under 24 px."""
    page = open_as(scorer, f"/clubs/{club.slug}/tournaments/", viewport={"width": width, "height": 900})
    check_fits(page, f"tournaments page, {width} px")
    assert problems(page) == []
    form = page.locator("#new-bracket")
    form.locator("input[name=name]").fill("Spring cup")
    form.locator("select[name=best_of]").select_option("3")
    form.locator("input[name=consolation]").check()
    form.locator("button").click()
    page.wait_for_selector("#seed-form")
    check_fits(page, f"seed form, {width} px")
    assert problems(page) == []
    page.locator("#seed-form textarea").fill("Ada & Bo: Ada, Bo\nCy, Di\nEd, Flo")
    page.locator("#seed-form button").click()
    page.wait_for_selector("#match-W1-2")
    assert page.locator("#not-seeded").count() == 0
    assert "Ada & Bo" in page.locator("#match-W1-1").inner_text() and "bye" in page.locator("#match-W1-1").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"bracket-seeded-{width}.png"), full_page=True)
