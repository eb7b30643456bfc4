"""The scorers' entry pages in headless Chromium (tests/plugins/browser.py, docs/entry.md): a game
started from the browser, a hand entered from the score sheet and a hand entered card by card
(whole-hand deals and card-by-card draws), a missed-wish penalty, undo, refused illegal entries,
and two scorers on one game (the stale one gets the API's 409 and the latest state). Every stored
event is checked against the engine."""

from __future__ import annotations

import json
import os

import pytest
from django.contrib.auth import get_user_model

from games import engine
from games.models import Club, Event, Game, Membership, Player
from games.services import append_events, game_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
PHONE = {"width": 390, "height": 844}
BOT_SEED = 3  # its first hand: a bomb in turn, a wish, a Dragon gift
TAPS_MEASURED = 109  # docs/entry.md: taps for BOT_SEED's first hand on a phone (215 before issue 18 item 3)
TAPS_TARGET = 110  # issue 18: half the taps of the first measure (219)


@pytest.fixture
def club(live_server):
    club = Club.objects.create(name="Home", slug="home")
    for name in ("scorer", "other"):
        user = get_user_model().objects.create_user(name, password="pw")
        Membership.objects.create(club=club, user=user, role="scorer")
    return club


def scorer(name="scorer"):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def game(club):
    body = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer()).body
    return Game.objects.get(pk=body["id"])


def open_entry(open_as, game, user=None, viewport=None):
    page = open_as(user or scorer(), f"/games/{game.pk}/enter/", viewport)
    page.wait_for_selector("#entry[data-ready='1']")
    return page


def wait_seq(page, seq: int) -> None:
    page.wait_for_selector(f"#entry[data-seq='{seq}'][data-busy='0']", state="attached")


def stored(game) -> list[dict]:
    return [e.as_record_event() for e in Event.objects.filter(game=game).order_by("seq")]


def folded(game):
    return engine.fold({"variant": "nanking", "players": PLAYERS, "events": stored(game)})


# --- starting a game ------------------------------------------------------------------------------


def test_a_scorer_starts_a_game_from_the_browser(open_as, club):
    Player.objects.create(club=club, name="Ann")
    Player.objects.create(club=club, name="Bob")
    page = open_as(scorer(), "/enter/", PHONE)
    with page.expect_navigation():  # to the page loaded, its script run
        page.click("text=New game")
    assert page.is_visible("#seat-3") and not page.is_visible("#seat-4")  # four seats for Tichu
    page.select_option("#variant", "tientsin")
    assert page.is_visible("#seat-5") and not page.is_visible("#seat-6")
    page.select_option("#variant", "nanking")
    page.select_option("#preset", "tiki")
    page.click("#options summary")
    page.select_option("select[name='opt-nanking-target_score']", "500")
    page.select_option("#seat-0", label="Bob")
    page.select_option("#seat-1", label="Ann")
    page.fill("#seat-2-new", "Cid")
    page.fill("#seat-3-new", "Dee")
    page.click("#create")
    page.wait_for_selector("#entry[data-ready='1']")
    game = Game.objects.get()
    assert page.url.endswith(f"/games/{game.pk}/enter/")
    assert [s.player.name for s in game.seats.select_related("player")] == ["Bob", "Ann", "Cid", "Dee"]
    assert game.options == {"preset": "tiki", "target_score": 500}
    assert page.text_content("#phase-text").startswith("between hands")
    assert not page.errors


# --- score-sheet entry ----------------------------------------------------------------------------


def test_a_hand_from_the_score_sheet_by_keyboard_on_a_phone(open_as, game):
    page = open_entry(open_as, game, viewport=PHONE)
    page.evaluate("() => { window.sameDocument = true; }")  # gone if an entry reloaded the page
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.focus("#call-0-tichu")
    page.keyboard.press(" ")  # Ann's "Tichu" toggle
    page.focus("#out-0-0")
    page.keyboard.press(" ")  # Ann went out first
    page.focus("#points-0")
    page.keyboard.type("52")
    page.wait_for_selector("#hand-check.bad")
    assert "multiple of 5" in page.text_content("#hand-check")
    assert page.is_disabled("#save-hand")
    assert page.input_value("#points-1") == "48"  # the other team is filled in
    page.keyboard.press("Backspace")
    page.keyboard.type("5")
    assert page.input_value("#points-1") == "45"
    page.wait_for_selector("#hand-check.ok")
    page.keyboard.press("Enter")
    wait_seq(page, 1)
    assert stored(game) == [{"type": "hand_result", "calls": {"0": "tichu"}, "out": [0], "points": [55, 45]}]
    assert page.locator("#score-sheet tr.hand-line").count() == 1
    assert page.text_content("#score-sheet tr.hand-line td.total") == "155"  # 55 + Ann's Tichu
    assert "Saved" in page.text_content("#status")

    # a double victory with the full order: the partner is filled in, no card points are sent
    page.check("#out-0-1")
    page.check("#double-victory")
    assert page.input_value("#out-1") == "3"
    assert page.is_disabled("#points-0")
    page.check("#call-1-grand_tichu")
    page.wait_for_selector("#hand-check.ok")
    page.click("#save-hand")
    wait_seq(page, 2)
    assert stored(game)[1] == {"type": "hand_result", "calls": {"1": "grand_tichu"}, "out": [1, 3]}
    totals = engine.score_json(folded(game))["totals"]
    assert totals == [155, 400 + 45]
    assert page.text_content("#entry-totals") == "Total: Ann & Cid 155 · Bob & Dee 445"
    assert page.evaluate("() => window.sameDocument") is True
    assert not page.errors


# --- card-by-card entry ---------------------------------------------------------------------------


