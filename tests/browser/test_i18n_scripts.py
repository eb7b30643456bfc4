"""The page scripts' own words in German and Ukrainian (issue #21 items 1 and 4): what the entry
page's and the replay's scripts draw (seats, controls, statuses, hints, aria-labels, titles, the
replay's seat lines, panel and score sheet) is in the page's language, from Django's JavaScript
catalogue (djangojs.po) and the engine's words; the switcher keeps the replay's position the script
moved to; the entry page mid-hand holds at 360 and 1280 px. Screenshots in
.ci/out/screenshots/languages/ (entry-midhand-<lang>-<width>.png).

"English left over" is decided from the catalogues: a word of the English sources (djangojs.po's
and the engine's msgids) that no French or German translation uses; in Ukrainian any word in Latin
letters of three or more (the card faces' ranks are shorter). The players' names are allowed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games import engine
from games.models import Club, Event, Game, Membership
from games.services import append_events, game_create
from tests.browser.test_phone_layout import OUTSIDE_JS
from tests.plugins.browser import DEFAULT_TIMEOUT_MS
from tests.replay.conftest import bot_record, import_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / ".ci" / "out" / "screenshots" / "languages"
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœß]+")
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
#: the games' names, and the Tien Zi Que card's face, the game's initials in every language (the
#: engine's tzq_face_short:J, as its name stays "Tien Zi Que")
ALLOWED = {"tichu", "tien", "zi", "que", "tzq"}
#: What the entry script draws (the rest of the page is its template's, tests/browser/test_i18n_pages.py).
ENTRY_PARTS = ["#seats", "#controls", "#trick-box", "#phase-text", "#status", "#undo-what", "#penalty-seats"]
#: What the replay script draws once the reader steps.
REPLAY_PARTS = ["#table", "#totals", "#calls", "#out-order", "#bombs", "#gifts", "#exchange", "#phase", "#sheet-wrap"]


def english_words() -> set[str]:
    """Words of the scripts' and the engine's English sources that no French or German translation uses."""
    sources = [REPO / "locale" / "{lang}" / "LC_MESSAGES" / "djangojs.po",
               REPO / "games" / "engine" / "catalogue" / "{lang}" / "LC_MESSAGES" / "engine.po"]  # fmt: skip
    source, translated = set(), set()
    for lang in ("fr", "de"):
        for path in sources:
            for e in polib.pofile(str(path).format(lang=lang)):
                source |= {
                    w.lower()
                    for w in WORD.findall(re.sub(r"%\(\w+\)[sd]|\{\w+:\w+\}", " ", e.msgid + " " + e.msgid_plural))
                }
                for text in [e.msgstr, *e.msgstr_plural.values()]:
                    translated |= {w.lower() for w in WORD.findall(text)}
    return {w for w in source - translated if len(w) > 2}


def left_over(page, parts: list[str], lang: str, english: set[str]) -> list[str]:
    """English words in the parts' text and their contents' titles and aria-labels (the parts' own
    attributes are their templates', tests/browser/test_i18n_pages.py); the players' names allowed."""
    text = page.evaluate(
        """(parts) => parts.flatMap((sel) => [...document.querySelectorAll(sel)]).flatMap((el) => [
        el.innerText,
        ...[...el.querySelectorAll('[title],[aria-label],[aria-valuetext]')].map((x) =>
          [x.title, x.getAttribute('aria-label'), x.getAttribute('aria-valuetext')].filter(Boolean).join(' '))]).join(' ')""",
        parts,
    )
    allowed = ALLOWED | {p.lower() for p in PLAYERS}
    words = {w for w in WORD.findall(text) if w.lower() not in allowed}
    return sorted(w for w in words if (w.lower() in english if lang != "uk" else len(w) > 2))


def context_in(browser, live_server, lang: str, width: int = 1280, user=None):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=lang, is_mobile=width < 500, has_touch=width < 500
    )
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                              "url": live_server.url}])  # fmt: skip
    return context


@pytest.fixture
def scorer(live_server):
    club = Club.objects.create(name="Home", slug="home")
    user = get_user_model().objects.create_user("scorer", password="pw")
    Membership.objects.create(club=club, user=user, role="scorer")
    return user


@pytest.fixture
def midhand(scorer):
    """A game in the middle of a hand: the bot game's first hand up to a trick with plays and passes."""
    body = game_create(
        club=scorer.memberships.get().club, variant="nanking", options=None, players=PLAYERS, user=scorer
    ).body
    game = Game.objects.get(pk=body["id"])
    events = engine.random_game(3)["events"]
    plays = [i for i, e in enumerate(events) if e["type"] in ("play", "pass")]
    append_events(game=game, events=events[: plays[5]], expected_seq=0, user=scorer)
    return game


def open_entry(browser, live_server, game, user, lang, width=1280):
    page = context_in(browser, live_server, lang, width, user).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/enter/")
    page.wait_for_selector("#entry[data-ready='1']")
    page.click("#tab-cards")
    return page


@pytest.mark.parametrize("lang", ["de", "uk"])
def test_the_entry_scripts_words_are_the_pages_language(browser, live_server, midhand, scorer, lang):
    page = open_entry(browser, live_server, midhand, scorer, lang)
    assert page.get_attribute("html", "lang") == lang
    english = english_words()
    assert left_over(page, ENTRY_PARTS, lang, english) == []
    # a refused pick: the hint is the script's sentence around the engine's reason
    page.evaluate("() => localStorage.setItem('tichu-entry:quick-play', 'off')")
    state = engine.fold(
        {
            "variant": "nanking",
            "players": PLAYERS,
            "events": [e.as_record_event() for e in Event.objects.filter(game=midhand).order_by("seq")],
        }
    )
    hand = state.hand.cards[state.turn]
    singles = [c for c in hand if len(c) == 2]
    pair = next(((a, b) for a in singles for b in singles if a[0] != b[0]), None)
    assert pair is not None
    page.reload()
    page.wait_for_selector("#entry[data-ready='1']")
    page.click("#tab-cards")
    for card in pair:
        page.click(f".seat-box.turn .pick[data-card='{card}']")
    page.wait_for_function("() => document.getElementById('play-hint').textContent !== ''")
    hint = page.text_content("#play-hint")
    assert not hint.startswith("Not a legal play"), hint
    assert not page.get_attribute("#undo", "title").startswith("Undo")  # "Undo #12 (…) — key u", in words
    assert left_over(page, ENTRY_PARTS + ["#play-hint"], lang, english) == []
    assert not page.errors


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["de", "uk"])
def test_the_entry_page_mid_hand_holds_its_layout(browser, live_server, midhand, scorer, lang, width):
    page = open_entry(browser, live_server, midhand, scorer, lang, width)
    result = page.evaluate(OUTSIDE_JS)
    assert result["pageScroll"] <= 0 and result["outside"] == [], result
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"entry-midhand-{lang}-{width}.png"), full_page=True)


