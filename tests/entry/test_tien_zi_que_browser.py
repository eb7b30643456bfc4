"""Tien Zi Que's entry page in headless Chromium, on a phone (390 px) and a laptop (1280 px): a
whole game entered by score lines (taps and a number; a refusal beside its field), a round entered
action by action up to its Mah-jong with only the engine's legal actions offered, and a 409 in
either mode (the stale control disabled until "Enter again"). Every stored event is folded by the
engine and compared with what the page shows. Screenshots go to $TZQ_SHOTS when it is set."""

from __future__ import annotations

import os
import random
import re

import pytest
from django.contrib.auth import get_user_model

from games import engine
from games.models import Club, Event, Game, Membership
from games.services import append_events, game_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob"]
WIDTHS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}
SHOTS = os.environ.get("TZQ_SHOTS")


@pytest.fixture
def club(live_server):
    club = Club.objects.create(name="Home", slug="home")
    for name in ("scorer", "other"):
        user = get_user_model().objects.create_user(name, password="pw")
        Membership.objects.create(club=club, user=user, role="scorer")
    return club


def user(name="scorer"):
    return get_user_model().objects.get(username=name)


def new_game(club, options):
    body = game_create(club=club, variant="tien-zi-que", options=options, players=PLAYERS, user=user()).body
    return Game.objects.get(pk=body["id"])


def stored(game) -> list[dict]:
    return [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq")]


def folded(game):
    game.refresh_from_db()
    return engine.fold({"variant": "tien-zi-que", "players": PLAYERS, "options": game.options, "events": stored(game)})


def open_entry(open_as, game, viewport, path="", live=True):
    page = open_as(user(), f"/games/{game.pk}/enter/{path}", viewport)
    if not live:  # no long poll (see test_a_whole_game_by_score_lines): blocked, then the page loaded afresh
        page.route(re.compile(r".*/events/\?after=.*"), lambda route: route.abort())
        page.reload()
    page.wait_for_selector("#tzq-entry[data-ready='1']")
    return page


def shot(page, name, full=False):
    """A screenshot for a person to look at. Full-page ones only where no tap follows: in this
    Chromium a tap right after one was seen to be lost."""
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=full)


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth") + 1


@pytest.mark.parametrize("width", WIDTHS)
def test_a_whole_game_by_score_lines(open_as, club, width):
    game = new_game(club, {"rounds": 2})
    # Live following has its own test below (one append from elsewhere); this page's own many
    # writes are checked without a long poll beside them.
    page = open_entry(open_as, game, WIDTHS[width], live=False)
    assert page.is_visible("#round-form") and not page.is_visible("#actions")
    # a line the engine refuses: its code in words beside the points, nothing stored
    page.click("#f-seat label:has-text('Ann')")
    page.click("#f-winner label:has-text('Bob')")
    page.click("#f-by label:has-text('Chow')")
    page.fill("#points", "19")
    page.click("#save-round")
    page.wait_for_selector("#err-points[data-code='result_invalid']")  # the code for tools, the reason in words
    assert "no score pile won by a Chow scores 19" in page.inner_text("#err-points")
    assert "result_invalid" not in page.inner_text("#err-points")  # a scorer reads words, not codes
    assert stored(game) == []
    shot(page, f"tzq-line-refused-{width}")
    # the same line with the score pile instead: the engine counts the book's example, +9
    page.fill("#points", "")
    for card in ("Ew", "Eb", "Jk", "Jk", "Jk", "Jk", "C1w"):  # taps; the picker stops at five cards
        page.click(f"[data-pile-card='{card}']")
    page.click("#pile-back")
    page.click("[data-pile-card='Jk']")
    assert page.input_value("#score-pile") == "Ew Eb Jk Jk Jk"
    page.click("#save-round")
    page.wait_for_selector("#status:has-text('Round 1 is over')")
    assert "Round 1 is over: Bob +9 (Mah-jong by a Chow); totals Ann 0, Bob 9." in page.inner_text("#status")
    assert stored(game) == [
        {"type": "round_result", "seat": 0, "winner": 1, "by": "chow", "score_pile": ["Ew", "Eb", "Jk", "Jk", "Jk"]}
    ]
    # round 2: Bob starts (the engine's only starter: already chosen), Ann wins by a Pung for 13
    page.wait_for_selector("#tzq-entry[data-ready='1']")
    assert page.is_checked("#f-seat input[value='1']") and page.is_disabled("#f-seat input[value='0']")
    page.click("#f-winner label:has-text('Ann')")
    page.click("#f-by label:has-text('Pung')")
    page.fill("#points", "13")
    no_sideways_scroll(page)
    shot(page, f"tzq-line-round2-{width}")
    page.click("#save-round")
    # the last round finishes the game: the ratings are updated in the same request here (eager tasks)
    page.wait_for_selector("#status:has-text('Game over')", timeout=30_000)
    state = engine.score_json(folded(game))
    assert state["totals"] == [13, 9] and state["complete"] and state["winner"] == 0
    assert page.inner_text("#total-0") == "13" and page.inner_text("#total-1") == "9"
    assert (
        "Round 2 is over: Ann +13 (Mah-jong by a Pung); totals Ann 13, Bob 9. Game over: Ann wins."
        in page.inner_text("#status")
    )
    no_sideways_scroll(page)
    shot(page, f"tzq-line-over-{width}", full=True)