def first_hand(seed: int = BOT_SEED) -> list[dict]:
    events = engine.random_game(seed)["events"]
    end = [i for i, e in enumerate(events) if e["type"] == "shuffle"][1]
    return events[:end]


def click_event_button(page, selector: str, event: dict) -> None:
    """Click the button under `selector` that carries exactly `event` (the engine's own dict)."""
    found = page.evaluate(
        """([sel, want]) => {
            const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
            const norm = (e) => ({...e, cards: e.cards ? [...e.cards].sort() : e.cards});
            for (const b of document.querySelectorAll(sel + " button[data-event]")) {
                if (same(norm(JSON.parse(b.dataset.event)), norm(want))) { b.click(); return true; }
            }
            return false;
        }""",
        [selector, event],
    )
    assert found, f"no button for {event}"


class TapCounter:
    """Counts a phone scorer's taps: a click is one, choosing in a drop-down list two (open, pick)."""

    def __init__(self, page):
        self.page, self.taps, self.log = page, 0, []

    def click(self, selector: str) -> None:
        self.taps += 1
        self.log.append(selector)
        self.page.click(selector)

    def select_option(self, selector: str, value: str) -> None:
        if self.page.input_value(selector) != value:
            self.taps += 2
            self.page.select_option(selector, value)

    def __getattr__(self, attr):  # everything else (waits, reads, typing) is not a tap
        return getattr(self.page, attr)


IDLE_AFTER = """([s]) => { const r = document.getElementById('entry');
    return r.dataset.busy === '0' && Number(r.dataset.seq) > s; }"""


def _fired(page, seq: int) -> bool:
    """Whether the last tap sent an entry (one tap plays: the page entered it by itself)."""
    return page.evaluate(
        """([s]) => { const r = document.getElementById('entry');
        return r.dataset.busy === '1' || Number(r.dataset.seq) > s; }""",
        [seq],
    )


def _click_matching(page, selector: str, event: dict) -> bool:
    """Click the button under `selector` whose data-event is `event` (cards in any order)."""
    index = page.evaluate(
        """([sel, want]) => {
            const norm = (e) => JSON.stringify({...e, cards: Array.isArray(e.cards) ? [...e.cards].sort() : e.cards},
                                               Object.keys(e).sort());
            const all = [...document.querySelectorAll(sel + " button[data-event]")];
            return all.findIndex((b) => norm(JSON.parse(b.dataset.event)) === norm(want));
        }""",
        [selector, event],
    )
    if index < 0:
        return False
    page.click(f"{selector} button[data-event] >> nth={index}")
    return True


def enter_card_by_card(page, events: list[dict], deal_mode: str, typed_seats=(), pass_all=False) -> int:
    """Enter a bot hand through the page's controls as a scorer taps them; returns the seq reached.

    Whole hands are dealt by tapping each seat's cards in the pile (the page moves on to the next
    seat by itself and gives the last seat the rest), or by typing them (`typed_seats`); the
    exchange by tapping each pusher's cards in the order of its receivers; a play by tapping its
    cards (the page plays at once when they allow one play only, or offers the few plays that hold
    them), else Play. Events the page enters by itself (the only legal one, after the scorer's
    entry) are skipped. With `pass_all`, passes round to the trick's winner are one tap."""
    seq = int(page.get_attribute("#entry", "data-seq"))
    if not (events[0]["type"] == "shuffle" and page.is_visible(f"#sheet-shuffle-{events[0]['seat']}")):
        page.click("#tab-cards")
    i = 0

    def settle(covered: int, sent: int | None = None) -> None:
        """Wait for the page to be idle again; skip the events it entered by itself."""
        nonlocal seq, i
        page.wait_for_function(IDLE_AFTER, arg=[seq])
        now = int(page.get_attribute("#entry", "data-seq"))
        i += covered + (now - seq - (covered if sent is None else sent))
        seq = now

    while i < len(events):
        e = events[i]
        kind = e["type"]
        if kind == "draw" and deal_mode == "hand":
            hands: dict[int, list[str]] = {}
            j = i
            while j < len(events) and events[j]["type"] == "draw":
                hands.setdefault(events[j]["seat"], []).append(events[j]["card"])
                j += 1
            for seat, cards in hands.items():
                if page.text_content(f"#deal-seat-{seat} .n") == f"{len(cards)}/{len(cards)}":
                    continue  # the last seat: the page gave it the rest of the pile
                if page.get_attribute(f"#deal-seat-{seat}", "aria-pressed") != "true":
                    page.click(f"#deal-seat-{seat}")
                if seat in typed_seats:
                    page.fill("#card-codes", " ".join(cards))
                    page.press("#card-codes", "Enter")
                else:
                    for card in cards:
                        page.click(f"#deal-group .pick[data-card='{card}']")
            assert page.text_content("#deal-btn") == "Deal " + ", ".join(
                f"{PLAYERS[s]} {len(c)}" for s, c in sorted(hands.items(), key=lambda sc: page_order(page).index(sc[0]))
            ), page.text_content("#deal-btn")
            page.click("#deal-btn")
            settle(j - i, sent=len(hands))
            continue
        if kind == "push":
            j = i
            while j < len(events) and events[j]["type"] == "push":
                push = events[j]
                if page.get_attribute(f"#push-seat-{push['seat']}", "aria-pressed") != "true":
                    page.click(f"#push-seat-{push['seat']}")
                slots = page.eval_on_selector_all("#push-dock .push-slot", "els => els.map(e => e.dataset.slot)")
                for slot in slots:
                    page.click(f".seat-box[data-seat='{push['seat']}'] .pick[data-card='{push['cards'][slot]}']")
                j += 1
            if not _fired(page, seq):  # quick entry sends the exchange with its twelfth card
                page.click("#push-btn")
            settle(j - i)
            continue
        if kind == "draw":
            if not page.is_checked("input[name='deal-mode'][value='card']"):
                page.check("input[name='deal-mode'][value='card']")
            if i % 2:
                page.click(f"#draw-cards .pick[data-card='{e['card']}']")
            else:  # typed: a code and Enter
                page.fill("#draw-code", e["card"].lower() if len(e["card"]) == 2 else e["card"][:2])
                page.press("#draw-code", "Enter")
        elif kind == "shuffle":
            page.click(
                f"#sheet-shuffle-{e['seat']}"
                if page.is_visible(f"#sheet-shuffle-{e['seat']}")
                else f"#shuffle-{e['seat']}"
            )
        elif kind in ("tichu", "grand_tichu"):
            page.click(f"#{kind}-{e['seat']}")
        elif (
            kind == "pass"
            and pass_all
            and page.locator("#pass-all").count()
            and json.loads(page.get_attribute("#pass-all", "data-events"))
            == events[
                i : i + page.evaluate("() => JSON.parse(document.getElementById('pass-all').dataset.events).length")
            ]
        ):
            page.wait_for_selector("#pass-all[data-checked='1']")
            covered = json.loads(page.get_attribute("#pass-all", "data-events"))
            page.click("#pass-all")
            settle(len(covered))
            continue
        elif kind == "pass":
            page.click("#pass-btn")
        elif kind == "dragon_gift":
            page.click(f"#gift-{e['to']}")
        elif kind == "play" and page.get_attribute(f".seat-box[data-seat='{e['seat']}']", "aria-current") == "true":
            done = False
            for card in sorted(e["cards"], key=lambda c: c != "Mahjong"):
                page.click(f".seat-box[data-seat='{e['seat']}'] .pick[data-card='{card}']")
                if _fired(page, seq) or _click_matching(page, "#play-options", e):
                    done = True
                    break
            if not done:
                assert page.is_enabled("#play-btn"), e
                page.click("#play-btn")
        elif kind == "play":  # a bomb out of turn
            click_event_button(page, "#bomb-group", e)
        else:
            raise AssertionError(f"unexpected {e}")
        settle(1)
    return seq