@pytest.fixture
def replay_game(live_server):
    club = Club.objects.create(name="Club de Lyon", slug="lyon", visibility=Club.Visibility.PUBLIC)
    return import_game(club, bot_record(1))


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", ["de", "uk"])
def test_the_replay_scripts_words_are_the_pages_language(browser, live_server, replay_game, lang, width):
    page = context_in(browser, live_server, lang, width).new_page()
    page.goto(f"{live_server.url}/games/{replay_game.pk}/replay/?at=40")
    page.wait_for_selector("#replay[data-ready='1']")
    english = english_words()
    hands = page.evaluate("() => window.tichuReplay.targets(0).next_hand")
    for key in ["ArrowRight", "ArrowRight", "PageDown", "ArrowRight"]:  # the script draws every part now
        page.keyboard.press(key)
    page.wait_for_function("(n) => window.tichuReplay.at > n", arg=hands)
    assert left_over(page, REPLAY_PARTS, lang, english) == []
    result = page.evaluate(OUTSIDE_JS)  # the script's seat lines in the longer languages
    assert result["pageScroll"] <= 0 and result["outside"] == [], result
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-stepped-{lang}-{width}.png"), full_page=True)
    page.keyboard.press("End")  # the game's end: its last line, "Game over"
    page.wait_for_function("() => window.tichuReplay.at === window.tichuReplay.frames.length - 1")
    assert left_over(page, REPLAY_PARTS + ["#game-over"], lang, english) == []
    slider = page.get_attribute("#slider", "aria-valuetext")
    assert slider and not slider.startswith("event"), slider
    page.click("#nav-play")
    assert page.text_content("#nav-play") not in ("pause ❚❚", "play ▶")
    assert not page.errors


def test_the_switcher_keeps_the_position_the_script_moved_to(browser, live_server, replay_game):
    page = context_in(browser, live_server, "en-GB").new_page()
    page.goto(f"{live_server.url}/games/{replay_game.pk}/replay/?at=10")
    page.wait_for_selector("#replay[data-ready='1']")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === '13'")
    assert "Trick" in page.inner_text("#table") or "Hand" in page.inner_text("#panel")
    page.select_option("#language-select", "de")
    page.wait_for_selector("html[lang='de']")
    page.wait_for_selector("#replay[data-ready='1']")
    assert parse_qs(urlsplit(page.url).query)["at"] == ["13"]
    assert page.evaluate("() => window.tichuReplay.at") == 13
    page.keyboard.press("ArrowRight")  # the script draws in German now
    page.wait_for_function("() => window.tichuReplay.at === 14")
    assert left_over(page, REPLAY_PARTS, "de", english_words()) == []


