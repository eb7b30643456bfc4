"""The replay viewer in headless Chromium (tests/plugins/browser.py): stepping with keys and
buttons, deep links, history and the score sheet, checked against the engine at each position."""

from __future__ import annotations

import pytest

from games import engine
from tests.replay.conftest import bot_record, import_game
from tests.replay.dom import parse
from tests.replay.expect import DOM_VIEW_JS, engine_view, server_view, server_view_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_SEED = 1


@pytest.fixture
def game(live_server):
    from games.models import Club

    club = Club.objects.create(name="Open Table", slug="open-table")
    return import_game(club, bot_record(RECORD_SEED))


def open_replay(page, live_server, game, query=""):
    page.goto(f"{live_server.url}/games/{game.pk}/replay/{query}")
    page.wait_for_selector("#replay[data-ready='1']")


def shown(page) -> dict:
    return page.evaluate(DOM_VIEW_JS)


def at(page) -> int:
    return page.evaluate("() => window.tichuReplay.at")


def url_at(page) -> int:
    """The position in the address, once it has caught up with the table (single steps update it
    after a short delay)."""
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === String(window.tichuReplay.at)")
    return int(page.evaluate("() => new URLSearchParams(location.search).get('at')"))


def test_step_with_keys_and_buttons_matches_the_engine(page, live_server, game):
    record = bot_record(RECORD_SEED)
    open_replay(page, live_server, game, "?at=55")
    assert shown(page) == engine_view(record, 55)
    for expected in (56, 57, 58, 59, 60, 61, 62, 63):  # the end of the draw, the exchange, the first plays
        page.keyboard.press("ArrowRight")
        assert at(page) == expected == url_at(page)
        assert shown(page) == engine_view(record, expected)
    page.keyboard.press("ArrowLeft")
    assert shown(page) == engine_view(record, 62)
    # the event list of the hand follows, and a click on an event goes there
    assert page.get_attribute("#hand-log li.current", "data-at") == "62"
    assert page.text_content("#hand-log li.current").endswith(page.text_content("#event-text"))
    page.click("#hand-log li[data-at='40'] a")
    assert at(page) == 40 == url_at(page) and shown(page) == engine_view(record, 40)
    page.go_back()
    page.wait_for_function("() => window.tichuReplay.at === 62")
    page.click("#nav-next")
    page.click("#nav-next")
    assert shown(page) == engine_view(record, 64)
    page.click("#nav-prev")
    assert shown(page) == engine_view(record, 63)
    page.keyboard.press("j")
    page.keyboard.press("k")
    page.keyboard.press("k")
    assert shown(page) == engine_view(record, 62)


def test_trick_and_hand_jumps_land_where_the_engine_starts_them(page, live_server, game):
    record = bot_record(RECORD_SEED)
    replay = engine.Replay(record)
    open_replay(page, live_server, game, "?at=62")
    for key in ("ArrowDown", "ArrowDown", "Shift+ArrowRight"):
        before = at(page)
        page.keyboard.press(key)
        n = at(page)
        assert n > before
        state = engine.state_json(replay.state_at(n))
        assert len(state["trick_log"]) == 1 and not state["trick_log"][0].get("pass")  # a lead
        assert shown(page) == engine_view(record, n)
    page.keyboard.press("PageDown")
    n = at(page)
    assert record["events"][n - 1]["type"] == "shuffle"  # the next hand begins
    assert shown(page) == engine_view(record, n)
    page.click("#nav-prev-hand")
    assert at(page) == 1
    page.keyboard.press("End")
    assert shown(page) == engine_view(record, len(record["events"]))
    page.keyboard.press("Home")
    assert at(page) == 0 and shown(page) == engine_view(record, 0)
    page.click("#nav-last")
    assert at(page) == len(record["events"])
    assert page.get_attribute("#nav-next-trick", "aria-disabled") == "true"  # nothing after the end
    page.keyboard.press("ArrowDown")
    assert at(page) == len(record["events"])