def page_order(page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all("#seats .seat-box", "els => els.map(e => e.dataset.seat)")]


@pytest.mark.parametrize(
    "seed, deal_mode, typed_seats",
    [
        (BOT_SEED, "hand", (2,)),
        (BOT_SEED, "card", ()),
        (141, "hand", (0, 1, 2, 3)),  # two Grand Tichus (entered before the deals), a bomb out of turn, a wish
    ],
)
def test_a_full_hand_card_by_card(open_as, game, seed, deal_mode, typed_seats):
    events = first_hand(seed)
    page = open_entry(open_as, game)
    if deal_mode == "hand":
        # whole hands: the calls made during the draw are entered before the deal
        last_draw = max(i for i, e in enumerate(events) if e["type"] == "draw")
        calls = [e for e in events[:last_draw] if e["type"] in ("tichu", "grand_tichu")]
        events = events[:1] + calls + [e for e in events[1:] if e not in calls or events.index(e) > last_draw]
    seq = enter_card_by_card(page, events, deal_mode, typed_seats=typed_seats)
    state = folded(game)
    expected = engine.fold({"variant": "nanking", "players": PLAYERS, "events": first_hand(seed)})
    assert engine.score_json(state) == engine.score_json(expected)
    if deal_mode == "card":
        assert stored(game) == first_hand(seed)
    else:
        assert [e["type"] for e in stored(game)].count("deal") == 4
    assert page.locator("#score-sheet tr.hand-line").count() == 1
    assert page.text_content("#phase-text").startswith("between hands")
    assert seq == game.__class__.objects.get(pk=game.pk).seq
    assert not page.errors


def test_taps_for_a_realistic_hand_on_a_phone(open_as, club):
    """The figures in docs/entry.md: the taps a scorer needs on a 390x844 phone for the bot's first
    hand (a bomb in turn, a wish, a Dragon gift): the deal by tapping each seat's cards in the pile
    (the last seat gets the rest), the exchange by tapping cards onto seats, the plays by tapping
    cards (one tap plays when the cards allow one play only; a few candidate plays as buttons);
    once with one Pass a seat, once with the passes round to the winner in one tap. Events the
    engine leaves no choice for are entered by the page. Fails above the target of issue 18."""
    taps = {}
    for pass_all in (False, True):
        body = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer()).body
        game = Game.objects.get(pk=body["id"])
        page = open_entry(open_as, game, viewport=PHONE)
        counter = TapCounter(page)
        enter_card_by_card(counter, first_hand(), "hand", pass_all=pass_all)
        assert engine.score_json(folded(game)) == engine.score_json(
            engine.fold({"variant": "nanking", "players": PLAYERS, "events": first_hand()})
        )
        taps[pass_all] = counter.taps
    print(f"taps for the bot's first hand on a phone: {taps[False]} with one Pass a seat, {taps[True]} with pass-all")
    assert taps[True] < taps[False]
    assert taps[True] <= TAPS_TARGET
    assert taps[True] <= TAPS_MEASURED


