"""Tien Zi Que's replay in headless Chromium: a finished bot game, stepped with the keyboard (the
script's rendering); at every position the stock, the discard pile, the score piles, combinations
and totals shown equal the engine's state_json, as does the server's page at a deep link."""

from __future__ import annotations

import pytest

from tests.replay.conftest import import_game
from tests.replay.test_tzq_replay import TZQ_DOM_JS, tzq_engine_view, tzq_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_tzq_replay_steps_match_the_engine(page, live_server):
    from games.models import Club

    club = Club.objects.create(name="TZQ", slug="tzq", visibility="public")
    record = tzq_record()
    game = import_game(club, record)
    n_events = len(record["events"])
    start = 28  # a few combinations made: score piles and a discard pile on the table
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={start}")
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.locator("#table .seat").count() == 2
    assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, start)  # the server's markup
    for k in range(1, 9):  # the script's markup, event by event
        page.keyboard.press("ArrowRight")
        assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, start + k)
    labels = page.locator("#tzq .pile .card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert labels and all(label and "(" in label for label in labels)  # "7 of coins (red)"
    page.screenshot(path=".ci/out/replay-tien-zi-que.png", full_page=True)
    page.keyboard.press("PageDown")  # the next round: a fresh table
    at = int(page.locator("#table").get_attribute("data-at"))
    assert at > start + 8
    assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, at)
    for k in range(1, 4):
        page.keyboard.press("ArrowRight")
        assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, at + k)
    page.keyboard.press("End")
    assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, n_events)