def test_deep_link_back_button_and_slider(page, live_server, game):
    record = bot_record(RECORD_SEED)
    open_replay(page, live_server, game, "?at=1234&view=all")
    assert shown(page) == engine_view(record, 1234)
    page.keyboard.press("PageDown")  # a jump: a history entry
    jumped = at(page)
    assert jumped > 1234 and url_at(page) == jumped
    page.go_back()
    page.wait_for_function("() => window.tichuReplay.at === 1234")
    assert shown(page) == engine_view(record, 1234)
    page.go_forward()
    page.wait_for_function(f"() => window.tichuReplay.at === {jumped}")
    # the slider
    page.eval_on_selector(
        "#slider",
        "(el) => { el.value = 700; el.dispatchEvent(new Event('input')); el.dispatchEvent(new Event('change')); }",
    )
    assert at(page) == 700 == url_at(page)
    assert shown(page) == engine_view(record, 700)
    # reloading the address opens that exact moment (server-rendered, then the script takes over)
    page.reload()
    page.wait_for_selector("#replay[data-ready='1']")
    assert shown(page) == engine_view(record, 700)


def test_page_without_script_shows_the_position(browser, live_server, game):
    """Without the script the table, the panel and the score sheet so far (drawn by the script
    only) say so; the hand's events mark the position and the links still move through the game."""
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=1010")
        assert server_view(parse(page.content())) == server_view_at(1010)
        assert page.locator("#no-script-table").is_visible() and page.locator("#table .seat").count() == 0
        assert page.locator("#no-script-sheet").is_visible() and page.inner_text("#hand-log li.current").startswith(
            "1010. "
        )
        with page.expect_navigation():  # a link without the script: a new page
            page.click("#nav-next")
        assert server_view(parse(page.content())) == server_view_at(1011)
        assert "at=1011" in page.url
        for width in (1280, 390):  # the note and the links, no empty panel, nothing wider than the screen
            page.set_viewport_size({"width": width, "height": 900})
            assert not page.locator("#panel").is_visible()
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.screenshot(path=f".ci/out/screenshots/replay_no_script_{width}.png", full_page=True)
    finally:
        context.close()


def test_autoplay_speed_view_and_rotation(page, live_server, game):
    record = bot_record(RECORD_SEED)
    open_replay(page, live_server, game, "?at=10")
    page.select_option("#speed", "100")
    page.keyboard.press(" ")
    page.wait_for_function("() => window.tichuReplay.at >= 13")
    page.keyboard.press(" ")
    stopped = at(page)
    page.wait_for_timeout(300)
    assert at(page) == stopped
    assert shown(page) == engine_view(record, stopped)
    # a seat's view: the others' cards face down
    page.select_option("#view", "1")
    hands = shown(page)["hands"]
    expected = engine_view(record, stopped)["hands"]
    assert hands[1] == expected[1]
    assert all(hands[s] == ["?"] * len(expected[s]) for s in (0, 2, 3))
    assert "view=1" in page.url
    page.keyboard.press("v")  # next view: seat 2
    assert page.evaluate("() => document.querySelector('#view').value") == "2"
    # the viewed seat sits at the bottom; f turns the table by one seat
    bottom = lambda: page.evaluate(  # noqa: E731
        "() => Array.from(document.querySelectorAll('#table .seat')).find(s => s.style.top === '88%').dataset.seat"
    )
    assert bottom() == "2"
    page.keyboard.press("f")
    assert bottom() == "3"
    page.keyboard.press("?")
    assert page.evaluate("() => document.querySelector('#help').open")