def test_the_seat_to_act_is_highlighted_and_only_legal_plays_are_offered(open_as, game):
    events = first_hand()
    lead = next(i for i, e in enumerate(events) if e["type"] == "play")
    append_events(game=game, events=events[:lead], expected_seq=0, user=scorer())
    page = open_entry(open_as, game)
    page.evaluate("() => localStorage.setItem('tichu-entry:quick-play', 'off')")  # two picks, no play
    page.click("#tab-cards")
    state = folded(game)
    turn = state.turn
    assert page.get_attribute(f".seat-box[data-seat='{turn}']", "aria-current") == "true"
    assert page.locator(".seat-box.turn").count() == 1
    hand = state.hand.cards[turn]
    # a pair that is not one: two cards of different ranks
    a, b = sorted({c for c in hand if len(c) == 2}, key=lambda c: "23456789TJQKA".index(c[0]))[:2]
    if a[0] == b[0]:
        b = next(c for c in hand if len(c) == 2 and c[0] != a[0])
    page.click(f".seat-box.turn .pick[data-card='{a}']")
    page.click(f".seat-box.turn .pick[data-card='{b}']")
    assert page.is_disabled("#play-btn")
    assert "Not a legal play" in page.text_content("#play-hint")
    assert page.locator("#pass-btn").count() == 0  # the lead cannot pass
    legal = engine.legal_actions(state, include_pushes=False)
    offered_calls = page.locator("#call-group button").count()
    assert offered_calls == len([x for x in legal if x["type"] in ("tichu", "grand_tichu")])
    assert len(stored(game)) == lead


def test_a_refused_play_says_the_engines_reason_and_the_end_of_a_hand_is_announced(open_as, game):
    """Under a wish for an 8, Ann (holding 8s) picks another single card: the Play button stays
    disabled and the hint next to it gives the engine's reason (the wish), with names for seats.
    Then the hand is played out from the page's own buttons: its end is announced with the score line."""
    events = first_hand()
    wished = next(i for i, e in enumerate(events) if e.get("wish")) + 1
    append_events(game=game, events=events[:wished], expected_seq=0, user=scorer())
    state = folded(game)
    refused = None
    for card in state.hand.cards[state.turn]:
        trial = state.copy()
        try:
            trial.apply({"type": "play", "seat": state.turn, "cards": [card]})
        except engine.EngineError as err:
            if err.code == "wish_not_fulfilled":
                refused = card
                break
    assert refused, "the seed's wish must constrain the next player"
    page = open_entry(open_as, game, viewport=PHONE)
    page.click("#tab-cards")
    page.click(f".seat-box.turn .pick[data-card='{refused}']")
    page.wait_for_selector("#play-hint[data-code='wish_not_fulfilled']")
    hint = page.text_content("#play-hint")
    assert PLAYERS[state.turn] in hint and "wish" in hint and "seat " not in hint
    # worded from the engine's code and parameters, as the engine words them (games/engine/wording.py)
    error = engine.check_events(state, [{"type": "play", "seat": state.turn, "cards": [refused]}])["error"]
    assert hint == f"Not a legal play here: {engine.card_name(refused)}: {engine.refusal_words(error, PLAYERS)}."
    assert f"the wish for {engine.RANK_PHRASES[error['params']['wish']]} forbids it" in hint
    assert page.is_disabled("#play-btn")
    assert len(stored(game)) == wished
    # the rest of the hand from the page: the last write's answer announces the score line
    page.click(f".seat-box.turn .pick[data-card='{refused}']")  # unpicked
    enter_card_by_card(page, events[wished:], "card")
    line = engine.score_json(folded(game))
    status = page.text_content("#status")
    assert "Hand 1 is over: Ann & Cid" in status, status
    assert "totals " + " / ".join(str(t) for t in line["totals"]) in status
    assert not page.errors


def test_everyone_else_passes_in_one_tap_once_the_engine_agrees(open_as, game):
    """After a play the three others pass in the bot's hand: one tap enters the three passes (the
    button appears only once the engine has accepted the whole list at this position)."""
    events = first_hand()
    k = next(
        i
        for i in range(len(events) - 3)
        if events[i]["type"] == "play" and [e["type"] for e in events[i + 1 : i + 4]] == ["pass"] * 3
    )
    append_events(game=game, events=events[: k + 1], expected_seq=0, user=scorer())
    page = open_entry(open_as, game, viewport=PHONE)
    page.click("#tab-cards")
    page.wait_for_selector("#pass-all[data-checked='1']:not([disabled])")
    others = [PLAYERS[e["seat"]] for e in events[k + 1 : k + 4]]
    assert page.text_content("#pass-all") == f"{', '.join(others)} pass: {PLAYERS[events[k]['seat']]} wins the trick"
    page.click("#pass-all")
    wait_seq(page, k + 4)
    assert stored(game) == events[: k + 4]
    assert not page.errors


# --- the penalty -----------------------------------------------------------------------------------