def test_a_stale_score_line_is_not_saved_until_entered_again(open_as, club):
    game = new_game(club, {"rounds": 4})
    page = open_entry(open_as, game, WIDTHS["phone"])
    page.click("#f-seat label:has-text('Ann')")
    page.click("#f-winner label:has-text('Ann')")
    page.click("#f-by label:has-text('Chow')")
    page.fill("#points", "5")
    append_events(
        game=game,
        events=[{"type": "round_result", "seat": 0, "winner": 1, "by": "pung", "points": 4}],
        expected_seq=0,
        user=user("other"),
    )
    page.wait_for_selector("#status:has-text('Another scorer entered up to #1')")  # live, no reload
    page.click("#save-round")
    page.wait_for_selector("#line-stale")
    assert page.is_disabled("#save-round") and page.is_visible("#bar-stale")
    page.wait_for_selector("#tzq-entry[data-ready='1']")
    assert page.is_disabled("#undo")  # no write of any kind until "Enter again"
    shot(page, "tzq-line-409-phone")
    assert len(stored(game)) == 1
    page.click("#stale-ack-line")
    page.wait_for_selector("#save-round:not([disabled])")
    assert page.input_value("#points") == "5"
    # round 2 is Bob's to start: the line as kept named Ann, so the page says so and picks Bob
    assert "started by Bob" in page.inner_text("#err-seat")
    assert page.is_checked("#f-seat input[value='1']")
    page.click("#save-round")
    page.wait_for_selector("#status:has-text('Round 2 is over: Ann +5')")
    assert engine.score_json(folded(game))["totals"] == [5, 4]