def test_score_sheet_on_the_replay_matches_the_engine(page, live_server, game):
    record = bot_record(RECORD_SEED)
    score = engine.score_json(engine.fold(record))
    open_replay(page, live_server, game)
    assert shown(page)["sheet"] == [h["points"] for h in score["hands"]]
    assert shown(page)["totals"] == score["totals"]
    # the game page's sheet links into the replay at a hand's end
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("#score-sheet tr[data-hand='3'] td.total a >> nth=0")
    page.wait_for_selector("#replay[data-ready='1']")
    assert shown(page)["sheet"] == [h["points"] for h in score["hands"][:3]]
    assert shown(page) == engine_view(record, at(page))
    assert page.get_attribute("#hand-summary", "data-hand") == "3"  # the table shows the hand just finished
    page.keyboard.press("ArrowLeft")  # the hand's last play: the table is full again
    assert page.query_selector("#hand-summary") is None
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#hand-summary", "data-hand") == "3"


def test_cards_have_text_alternatives_and_specials_are_distinct(page, live_server, game):
    open_replay(page, live_server, game, "?at=57")
    labels = page.evaluate(
        "() => Array.from(document.querySelectorAll('#table .card')).map(c => c.getAttribute('aria-label'))"
    )
    assert len(labels) == 56 and all(labels)
    assert {"Mahjong (1)", "Dog", "Phoenix", "Dragon", "Ace of Jade", "10 of Swords"} <= set(labels)
    colours = page.evaluate("""() => Object.fromEntries(['su-j','su-s','su-p','su-r','sp-dragon','sp-phoenix','sp-dog','sp-mahjong']
        .map(c => [c, getComputedStyle(document.querySelector('#table .card.' + c)).backgroundColor + '/' +
                      getComputedStyle(document.querySelector('#table .card.' + c)).color]))""")
    assert len(set(colours.values())) == 8


def test_active_game_steps_with_hands_face_down(page, live_server):
    from games.models import Club

    club = Club.objects.create(name="Live", slug="live")
    record = dict(bot_record(RECORD_SEED), events=bot_record(RECORD_SEED)["events"][:80])
    game = import_game(club, record)
    open_replay(page, live_server, game, "?at=60")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
        n = at(page)
        view = shown(page)
        expected = engine_view(record, n)
        assert [len(h) for h in view["hands"]] == [len(h) for h in expected["hands"]]
        assert all(set(h) <= {"?"} for h in view["hands"])
        assert view["trick"] == expected["trick"] and view["totals"] == expected["totals"]
    page.select_option("#view", "all")  # asking for every hand changes nothing: the frames are masked
    assert all(set(h) <= {"?"} for h in shown(page)["hands"])


def test_back_after_scrubbing_the_slider_returns_where_the_scrub_began(page, live_server, game):
    open_replay(page, live_server, game, "?at=300")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # steps: the entry follows (302)
    page.eval_on_selector(
        "#slider",
        """(el) => { for (const v of [400, 500, 600]) { el.value = v;
        el.dispatchEvent(new Event('input')); } el.dispatchEvent(new Event('change')); }""",
    )
    assert at(page) == 600 == url_at(page)
    page.go_back()
    page.wait_for_function("() => window.tichuReplay.at === 302")
    assert url_at(page) == 302


def test_a_penalty_line_reads_the_same_after_stepping_onto_it(page, live_server):
    """The script redraws the sheet while stepping: it names the breach as the server does."""
    from games.models import Club
    from tests.replay.test_pages import penalty_record

    record = penalty_record()
    game = import_game(Club.objects.create(name="Open Table", slug="open-table"), record)
    end = len(record["events"])
    open_replay(page, live_server, game, f"?at={end - 1}")  # just before the penalty
    assert page.query_selector("#replay-sheet .penalty") is None
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => window.tichuReplay.at === {end}")
    assert page.inner_text("#replay-sheet .penalty") == f"(penalty: missed wish by {record['players'][1]})"
    assert shown(page) == engine_view(record, end)