@pytest.mark.parametrize("lang", ["de", "uk"])
def test_tien_zi_ques_replay_table_in_the_pages_language(browser, live_server, lang):
    """The script's Tien Zi Que table (stock, discard pile, score piles, combinations, totals)."""
    from tests.replay.test_tzq_replay import tzq_record

    club = Club.objects.create(name="TZQ", slug="tzq", visibility="public")
    game = import_game(club, tzq_record())
    page = context_in(browser, live_server, lang).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=28")
    page.wait_for_selector("#replay[data-ready='1']")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.tichuReplay.at === 31")
    names = page.evaluate(
        "() => window.tichuReplay.frames.length && [...document.querySelectorAll('#tzq .who')].map((e) => e.textContent)"
    )
    english = english_words()
    left = [w for w in left_over(page, ["#tzq"], lang, english) if w not in " ".join(names)]
    assert left == [], left
    assert not page.errors


#: A phone's screen height (tests/browser/test_phone_layout.py)
PHONE_HEIGHT = 780
#: Named as players often are: the bar's phase line names the player to act.
LONG_NAMES = ["Bohdan", "Halyna", "Dieter", "Chloé"]

#: The phase line, whole or clipped: what the bar shows, whether any of it is cut off (wider or
#: taller than its box), and the bar's height.
BAR_JS = """() => {
  const where = document.querySelector('.entry-bar .where'), bar = document.querySelector('.entry-bar');
  return {text: where.textContent.trim(), clipped: where.scrollWidth > where.clientWidth || where.scrollHeight > where.clientHeight,
          ellipsis: getComputedStyle(where).textOverflow === 'ellipsis' && where.scrollWidth > where.clientWidth,
          height: bar.getBoundingClientRect().height, bottom: bar.getBoundingClientRect().bottom,
          buttons: ['undo', 'refresh'].map(id => Math.round(document.getElementById(id).getBoundingClientRect().top))};
}"""


def _first_at(record: dict, phase: str, after: int = 0) -> int:
    """The first number of events after which the game is in ``phase``."""
    replay = engine.Replay(record)
    return next(
        n
        for n in range(after + 1, len(record["events"]) + 1)
        if engine.state_json(replay.state_at(n))["phase"] == phase
    )


def _bar_games(scorer) -> dict[str, Game]:
    """Games at the moments the bar's phase line is longest: a deal, a play, a Dragon's trick to
    give, between hands, and a Tien Zi Que round."""
    club = scorer.memberships.get().club
    record = engine.random_game(1)
    at = {
        "deal": 5,
        "play": _first_at(record, "play"),
        "dragon_gift": _first_at(record, "dragon_gift"),
        "between_hands": _first_at(record, "between_hands", after=1),
    }
    games = {}
    for name, n in at.items():
        body = game_create(club=club, variant="nanking", options=None, players=LONG_NAMES, user=scorer).body
        games[name] = Game.objects.get(pk=body["id"])
        append_events(game=games[name], events=record["events"][:n], expected_seq=0, user=scorer)
    tzq = engine.random_game(3, variant="tien-zi-que", players=LONG_NAMES[:2])
    body = game_create(
        club=club, variant="tien-zi-que", options=tzq["options"], players=LONG_NAMES[:2], user=scorer
    ).body
    games["tzq"] = Game.objects.get(pk=body["id"])
    append_events(
        game=games["tzq"], events=tzq["events"][: _first_at(tzq, "drawn", after=8)], expected_seq=0, user=scorer
    )
    return games


@pytest.mark.parametrize("lang", ["uk", "de"])
def test_the_bars_phase_line_is_read_whole_on_a_phone(browser, live_server, scorer, lang):
    """At 360 px in the longest languages the sticky bar's phase line (who is to act, in which
    phase) wraps instead of ending in "…" (it did in German and Ukrainian), and the bar stays small
    enough to leave the acting seat's cards on the screen (tests/browser/test_entry_live.py
    measures those); Undo and Refresh stay on one row, also beside a long retraction on a laptop.
    Screenshots of the bar at 360 and 1280 px."""
    games = _bar_games(scorer)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (360, 1280):
        context = context_in(browser, live_server, lang, width, scorer)
        page = context.new_page()
        for name, game in games.items():
            page.goto(f"{live_server.url}/games/{game.pk}/enter/")
            page.wait_for_selector("[data-ready='1']")
            bar = page.evaluate(BAR_JS)
            assert "…" not in bar["text"] and not bar["clipped"] and not bar["ellipsis"], (lang, width, name, bar)
            if width < 500:  # short lines beside the buttons: an eighth of a phone's screen at most
                assert bar["height"] <= PHONE_HEIGHT / 8, (lang, width, name, bar)
            assert len(set(bar["buttons"])) == 1, (lang, width, name, bar)  # Undo and Refresh on one row
            page.screenshot(
                path=str(SHOTS / f"entry-bar-{name}-{lang}-{width}.png"),
                clip={"x": 0, "y": 0, "width": width, "height": bar["bottom"] + 60},
            )
        assert not page.errors
        context.close()