def test_a_missed_wish_penalty_by_keyboard_on_a_phone(open_as, game):
    """A wish pending (an 8: Ann to play, holding two), Bob and Cid having called Tichu. The scorer
    opens "Penalty…", picks "Missed wish by Ann", backs out once (Escape), then confirms. One
    `penalty` event is stored; the score line shown is the engine's fold of the stored record:
    Ann & Cid 0, less Cid's failed Tichu, = -100; Bob & Dee 200, less Bob's failed Tichu, = 100
    (nobody is out, so no call succeeds)."""
    events = first_hand()
    wished = next(i for i, e in enumerate(events) if e.get("wish")) + 1
    setup = events[:wished] + [{"type": "tichu", "seat": 1}, {"type": "tichu", "seat": 2}]
    append_events(game=game, events=setup, expected_seq=0, user=scorer())
    seq = len(setup)
    state = folded(game)
    assert state.phase == "play" and state.turn == 0 and state.hand.wish is not None
    page = open_entry(open_as, game, viewport=PHONE)
    page.click("#tab-cards")
    assert page.is_visible("#penalty-summary") and page.is_hidden("#penalty-0")  # closed until asked for
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

    page.focus("#penalty-summary")
    page.keyboard.press("Enter")  # opens the disclosure
    assert [page.text_content(f"#penalty-{s}") for s in range(4)] == [f"Missed wish by {p}" for p in PLAYERS]
    page.focus("#penalty-0")
    page.keyboard.press("Enter")
    page.wait_for_selector("#penalty-confirm:not([hidden])")
    assert page.evaluate("() => document.activeElement.id") == "penalty-no"  # the safe choice has the focus
    question = page.text_content("#penalty-question")
    assert "Missed wish by Ann: end hand 1 now?" in question and "Bob & Dee win the hand" in question
    page.keyboard.press("Escape")  # backs out: nothing sent
    assert page.is_hidden("#penalty-confirm")
    assert page.evaluate("() => document.activeElement.id") == "penalty-0"
    assert len(stored(game)) == seq

    page.keyboard.press("Enter")
    page.wait_for_selector("#penalty-confirm:not([hidden])")
    page.keyboard.press("Tab")  # from Cancel to the confirm button
    assert page.evaluate("() => document.activeElement.id") == "penalty-yes"
    page.keyboard.press("Enter")
    wait_seq(page, seq + 1)
    assert stored(game) == setup + [{"type": "penalty", "seat": 0, "reason": "missed_wish"}]

    score = engine.score_json(folded(game))
    line = score["hands"][-1]
    assert line["kind"] == "penalty"
    row = page.locator("#score-sheet tr.hand-line")
    assert row.count() == 1
    numbers = lambda cells: [int(x) for x in row.locator(cells).all_text_contents()]  # noqa: E731
    assert numbers("td.card-points") == line["card_points"]
    assert numbers("td.points") == line["points"]
    assert numbers("td.total") == score["totals"]
    assert line["card_points"] == [0, 200] and line["points"] == [-100, 100]  # by hand, from the rules
    assert row.locator("td.out").text_content().count("(penalty: missed wish by Ann)") == 1
    assert page.text_content("#entry-totals") == "Total: Ann & Cid -100 · Bob & Dee 100"
    assert page.text_content("#phase-text").startswith("between hands")
    assert page.is_hidden("#penalty-box")  # none between hands
    assert "penalty" in page.text_content(f"#history-list li[data-seq='{seq + 1}']")
    assert "Saved: Missed wish by Ann" in page.text_content("#status")
    assert not page.errors


# --- undo, refusals, two scorers ------------------------------------------------------------------


def test_undo_appends_an_undo_and_the_history_shows_both(open_as, game):
    hand = {"type": "hand_result", "calls": {}, "out": [2], "points": [80, 20]}
    append_events(game=game, events=[hand], expected_seq=0, user=scorer())
    page = open_entry(open_as, game)
    assert page.locator("#score-sheet tr.hand-line").count() == 1
    page.keyboard.press("u")
    wait_seq(page, 2)
    assert stored(game)[-1] == {"type": "undo"}
    assert page.locator("#score-sheet tr.hand-line").count() == 0
    assert page.text_content("#history-list li[data-seq='1'] .badge.undone") == "undone by #2"
    assert page.text_content("#history-list li[data-seq='2'] .badge.undo-of") == "retracts #1"
    assert page.is_disabled("#undo")  # nothing left in force

    # card by card: a play undone puts the cards back in the hand
    page.click("#tab-cards")
    page.click("#shuffle-0")
    wait_seq(page, 3)
    page.click("#undo")
    wait_seq(page, 4)
    assert page.text_content("#phase-text").startswith("between hands")
    assert folded(game).phase == "between_hands"
    assert not page.errors


def test_an_illegal_entry_is_refused_and_nothing_is_stored(open_as, game):
    page = open_entry(open_as, game)
    page.check("#out-0-0")
    page.fill("#points-0", "130")
    page.wait_for_selector("#hand-check.bad")
    assert "between -25 and 125" in page.text_content("#hand-check")
    page.fill("#points-0", "60")
    page.select_option("#out-1", "0")
    page.wait_for_selector("#hand-check.bad")
    assert "only once" in page.text_content("#hand-check")
    page.press("#points-0", "Enter")
    # the engine's own refusal (422) of an event sent anyway is shown, and nothing is stored
    page.evaluate("""() => window.tichuEntry.send(
        [{type: "hand_result", calls: {}, out: [0, 2], points: [50, 50]}], "a double victory with points")""")
    page.wait_for_selector("#alert:not([hidden])[data-code='result_invalid']")  # the code for tools ...
    assert page.text_content("#alert-text").startswith("Refused by the rules: ")  # ... words for the scorer
    assert "result_invalid" not in page.text_content("#alert")
    page.evaluate(
        """() => window.tichuEntry.send([{type: "play", seat: 0, cards: ["Dragon"]}], "a play before the deal")"""
    )
    page.wait_for_selector("#alert[data-code='wrong_phase']")
    assert stored(game) == []
    assert page.get_attribute("#entry", "data-seq") == "0"


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        bool(box)
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] + box["width"] <= size["width"]
    )