def test_corrections_are_folded_away_and_a_toggle_shows_them(page, live_server):
    from games.models import Club
    from tests.replay.test_frames import record_with_corrections

    record, undone = record_with_corrections()
    game = import_game(Club.objects.create(name="Open Table", slug="open-table"), record)
    open_replay(page, live_server, game, "?at=60")
    assert page.is_hidden("#hand-log li[data-at='61']") and page.is_hidden("#hand-log li[data-at='62']")
    page.keyboard.press("ArrowRight")
    assert at(page) == 63 and shown(page) == engine_view(record, 63)
    page.keyboard.press("ArrowLeft")
    assert at(page) == 60
    page.check("#show-undone")
    # the list is drawn again by the server, its links carrying the setting (its key ends ":1")
    page.wait_for_selector("#hand-log[data-key$=':1']:not([aria-busy]) li[data-at='61']")
    assert page.is_visible("#hand-log li[data-at='61']")
    assert "line-through" in page.eval_on_selector(
        "#hand-log li[data-at='62'] a", "a => getComputedStyle(a).textDecorationLine"
    )
    page.keyboard.press("ArrowRight")
    assert at(page) == 61 and shown(page) == engine_view(record, 61)
    assert "undone=1" in page.url
    page.uncheck("#show-undone")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('undone')")
    # the legend explains the badges
    page.click("#legend summary")
    legend = page.inner_text("#legend")
    for words in ("called Tichu", "called Grand Tichu", "shuffled this hand", "went out first"):
        assert words in legend


def test_game_over_names_the_winners_in_plain_text(page, live_server, game):
    """Stepping onto the end writes the winners with textContent: "Anna & Clara", never "&amp;"."""
    record = bot_record(RECORD_SEED)
    end = len(record["events"])
    open_replay(page, live_server, game, f"?at={end - 1}")
    assert page.query_selector("#game-over") is None
    page.keyboard.press("End")
    page.wait_for_function(f"() => window.tichuReplay.at === {end}")
    text = page.inner_text("#game-over")
    assert "&amp;" not in text and " & " in text
    # the same words as the page the server renders at the end
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at={end}")
    page.wait_for_selector("#replay[data-ready='1']")
    assert page.inner_text("#game-over") == text


@pytest.mark.parametrize("lang", ["fr", "de", "uk"])
def test_the_replay_says_the_engines_sentences_in_the_readers_language(page, live_server, game, lang):
    """Accept-Language chooses the words: the sentence the page shows (drawn by the server, then
    by the script while stepping) is the engine's ``event_words`` for the same event in that
    language, and the page's card words are the engine's (json_script ``tichu-words``)."""
    from replay import frames
    from replay.frames.wording import frame_context

    record = bot_record(RECORD_SEED)
    said = frames.build(record, lang=lang).texts
    state = engine.new_game(record["variant"], record.get("options"), players=record["players"])
    after = {n: engine.state_json(s) for n, _e, s in engine.fold_steps(state, record["events"][:70])}
    page.set_extra_http_headers({"Accept-Language": lang})
    open_replay(page, live_server, game, "?at=62")
    words = page.evaluate("() => JSON.parse(document.getElementById('tichu-words').textContent)")
    assert words["lang"] == lang and words == engine.page_words(lang, record["variant"])
    for n in (62, 63, 64):
        if n > 62:
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"() => window.tichuReplay.at === {n}")
        event = record["events"][n - 1]
        engine_says = engine.event_words(event, record["players"], frame_context(event, after[n]), lang)
        page.wait_for_function("(t) => document.getElementById('event-text').textContent === t", arg=said[n])
        assert said[n].startswith(engine_says) and engine_says != engine.event_words(
            event, record["players"], frame_context(event, after[n])
        )


def seat_styles(page) -> dict[int, str]:
    return page.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#table .seat')).map(s => [s.dataset.seat, s.getAttribute('style')]))"
    )


