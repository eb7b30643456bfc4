"""Tien Zi Que's replay in headless Chromium (its table is drawn by the page's script only,
static/replay/tzq.js): a finished bot game opened at several positions and stepped with the
keyboard; at each position the stock, the discard pile, the score piles, combinations and totals
shown equal the engine's state_json; the cards have Tien Zi Que faces with text alternatives; the
combinations are named in the engine's words in each language."""

from __future__ import annotations

import pytest

from games import engine
from tests.replay.conftest import bot_record, import_game
from tests.replay.test_tzq_replay import TZQ_DOM_JS, engine_card_name, tzq_engine_view, tzq_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tzq_game(live_server):
    from games.models import Club

    club = Club.objects.create(name="TZQ", slug="tzq", visibility="public")
    return import_game(club, tzq_record())


def open_at(page, live_server, game, n: int, lang: str | None = None) -> None:
    if lang:
        page.context.set_extra_http_headers({"Accept-Language": lang})
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={n}")
    page.wait_for_selector("#replay[data-ready='1']")


def test_tzq_table_at_several_positions_matches_the_engine(page, live_server, tzq_game):
    record = tzq_record()
    n_events = len(record["events"])
    seen_piles = seen_discard = False
    for n in (0, 1, 2, 3, 8, 20, 31, n_events // 2, n_events - 1, n_events):
        open_at(page, live_server, tzq_game, n)
        expected = tzq_engine_view(record, n)
        assert page.evaluate(TZQ_DOM_JS) == expected, n
        # the panel beside the table (static/replay/panel.js) keeps the same totals
        assert page.locator("#totals .total").all_inner_texts() == [str(t) for t in expected["totals"]], n
        seen_piles |= any(expected["piles"])
        seen_discard |= bool(expected["discard"])
    assert seen_piles and seen_discard  # the positions are not all empty tables


def test_tzq_cards_have_faces_and_text_alternatives(page, live_server, tzq_game):
    open_at(page, live_server, tzq_game, 31)
    cards = page.locator("#table .card:not(.back)").evaluate_all(
        """cs => cs.map(c => ({code: c.dataset.card, cls: Array.from(c.classList), label: c.getAttribute('aria-label'),
                               role: c.getAttribute('role'), colour: (c.querySelector('.su') || {}).textContent}))"""
    )
    assert cards
    for c in cards:
        assert "unknown" not in c["cls"] and "tz" in c["cls"]
        assert c["label"] == engine_card_name(c["code"]) and c["role"] == "img"
        assert c["colour"].endswith(c["code"][-1])  # the colour letter, not only the colour


def test_tichu_page_has_no_tzq_table(page, live_server):
    from games.models import Club

    game = import_game(Club.objects.create(name="Open", slug="open"), bot_record(1))
    open_at(page, live_server, game, 10)
    assert page.locator("#tzq").count() == 0 and page.locator("#trick").count() == 1


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_tzq_combinations_are_named_in_the_engines_words(page, live_server, tzq_game, lang):
    """A combination is named as the engine names it (``event:`` and ``tzq_combination:`` terms):
    the server's markup once had words of its own for a triplet (French "brelan", where the engine
    and the script say "triplon")."""
    record = tzq_record()
    words = engine.words(lang)
    kinds = set()
    for n in (4, 20, len(record["events"])):
        open_at(page, live_server, tzq_game, n, lang)
        combos = page.locator("#tzq li.combo").evaluate_all(
            "cs => cs.map(c => [c.dataset.action, c.dataset.kind, c.querySelector('.kind').textContent])"
        )
        for action, kind, said in combos:
            assert said == f"{words.term(f'event:{action}')} · {words.term(f'tzq_combination:{kind}')}"
            assert said != f"{action} · {kind}"
            kinds.add(kind)
    assert kinds == {"triplet", "sequence"}


def test_tzq_replay_steps_match_the_engine(page, live_server, tzq_game):
    record = tzq_record()
    game = tzq_game
    n_events = len(record["events"])
    start = 28  # a few combinations made: score piles and a discard pile on the table
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={start}")
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.locator("#table .seat").count() == 2
    assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, start)  # drawn on load
    for k in range(1, 9):  # redrawn event by event
        page.keyboard.press("ArrowRight")
        assert page.evaluate(TZQ_DOM_JS) == tzq_engine_view(record, start + k)
    # the round's deal at a glance: its round_start's hands, sorted; no exchange, so no word of one
    assert page.inner_text("#deal-h") == "Round 1 as dealt"
    dealt = page.locator("#deal-glance .dealt").evaluate_all("ds => ds.map(d => d.dataset.cards.split(' '))")
    assert [sorted(h) for h in dealt] == [sorted(h) for h in record["events"][0]["hands"]]
    assert page.locator("#deal-hint").is_hidden()
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