def play_to_mahjong(page, game, width, limit=400):
    """Tap through a round: a combination whenever the engine offers one (keeping the first card
    offered), else Draw, else the first card of the hand to discard, else the reshuffle. Each
    step: the buttons offered are exactly the engine's legal actions of the moment."""
    rounds_before = len(folded(game).history)
    for step in range(limit):
        state = folded(game)
        if len(state.history) > rounds_before:
            return step
        legal = engine.entry_facts(state)["actions"]
        offered = page.eval_on_selector_all(
            "#tzq-controls [data-act]", "els => els.map(e => JSON.parse(e.dataset.act))"
        )
        combos = [a for a in legal if a["type"] in ("pung", "chow")]
        assert sorted(map(repr, [a for a in offered if a["type"] in ("pung", "chow")])) == sorted(map(repr, combos))
        assert [a for a in offered if a["type"] == "draw"] == [a for a in legal if a["type"] == "draw"]
        seq = state.events_applied
        if step == 12:
            shot(page, f"tzq-actions-{width}")
            no_sideways_scroll(page)
        if page.locator("#tzq-controls .btn.keep").count():
            page.locator("#tzq-controls .btn.keep").first.click()
        elif page.locator("#draw").count():
            page.click("#draw")
        elif page.locator("#reshuffle").count():
            page.click("#reshuffle")
        else:  # after a draw: every card of the hand is a discard the engine accepts
            hand = state.state_json()["hands"][state.turn]
            cards = page.eval_on_selector_all("#tzq-table [data-pick]", "els => els.map(e => e.dataset.card)")
            assert sorted(cards) == sorted(hand)
            assert {a["card"] for a in legal if a["type"] == "discard"} == set(hand)
            page.locator("#tzq-table [data-pick]").first.click()
            page.click("#discard")
        page.wait_for_selector(f"#tzq-entry[data-seq='{seq + 1}'][data-busy='0']", state="attached")
    raise AssertionError("no Mah-jong within the step limit")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_round_action_by_action_up_to_mahjong(open_as, club, width):
    deck = engine.random_tzq_deck(random.Random(7))
    game = new_game(club, {"rounds": 2, "deck": deck})
    page = open_entry(open_as, game, WIDTHS[width], "#actions", live=False)  # see the first test
    assert page.is_visible("#actions") and not page.is_visible("#round-form")
    page.click("#starter-1")
    page.click("#deal")
    page.wait_for_selector("#tzq-entry[data-seq='1'][data-busy='0']", state="attached")
    start = stored(game)[0]
    assert (
        start["type"] == "round_start"
        and start["seat"] == 1
        and sorted(start["hands"][0] + start["hands"][1] + start["stock"]) == sorted(deck)
    )
    # the page shows the engine's hands and the player to act
    doc = engine.state_json(folded(game))
    assert page.get_attribute(".seat-box[aria-current='true']", "data-seat") == "1"
    shown = page.eval_on_selector_all(
        ".seat-box[data-seat='0'] .hand [data-card]", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(doc["hands"][0])
    steps = play_to_mahjong(page, game, width)
    state = folded(game)
    line = engine.score_json(state)["hands"][0]
    assert line["kind"] == "mahjong"
    winner = line["winner"]
    page.wait_for_selector("#status:has-text('Round 1 is over')")
    assert (
        f"Round 1 is over: {PLAYERS[winner]} +{line['points'][winner]} (Mah-jong by a {line['by'].capitalize()})"
        in page.inner_text("#status")
    )
    # the running score follows, without a reload
    page.wait_for_selector("#score-sheet tbody tr[data-round='1']")
    assert page.inner_text(f"#total-{winner}") == str(line["points"][winner])
    # its scoring lines by the engine's names in the page's language (tzq_scoring:), not the
    # French book's labels the state carries
    scoring = engine.state_json(state)["score_sheet"][0]["scoring"]
    said = ", ".join(f"{engine.words('en').terms['tzq_scoring:' + s['name']]} +{s['points']}" for s in scoring)
    spans = page.eval_on_selector_all(
        "#score-sheet tbody tr[data-round='1'] .scoring", "els => els.map(e => e.textContent)"
    )
    assert spans == ([said] if scoring else [])
    # between rounds again: the score line's form is back, for round 2, with Ann to start
    assert page.is_visible("#deal") or page.is_visible("#starter-0")
    assert steps > 10
    no_sideways_scroll(page)
    shot(page, f"tzq-actions-over-{width}", full=True)


def test_a_stale_action_is_held_until_entered_again(open_as, club):
    deck = engine.random_tzq_deck(random.Random(11))
    game = new_game(club, {"rounds": 2, "deck": deck})
    append_events(
        game=game,
        events=[{"type": "round_start", "seat": 0, "hands": [deck[:5], deck[5:10]], "stock": deck[10:]}],
        expected_seq=0,
        user=user(),
    )
    page = open_entry(open_as, game, WIDTHS["phone"], "#actions", live=False)  # no live news: the write meets the 409
    append_events(game=game, events=[{"type": "draw", "seat": 0}], expected_seq=1, user=user("other"))
    page.click("#draw")
    page.wait_for_selector("#actions-stale:not([hidden])")
    assert "another scorer entered up to #2" in page.inner_text("#actions-stale")
    assert page.is_visible("#bar-stale")
    assert all(page.eval_on_selector_all("#tzq-controls button", "els => els.map(e => e.disabled)"))
    shot(page, "tzq-actions-409-phone")
    assert len(stored(game)) == 2
    page.click("#stale-ack-actions")
    page.wait_for_selector("#tzq-controls [data-pick]:not([disabled]), #tzq-table [data-pick]")
    assert page.locator("#tzq-controls button:not([disabled])").count() > 0
    page.locator("#tzq-table [data-pick]").first.click()
    page.click("#discard")
    page.wait_for_selector("#tzq-entry[data-seq='3'][data-busy='0']", state="attached")
    assert stored(game)[-1]["type"] == "discard" and not page.errors