def test_a_seats_view_hides_the_other_hands_and_sits_nearest(page, live_server, game):
    open_replay(page, live_server, game, "?at=70&view=2")
    state = engine.state_json(engine.Replay(bot_record(RECORD_SEED)).state_at(70))
    hands = shown(page)["hands"]
    assert hands[2] == state["hands"][2]
    for seat in (0, 1, 3):
        assert hands[seat] == ["?"] * len(state["hands"][seat])
    # the viewed seat sits nearest (bottom centre), the next to play on its right (counter-clockwise)
    style = seat_styles(page)
    assert "top:88" in style["2"] and "left:88" in style["3"]


def test_between_hands_the_table_shows_the_hand_just_finished(page, live_server, game):
    record = bot_record(RECORD_SEED)
    score = engine.score_json(engine.fold(record))
    ends = [i + 1 for i, e in enumerate(record["events"]) if e["type"] == "shuffle"][1:3]  # after hands 1 and 2
    for k, shuffle in enumerate(ends, start=1):
        open_replay(page, live_server, game, f"?at={shuffle - 1}")
        summary = page.locator("#hand-summary")
        assert summary.get_attribute("data-hand") == str(k)
        assert " / ".join(str(p) for p in score["hands"][k - 1]["points"]) in summary.inner_text()
        assert page.inner_text("#bombs").strip() == "–"
        page.keyboard.press("ArrowRight")  # the next hand is shuffled: the summary is gone
        assert at(page) == shuffle and page.locator("#hand-summary").count() == 0


def test_house_rule_direction_clockwise_seats_the_next_player_on_the_left(page, live_server):
    from games.models import Club

    record = engine.random_game(3, options={"direction": "clockwise"})
    game = import_game(Club.objects.create(name="Open Table", slug="open-table"), record)
    open_replay(page, live_server, game, "?at=100")
    style = seat_styles(page)
    assert "top:88" in style["0"] and "left:12" in style["1"] and "top:12" in style["2"] and "left:88" in style["3"]
    assert shown(page) == engine_view(record, 100)


def test_the_hand_log_is_the_servers_drawing_of_each_hand(page, live_server, game):
    """The event list has one drawing, the server's: a move into another hand asks the server for
    that hand's list (once), a step inside a hand asks nothing, and a change of view draws the
    list again with links that carry it."""
    data = replay_data_of(game)
    hands = data.marks["hands"]
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "part=hand-log" in r.url else None)
    open_replay(page, live_server, game, f"?at={hands[1] + 3}")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert asked == [], "a step inside the page's hand asks the server nothing"

    page.click("#nav-next-hand")
    start, end = hands[2], (hands[3] - 1 if len(hands) > 3 else data.length)
    page.wait_for_selector(f"#hand-log[data-key^='{start}:{end}:'] li.current")
    assert len(asked) == 1
    items = page.eval_on_selector_all("#hand-log li", "els => els.map(e => [+e.dataset.at, e.textContent])")
    assert [at for at, _ in items] == list(range(start, end + 1))
    assert [text for _, text in items] == [f"{k}. {data.texts[k]}" for k in range(start, end + 1)]
    assert page.get_attribute("#hand-log li.current", "data-at") == str(at(page)) == str(start)

    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#hand-log li.current[data-at='{start + 1}']")
    assert len(asked) == 1, "the marks move without asking again"

    page.select_option("#view", "2")
    page.wait_for_selector(f"#hand-log[data-key='{start}:{end}:2:2:0']")
    assert len(asked) == 2 and "view=2" in page.get_attribute(f"#hand-log li[data-at='{start}'] a", "href")
    assert page.get_attribute("#hand-log li.current", "data-at") == str(start + 1)


def replay_data_of(game):
    """The frames the page is drawn from, as the reader (a visitor of an open club) gets them."""
    from django.contrib.auth.models import AnonymousUser

    from games import visibility
    from replay.data import replay_data

    return replay_data(game, visibility.reader_sight(game, AnonymousUser()))