def test_two_scorers_the_stale_one_is_refused_and_sees_the_latest_state(open_as, game):
    first = open_entry(open_as, game, scorer("scorer"))
    second = open_entry(open_as, game, scorer("other"), viewport=PHONE)
    # the second page misses the live news (its long poll is cut): its save is what finds the change
    second.route("**/api/games/*/events/?*", lambda route: route.abort())
    second.reload()
    second.wait_for_selector("#entry[data-ready='1']")
    # the second scorer types a hand; the engine accepts it at seq 0
    second.check("#out-0-1")
    second.fill("#points-1", "70")
    second.wait_for_selector("#hand-check.ok")
    # meanwhile the first scorer saves the hand
    first.check("#out-0-1")
    first.fill("#points-1", "70")
    first.wait_for_selector("#hand-check.ok")
    first.click("#save-hand")
    wait_seq(first, 1)
    # the second scorer's save is built on seq 0: 409, nothing stored, the latest state shown
    second.click("#save-hand")
    second.wait_for_selector("#entry[data-conflict='1']", state="attached")
    wait_seq(second, 1)
    assert len(stored(game)) == 1
    assert second.locator("#score-sheet tr.hand-line").count() == 1
    assert second.input_value("#points-1") == "70"  # the typed entry is kept, not lost
    # the form is stale: the message stands next to Save (in view) and in the sticky bar, Save is
    # disabled, no "Saving" line is left, and the engine's approval does not re-enable Save
    second.wait_for_selector("#hand-check.bad")
    assert "before the game changed" in second.text_content("#hand-check")
    assert "Not saved: hand 1 from the score sheet" in second.text_content("#sheet-stale")
    assert in_view(second, "#sheet-stale") and in_view(second, "#save-hand")
    assert second.is_visible("#bar-stale") and "Not saved" in second.text_content("#bar-stale")
    assert second.get_attribute("#hand-form", "class").split().count("stale") == 1
    assert second.is_disabled("#save-hand")
    assert "Saving" not in second.text_content("#status")
    shots = os.environ.get("ENTRY_SCREENSHOTS")
    if shots:  # for a person to look at: ENTRY_SCREENSHOTS=/tmp/shots pytest ...
        second.screenshot(path=f"{shots}/stale-390.png")
    assert "Hand 1 is over" in second.text_content("#status")  # what the other scorer's hand scored
    # a second tap (forced on the disabled button, Enter in a field, or the script's own send)
    # stores nothing
    second.click("#save-hand", force=True)
    second.press("#points-1", "Enter")
    sent = second.evaluate("""() => window.tichuEntry.send(
        [{type: "hand_result", calls: {}, out: [1], points: [30, 70]}], "the stale hand again")""")
    second.wait_for_timeout(400)
    assert sent is False and len(stored(game)) == 1
    assert "Not sent" in second.text_content("#status")
    # the scorer has seen the new state and chooses to enter again: Save comes back once the
    # engine approves the form at the new position
    second.click("#stale-ack-sheet")
    assert second.is_hidden("#sheet-stale") and second.is_hidden("#bar-stale")
    second.wait_for_selector("#save-hand:not([disabled])")
    second.click("#clear-hand")  # an empty form says nothing red until a field is used or Save tapped
    second.wait_for_function("() => document.getElementById('hand-check').textContent === ''")
    second.click("#save-hand")
    second.wait_for_function("() => document.getElementById('hand-check').textContent === 'Who went out first?'")
    # card by card too: a shuffle built on a stale state is refused, and held the same way
    first.click("#tab-cards")
    second.click("#tab-cards")
    first.click("#shuffle-1")
    wait_seq(first, 2)
    second.click("#shuffle-1")
    second.wait_for_selector("#entry[data-conflict='2']", state="attached")
    wait_seq(second, 2)
    assert second.is_visible("#cards-stale") and "Not saved: Bob shuffles" in second.text_content("#cards-stale")
    assert second.locator("#controls button:not([disabled])").count() == 0
    second.locator("#controls button").first.click(force=True)
    second.wait_for_timeout(300)
    assert [e["type"] for e in stored(game)] == ["hand_result", "shuffle"]
    assert "Bob draws next" in second.text_content("#phase-text")
    second.click("#stale-ack-bar")
    assert second.locator("#controls button:not([disabled])").count() > 0
    assert second.get_attribute("#entry", "data-stale") == "0"
    assert not first.errors and not second.errors


def test_retry_after_a_lost_answer_stores_the_entry_once(open_as, game):
    page = open_entry(open_as, game)
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.request.headers["idempotency-key"])
            route.fetch()  # the server stores the entry ...
            route.abort("connectionreset")  # ... but its answer never arrives
        else:
            route.continue_()

    page.route("**/api/games/*/events/", lose_the_answer)
    page.click("#tab-cards")
    page.click("#shuffle-2")
    page.wait_for_selector("#retry:not([hidden])")
    assert "Network error" in page.text_content("#alert")
    assert len(stored(game)) == 1
    page.click("#retry")
    wait_seq(page, 1)
    assert stored(game) == [{"type": "shuffle", "seat": 2}]  # once
    assert page.is_hidden("#alert")


# --- offline at the table ---------------------------------------------------------------------------


def outbox_size(page) -> int:
    return int(page.get_attribute("#entry", "data-outbox"))


def test_offline_in_the_middle_of_a_hand_nothing_lost_or_doubled(open_as, game):
    """The connection drops in the middle of a hand: the pass is kept in the browser as "not yet
    sent" (in localStorage, with its key and expected_seq) and goes out when the connection
    returns; an answer lost in flight is sent again with the same key: stored once."""
    events = first_hand()
    k = next(i for i, e in enumerate(events) if e["type"] == "pass")
    append_events(game=game, events=events[:k], expected_seq=0, user=scorer())
    page = open_entry(open_as, game, viewport=PHONE)
    page.click("#tab-cards")
    page.context.set_offline(True)
    page.click("#pass-btn")
    page.wait_for_selector("#outbox:not([hidden])")
    assert "1 not yet sent" in page.text_content("#outbox-head") and "offline" in page.text_content("#outbox-head")
    assert "passes" in page.text_content("#outbox-list")
    assert page.text_content("#bar-outbox") == "1 not yet sent"
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('tichu-entry:game-{game.pk}:outbox'))")
    assert len(kept) == 1 and kept[0]["key"]
    assert json.loads(kept[0]["body"]) == {"expected_seq": k, "events": [events[k]]}
    assert page.locator("#controls button:not([disabled])").count() == 0  # the next entry needs the server
    assert "not yet sent" in page.text_content("#outbox-wait")
    if os.environ.get("ENTRY_SCREENSHOTS"):
        page.screenshot(path=os.environ["ENTRY_SCREENSHOTS"] + "/offline-390.png")
    page.wait_for_timeout(500)
    assert len(stored(game)) == k  # nothing reached the server
    page.context.set_offline(False)
    wait_seq(page, k + 1)
    page.wait_for_selector("#entry[data-outbox='0']", state="attached")
    assert stored(game) == events[: k + 1]
    assert page.is_hidden("#outbox") and page.is_hidden("#bar-outbox")

    # the next entry reaches the server but its answer is lost: kept, sent again by itself with
    # the same key, stored once
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.request.headers["idempotency-key"])
            route.fetch()
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/api/games/*/events/", lose_the_answer)
    nxt = events[k + 1]
    assert nxt["type"] in ("pass", "play")
    if nxt["type"] == "pass":
        page.click("#pass-btn")
    else:
        for card in nxt["cards"]:
            page.click(f".seat-box.turn .pick[data-card='{card}']")
        if page.is_visible("#choice-phoenix"):
            page.select_option("#choice-phoenix", nxt.get("phoenix", ""))
        page.click("#play-btn")
    wait_seq(page, k + 2)
    page.wait_for_selector("#entry[data-outbox='0']", state="attached")
    assert len(lost) == 1
    assert stored(game) == events[: k + 2]  # once
    assert not page.errors


def test_offline_hands_from_the_score_sheet_go_out_in_order_and_a_conflict_is_held(open_as, game):
    page = open_entry(open_as, game, viewport=PHONE)
    page.context.set_offline(True)
    for first_out, points in (("1", "70"), ("2", "45")):
        page.check(f"#out-0-{first_out}")
        page.fill("#points-1", points)
        page.wait_for_function("() => document.getElementById('hand-check').textContent.startsWith('Not checked yet')")
        page.click("#save-hand")
        page.wait_for_function("() => !document.querySelector('.first-out-pick:checked')")  # reset: kept
    assert outbox_size(page) == 2
    assert page.text_content("#outbox-list").count("from the score sheet") == 2
    assert "hand 2 from the score sheet" in page.text_content("#outbox-list")
    assert stored(game) == []
    page.context.set_offline(False)
    wait_seq(page, 2)
    page.wait_for_selector("#entry[data-outbox='0']", state="attached")
    assert [e["out"] for e in stored(game)] == [[1], [2]]  # in order, each once
    assert page.locator("#score-sheet tr.hand-line").count() == 2

    # offline again; meanwhile another scorer enters a hand: the kept hand is refused when sent
    # (409), held and shown, never stored over the other scorer's
    page.context.set_offline(True)
    page.check("#out-0-3")
    page.fill("#points-1", "60")
    page.wait_for_function("() => document.getElementById('hand-check').textContent.startsWith('Not checked yet')")
    page.click("#save-hand")
    page.wait_for_selector("#entry[data-outbox='1']", state="attached")
    append_events(
        game=game,
        events=[{"type": "hand_result", "calls": {}, "out": [0], "points": [80, 20]}],
        expected_seq=2,
        user=scorer("other"),
    )
    page.context.set_offline(False)
    page.wait_for_selector("#entry[data-conflict='3']", state="attached")
    page.wait_for_selector("#outbox-discard:not([hidden])")
    assert "refused when sent" in page.text_content("#outbox-head")
    assert page.is_visible("#sheet-stale")
    page.wait_for_timeout(1500)  # no flush goes out again by itself
    assert [e["out"] for e in stored(game)] == [[1], [2], [0]]
    page.click("#outbox-discard")
    page.wait_for_selector("#entry[data-outbox='0']", state="attached")
    assert len(stored(game)) == 3
    assert not page.errors


@pytest.mark.parametrize("variant, players", [("threechu", PLAYERS[:3]), ("tientsin", PLAYERS + ["Eve", "Fay"])])
def test_the_score_sheet_form_of_other_variants(open_as, club, variant, players):
    body = game_create(club=club, variant=variant, options=None, players=players, user=scorer()).body
    game = Game.objects.get(pk=body["id"])
    page = open_entry(open_as, game)
    page.check("#out-0-1")
    if variant == "threechu":
        page.select_option("#dealer", "1")
        assert page.text_content("#points-label-0") == "Dealer & dummy"
        page.fill("#points-0", "75")
        expected = {"type": "hand_result", "calls": {}, "out": [1], "points": [75, 25], "dealer": 1}
    else:
        page.check("#double-victory")  # a triple victory: the first out's two partners follow
        assert [page.input_value(f"#out-{k}") for k in (1, 2)] == ["3", "5"]
        expected = {"type": "hand_result", "calls": {}, "out": [1, 3, 5]}
    page.wait_for_selector("#hand-check.ok")
    if variant == "tientsin":
        assert "triple victory" in page.text_content("#hand-check")
    page.click("#save-hand")
    wait_seq(page, 1)
    assert [e.as_record_event() for e in Event.objects.filter(game=game)] == [expected]
    assert page.locator("#score-sheet tr.hand-line").count() == 1
    if variant == "tientsin":
        assert page.text_content("#score-sheet tr.hand-line .dv") == "triple victory"
        assert "(triple victory)" in page.text_content("#status")


def test_threechu_the_dummy_goes_out_with_the_dealer(open_as, club):
    """The dummy is offered in the order out: a dealer + dummy double victory from the score sheet."""
    body = game_create(club=club, variant="threechu", options=None, players=PLAYERS[:3], user=scorer()).body
    game = Game.objects.get(pk=body["id"])
    page = open_entry(open_as, game, viewport=PHONE)
    assert page.locator("#first-out label").nth(3).inner_text() == "Dummy"
    assert page.locator(".out-select").count() == 2  # the first out a chip, two lists; the last is filled in
    page.select_option("#dealer", "2")
    page.check("#out-0-3")  # the dummy out first ...
    page.check("#double-victory")
    assert page.input_value("#out-1") == "2"  # ... its dealer follows
    page.wait_for_selector("#hand-check.ok")
    page.click("#save-hand")
    wait_seq(page, 1)
    assert stored(game) == [{"type": "hand_result", "calls": {}, "out": [3, 2], "dealer": 2}]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors


@pytest.mark.parametrize("scoring", [None, "ranks"])
def test_grand_seigneur_asks_for_the_whole_finishing_order(open_as, club, scoring):
    names = PLAYERS + ["Eve"]
    options = {"scoring": scoring} if scoring else None
    body = game_create(club=club, variant="grand-seigneur", options=options, players=names, user=scorer()).body
    game = Game.objects.get(pk=body["id"])
    page = open_entry(open_as, game, viewport=PHONE)
    assert page.text_content("#out-fieldset legend") == "Finishing order"
    assert "(optional)" not in page.text_content("#out-selects")
    if scoring:
        assert "Rank scoring" in page.text_content("#rank-scoring")
    else:
        assert "No points in this game" in page.text_content("#rank-scoring")
    page.check("#out-0-2")  # the first out: a chip, one tap
    for rank, seat in ((1, 0), (2, 4)):
        page.select_option(f"#out-{rank}", str(seat))
    page.wait_for_selector("#hand-check.bad")
    assert "whole finishing order" in page.text_content("#hand-check")
    assert page.is_disabled("#save-hand")
    page.select_option("#out-3", "1")
    page.wait_for_selector("#hand-check.ok")
    assert "finishing order" in page.text_content("#hand-check")
    page.click("#save-hand")
    wait_seq(page, 1)
    assert stored(game) == [{"type": "hand_result", "calls": {}, "out": [2, 0, 4, 1, 3]}]
    line = engine.score_json(
        engine.fold({"variant": "grand-seigneur", "players": names, "options": game.options, "events": stored(game)})
    )
    assert any(line["totals"]) == bool(scoring)
    assert not page.errors


def test_an_ended_session_is_said_and_nothing_is_stored(open_as, game):
    page = open_entry(open_as, game)
    page.context.clear_cookies()
    page.click("#tab-cards")
    page.click("#shuffle-0")
    page.wait_for_selector("#alert:not([hidden])")
    assert "session has ended" in page.text_content("#alert")
    assert stored(game) == []


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_the_entry_page_says_the_engines_sentences_in_the_scorers_language(open_as, game, lang):
    """In the scorer's language (Accept-Language) the page's words are the engine's
    (json_script ``tichu-words``) and a saved event is said as the replay says it: "Ann mélange :
    la donne 1 commence", not the entry's own wording."""
    from replay.frames.wording import frame_context

    page = open_entry(open_as, game)
    page.set_extra_http_headers({"Accept-Language": lang})
    page.reload()
    page.wait_for_selector("#entry[data-ready='1']")
    words = page.evaluate("() => JSON.parse(document.getElementById('tichu-words').textContent)")
    assert words["lang"] == lang and words == engine.page_words(lang, "nanking")
    page.click("#tab-cards")
    page.click("#shuffle-0")
    wait_seq(page, 1)
    shuffle = {"type": "shuffle", "seat": 0}
    after = engine.state_json(folded(game))
    said = engine.event_words(shuffle, PLAYERS, frame_context(shuffle, after), lang)
    assert said != engine.event_words(shuffle, PLAYERS, frame_context(shuffle, after))  # not English
    page.wait_for_function("(t) => document.getElementById('status').textContent.includes(t)", arg=said)
    status = page.text_content("#status")
    # the script's own words are Django's JavaScript catalogue's (djangojs.po): "Enregistré : ..."
    assert said in status and not status.startswith("Saved"), status
    # the page's script fills the engine's templates as the engine does (no frame: the event alone)
    assert page.evaluate("""async () => {
        const { makeWords, readWords } = await import('/static/shared/cards.js');
        const names = ['Ann', 'Bob', 'Cid', 'Dee'];
        const W = makeWords(readWords(), (s) => names[s]);
        return [W.describe({type: 'play', seat: 3, cards: ['Mahjong', 'Kj'], wish: 'K', to: 1}),
                W.describe({type: 'shuffle', seat: 1}, {hand_number: 2}),
                W.describe({type: 'push', seat: 0, cards: {'1': 'Kj', '2': '8p'}})];
    }""") == [
        engine.event_words(
            {"type": "play", "seat": 3, "cards": ["Mahjong", "Kj"], "wish": "K", "to": 1}, PLAYERS, lang=lang
        ),
        engine.event_words({"type": "shuffle", "seat": 1}, PLAYERS, {"hand_number": 2}, lang),
        engine.event_words({"type": "push", "seat": 0, "cards": {"1": "Kj", "2": "8p"}}, PLAYERS, lang=lang),
    ]
    assert not page.errors
