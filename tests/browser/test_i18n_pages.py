"""The website's pages in French, German and Ukrainian (issue #21 items 1 and 4): each page, opened
by a browser whose Accept-Language asks for the language, has no English left over, and at phone
width (360 px) in the longest languages nothing is wider than the screen. Screenshots in
.ci/out/screenshots/languages/.

"English left over" is decided from the catalogues themselves: a word of the English sources
(locale/fr/LC_MESSAGES/django.po's msgids) that no French or German translation uses. In Ukrainian
any word in Latin letters is left over. Proper names are allowed: the club's, players' and users'
names, and the few words every language writes alike (ALLOWED)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import available_timezones

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.test import APIClient

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games import engine
from games.clubs import services as club_services
from games.models import Club, ImportJob, Membership, Player
from games.ratings import services as rating_services
from games.ratings.adapters import HAND_SD
from games.ratings.types import GameResult
from games.tournaments.models import Bracket, EntryPin, Season, SeasonEvent, TableCode, TableGame, Tournament
from games.tournaments.table_codes import printed
from replay import frames
from replay.templatetags.replay_tags import game_label
from tests.browser.test_phone_layout import OUTSIDE_JS
from tests.replay.conftest import bot_record, import_game
from tests.replay.test_tzq_replay import tzq_record
from tests.tournament_api.test_api import append, create, pair_next_round, play_round, register_pairs
from tests.tournament_api.test_table_codes import finish_table, with_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / ".ci" / "out" / "screenshots" / "languages"
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœß]+")
#: Written alike in every language: the game's name, the rating system's, file formats, the
#: language names of the switcher, abbreviations the translations keep, the platform BSW is (its
#: house rules name it).
ALLOWED = {
    "tichu",
    "elo",
    "api",
    "json",
    "csv",
    "pdf",
    "html",
    "utc",
    "qr",
    "buchholz",
    "english",
    "français",
    "deutsch",
    "k",
    "dtm",
    "javascript",
    "brettspielwelt",
    "iana",
}
#: A time zone's IANA name (the league settings' example, "Europe/Kyiv") is written alike in every
#: language: a whole name of the tz database is left out of the words checked.
ZONE_NAME = re.compile(r"\b[A-Z][A-Za-z_]*(?:/[A-Za-z0-9_+-]+)+")
ZONES = available_timezones()
#: Left out of the check: code (slugs, the rating model's name), keys as the keyboard writes them
#: (the entry page's card codes), and links written out for copying or printing (an invitation's,
#: a table card's) with the table-code form's example code.
NOT_CHECKED = ["code", "kbd", ".invitation-link", ".code-card .url", "input#code"]
#: Ukrainian keyboards label these keys in Latin letters (the replay's titles name them), and the
#: replay's single-letter shortcuts are letters of that keyboard.
UK_KEYS = {"home", "end", "page", "up", "down", "shift", "enter", "esc", "tab"}
NAMES = ["Anna", "Bohdan", "Chloé", "Dieter", "Emma", "Franz", "Halyna", "Inès", "Jonas"]


def english_words() -> set[str]:
    """Words of the English sources that no French or German translation uses."""
    source, translated = set(), set()
    for lang in ("fr", "de"):
        for e in polib.pofile(str(REPO / "locale" / lang / "LC_MESSAGES" / "django.po")):
            source |= {w.lower() for w in WORD.findall(re.sub(r"<[^>]+>|%\(\w+\)[sd]", " ", e.msgid))}
            for text in [e.msgstr, *e.msgstr_plural.values()]:
                translated |= {w.lower() for w in WORD.findall(text)}
    return {w for w in source - translated if len(w) > 2}


def tournament_in_progress(admin) -> dict:
    """Four pairs, round 1 played and its results taken, round 2 published with its games, table
    codes and its clock started, table 2's result sent and disputed (tests/tournament_api's helpers, over the API
    as the director's and the tables' pages do)."""
    api = APIClient()
    api.force_authenticate(admin)
    tid = create(api, club="lyon")["id"]
    register_pairs(api, tid)
    pair_next_round(api, tid)
    play_round(api, tid, 1, {1: (70, 30), 2: (45, 55)})
    assert (
        append(api, tid, [{"type": "round_closed", "round": 1}], Tournament.objects.get(pk=tid).seq).status_code == 201
    )
    pair_next_round(api, tid)
    games = {g["table"]: g["game"] for g in api.post(f"/api/tournaments/{tid}/rounds/2/games/").json()}
    # the director has started round 2's clock (its words on the director's, projector and tables' pages)
    clock = [{"type": "round_clock_started", "round": 2, "minutes": 60}]
    assert append(api, tid, clock, Tournament.objects.get(pk=tid).seq).status_code == 201
    rows = api.get(f"/api/tournaments/{tid}/rounds/2/codes/").json()
    codes = {c["table"]: c["printed"] for c in rows}
    pins = {c["table"]: c["pins"] for c in rows}
    # table 2 has played, sent its result, and the other side disputes it (the reason: a score)
    table2, url = with_code(codes[2]), f"/api/games/{games[2]}/tournament-table/"
    finish_table(table2, games[2])
    assert table2.post(url, {"action": "record", "pin": pins[2]["ns"]}, format="json").status_code == 201
    assert (
        table2.post(url, {"action": "dispute", "reason": "60:40", "pin": pins[2]["ew"]}, format="json").status_code
        == 201
    )
    played = TableGame.objects.filter(tournament_id=tid, round=1).values_list("game_id", flat=True).first()
    # a duplicate tournament with its first round paired, and one with its entries registered only
    duplicate = create(
        api,
        club="lyon",
        header={"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 3},
    )["id"]
    register_pairs(api, duplicate)
    pair_next_round(api, duplicate)
    registered = create(api, club="lyon")["id"]
    register_pairs(api, registered)
    return {
        "id": tid,
        "game": games[1],
        "disputed": games[2],
        "played": played,
        "code": codes[1],
        "duplicate": duplicate,
        "registered": registered,
        **other_tournaments(api),
    }


def other_tournaments(api) -> dict:
    """A finished tournament (one round played, closed, the tournament finished), an individual
    tournament and a round robin, each with its first round paired."""
    finished = create(
        api,
        club="lyon",
        header={"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 1, "hands_per_round": 1},
    )["id"]
    register_pairs(api, finished)
    pair_next_round(api, finished)
    play_round(api, finished, 1, {1: (80, 20), 2: (35, 65)})
    done = [{"type": "round_closed", "round": 1}, {"type": "tournament_finished"}]
    assert append(api, finished, done, Tournament.objects.get(pk=finished).seq).status_code == 201
    individual = create(
        api, club="lyon", header={"entrants": "individuals", "system": "individual", "scoring": "dtm", "rounds": 2}
    )["id"]
    entries = [{"type": "entry_registered", "entry": f"i{n}", "players": [name]} for n, name in enumerate(NAMES[:8])]
    assert append(api, individual, entries, 0).status_code == 201
    pair_next_round(api, individual)
    round_robin = create(
        api,
        club="lyon",
        header={"entrants": "pairs", "system": "round_robin", "scoring": "round_vp", "hands_per_round": 1},
    )["id"]
    register_pairs(api, round_robin)
    pair_next_round(api, round_robin)
    return {"finished": finished, "individual": individual, "round_robin": round_robin}


@pytest.fixture
def site(live_server, settings):
    """A club with a game, a roster, an admin, a league with ranked and unranked players, a
    tournament in progress, an invitation pending and an import job."""
    club = Club.objects.create(name="Club de Lyon", slug="lyon", visibility=Club.Visibility.PUBLIC)
    game = import_game(club, bot_record(1))
    _, games = synthetic_history(40, 8, seed=3)
    shift = datetime.now(timezone.utc).timestamp() - max(g.finished_at for g in games) - 3600
    games = [
        GameResult(
            g.game_id,
            g.finished_at + shift,
            g.teams,
            g.scores,
            g.winner,
            g.hands,
            g.variant,
            hand_details=g.hand_details,
        )
        for g in games
    ]
    ids = sorted({p for g in games for p in g.players}, key=str)
    late = datetime.now(timezone.utc) - timedelta(minutes=30)
    games += [
        GameResult(f"new-{k}", late.timestamp() + 60 * k, ((ids[0], "Jonas"), (ids[1], ids[2])), (450.0, 550.0), 1, 4)
        for k in range(2)
    ]
    load_history(club, games, names={**dict(zip(ids, NAMES)), "Jonas": "Jonas"})
    rating_services.recompute_club(club.pk)
    admin = get_user_model().objects.create_user(username="anna", password="pw-anna-1234")
    Membership.objects.create(club=club, user=admin, role="admin")
    player = Player.objects.filter(club=club, name="Anna").first()
    tzq = import_game(club, tzq_record())
    invitation = club_services.invitation_create(club=club, actor=admin, role="scorer", note="Halyna")
    ImportJob.objects.create(club=club, files_total=10, files_done=6, files_skipped=1, files_failed=1, games_stored=6)
    settings.TICHU_OPEN_SIGNUP = True
    tournament = tournament_in_progress(admin)
    return {
        "club": club,
        "game": game,
        "admin": admin,
        "player": player,
        "tzq": tzq,
        "tournament": tournament,
        "season": season_of(admin, tournament["id"]),
        "bracket": bracket_of(admin),
        "invitation": invitation,
    }


def season_of(admin, tid: int) -> int:
    """A season scored by a table of points, its evening added, removed with a reason and added
    again (its history, its table and its download links on the page)."""
    api = APIClient()
    api.force_authenticate(admin)
    header = {"scoring": "table", "points_table": [10, 6, 3, 1], "best": 3, "min_evenings": 1}
    sid = api.post("/api/clubs/lyon/seasons/", {"name": "Saison", "header": header}, format="json").json()["id"]
    events = [
        {"type": "evening_added", "tournament": tid},
        {"type": "evening_removed", "tournament": tid, "reason": "erreur"},
        {"type": "evening_added", "tournament": tid},
    ]
    for seq, event in enumerate(events):
        added = api.post(f"/api/seasons/{sid}/events/", {"expected_seq": seq, "events": [event]}, format="json")
        assert added.status_code == 201, added.json()
    return sid


def bracket_of(admin) -> int:
    """A knockout bracket of five roster players, seeded by hand, with a consolation bracket: its
    byes, its matches to be decided and the TD's forms on the page."""
    api = APIClient()
    api.force_authenticate(admin)
    header = {"best_of": 3, "hands": 4, "consolation": True}
    bid = api.post("/api/clubs/lyon/brackets/", {"name": "Coupe", "header": header}, format="json").json()["id"]
    roster = list(Player.objects.filter(club__slug="lyon").order_by("pk").values_list("pk", flat=True))[:5]
    entries = [{"entry": f"e{i}", "players": [p]} for i, p in enumerate(roster)]
    seeded = {"type": "bracket_seeded", "entries": entries, "by": "hand"}
    added = api.post(f"/api/brackets/{bid}/events/", {"expected_seq": 0, "events": [seeded]}, format="json")
    assert added.status_code == 201, added.json()
    return bid


def pages(site) -> list[str]:
    """The site's pages, the two games' pages (players, house rules, score sheet) among them."""
    slug = site["club"].slug
    return [
        "/",
        "/clubs/",
        "/enter/",
        f"/clubs/{slug}/",
        f"/clubs/{slug}/players/",
        f"/clubs/{slug}/members/",
        f"/clubs/{slug}/history/",
        f"/clubs/{slug}/league/",
        f"/clubs/{slug}/league/settings/",
        f"/players/{site['player'].pk}/",
        f"/clubs/{slug}/tournaments/",
        "/new-club/",
        f"/clubs/{slug}/tournaments/new/",
        f"/games/{site['game'].pk}/",
        f"/games/{site['tzq'].pk}/",
        f"/clubs/{slug}/imports/",
        f"/invitations/{site['invitation'].token}/",
        *tournament_pages(site),
        *account_pages(),
    ]


def tournament_pages(site) -> list[str]:
    """A tournament in progress: its page (round 2 published), standings and crosstable, the
    projector, the round's printouts, the table-code form, a table's result page (taken, and its
    game not over); a duplicate tournament's pages; the pairing page of one not yet paired; a
    finished one's, an individual one's and a round robin's pages (other_tournament_pages)."""
    t = f"/tournaments/{site['tournament']['id']}"
    return [
        f"{t}/",
        f"/clubs/lyon/seasons/{site['season']}/",
        f"/clubs/lyon/brackets/{site['bracket']}/",
        f"{t}/standings/",
        f"{t}/projector/",
        f"{t}/rounds/2/cards/",
        f"{t}/rounds/2/pairings/",
        f"{t}/rounds/2/sheets/",
        "/t/",
        "/t/?code=nonsense",
        f"/games/{site['tournament']['played']}/enter/result/",
        f"/games/{site['tournament']['game']}/enter/result/",
        f"/games/{site['tournament']['disputed']}/enter/result/",
        f"/tournaments/{site['tournament']['duplicate']}/",
        f"/tournaments/{site['tournament']['duplicate']}/duplicate/",
        f"/tournaments/{site['tournament']['duplicate']}/rounds/1/sheets/",
        f"/tournaments/{site['tournament']['registered']}/",
        f"/tournaments/{site['tournament']['registered']}/pair/",
        *other_tournament_pages(site),
    ]


def other_tournament_pages(site) -> list[str]:
    """A finished tournament's pages (its page, standings, projector, its round's printouts), an
    individual tournament's and a round robin's own pages (and their first round's printouts)."""
    finished, individual, round_robin = (
        f"/tournaments/{site['tournament'][k]}" for k in ("finished", "individual", "round_robin")
    )
    return [
        f"{finished}/",
        f"{finished}/standings/",
        f"{finished}/projector/",
        f"{finished}/rounds/1/pairings/",
        f"{finished}/rounds/1/sheets/",
        f"{finished}/results/",
        f"{individual}/",
        f"{individual}/standings/",
        f"{individual}/results/",
        f"{individual}/rounds/1/pairings/",
        f"{individual}/rounds/1/sheets/",
        f"{individual}/rounds/1/cards/",
        f"{round_robin}/",
        f"{round_robin}/standings/",
        f"{round_robin}/rounds/1/pairings/",
        f"{round_robin}/rounds/1/sheets/",
    ]


def account_pages() -> list[str]:
    """The account pages a signed-in user opens (a bad reset link shows its own page)."""
    return [
        "/accounts/",
        "/accounts/password/",
        "/accounts/password/changed/",
        "/accounts/password/reset/",
        "/accounts/password/reset/sent/",
        "/accounts/password/reset/MQ/bad-token/",
        "/accounts/password/reset/done/",
    ]


def signed_out_pages(site) -> list[str]:
    """Pages as a visitor sees them: sign in, sign up, an invitation's sign-up form, a table's
    code opening its game's entry page, a password reset link's new-password form."""
    admin = site["admin"]
    reset = f"/accounts/password/reset/{urlsafe_base64_encode(force_bytes(admin.pk))}/{default_token_generator.make_token(admin)}/"
    return [
        "/accounts/sign-in/",
        "/accounts/sign-up/",
        f"/invitations/{site['invitation'].token}/",
        f"/t/{site['tournament']['code']}/",
        reset,
    ]


#: game_pages' screenshots by name (the games' ids differ from run to run)
GAME_PAGE_NAMES = ["replay-end", "replay-trick", "enter", "new-game", "tzq-replay", "tzq-enter"]


def game_pages(site) -> list[str]:
    """The replay (its end, and a trick on the table), the entry pages and the new-game form."""
    game, tzq = site["game"].pk, site["tzq"].pk
    return [
        f"/games/{game}/replay/",
        f"/games/{game}/replay/?at=40",
        f"/games/{game}/enter/",
        f"/clubs/{site['club'].slug}/new-game/",
        f"/games/{tzq}/replay/?at=30",
        f"/games/{tzq}/enter/",
    ]


def signed_in(browser, live_server, user, lang: str, width: int = 1280, scripts: bool = True):
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        locale=lang,
        is_mobile=width < 500,
        has_touch=width < 500,
        java_script_enabled=scripts,
    )
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": live_server.url}])  # fmt: skip
    return context.new_page()


def page_words(page) -> list[str]:
    """The words a reader meets: the title, the text shown and what screen readers say (text
    hidden from the eye, .vh, and the titles, labels and placeholders), code and keys aside."""
    text = page.evaluate(
        """(skip) => {
      const body = document.body.cloneNode(true);
      body.querySelectorAll(skip.join(',') + ',script,style').forEach(el => el.remove());
      const titles = [...document.querySelectorAll('[title],[aria-label],[placeholder]')]
        .filter(el => !el.closest(skip.join(',')))
        .map(el => [el.title, el.getAttribute('aria-label'), el.placeholder].filter(Boolean).join(' '));
      document.body.appendChild(body); body.style.position = 'absolute'; body.style.left = '-99999px';
      const shown = body.innerText; body.remove();
      return [document.title, shown, ...titles].join(' ');
    }""",
        NOT_CHECKED,
    )
    return WORD.findall(ZONE_NAME.sub(lambda m: " " if m.group(0) in ZONES else m.group(0), text))


def test_urls_are_the_sites(site, live_server):
    """The pages listed exist (a renamed URL fails here, not as a page of 404 text)."""
    client = Client()
    client.force_login(site["admin"])
    for path in pages(site):
        assert client.get(path).status_code == 200, path
    visitor = Client()
    for path in signed_out_pages(site):
        assert visitor.get(path, follow=True).status_code == 200, path
    assert 'name="new_password1"' in visitor.get(signed_out_pages(site)[-1], follow=True).content.decode(), (
        "the reset link is valid: its page is the new-password form"
    )


def left_over(page, live_server, site, paths: list[str], lang: str, ready: bool = False) -> dict[str, list[str]]:
    """The words of each page that are English left over in ``lang`` (``ready``: once the page's
    scripts have read the game and drawn it)."""
    english = english_words()
    names = {w.lower() for n in Player.objects.values_list("name", flat=True) for w in WORD.findall(n)}
    names |= {w.lower() for w in WORD.findall(site["club"].name + " " + site["admin"].username)}
    names |= {w.lower() for n in Tournament.objects.values_list("name", flat=True) for w in WORD.findall(n)}
    # a season's and a bracket's names and the reasons its TD gave (the club's words, as a tournament's name)
    names |= {w.lower() for n in Bracket.objects.values_list("name", flat=True) for w in WORD.findall(n)}
    names |= {w.lower() for n in Season.objects.values_list("name", flat=True) for w in WORD.findall(n)}
    names |= {
        w.lower()
        for payload in SeasonEvent.objects.values_list("payload", flat=True)
        for w in WORD.findall(payload.get("reason", ""))
    }
    # the table codes (Latin letters in every language: a card prints them, the phone's header names its table's)
    names |= {w.lower() for c in TableCode.objects.values_list("code", flat=True) for w in WORD.findall(printed(c))}
    # and each side's PIN, on its slip (the same letters)
    names |= {
        w.lower()
        for row in TableCode.objects.values_list("ns_pin", "ew_pin")
        for pin in row
        for w in WORD.findall(printed(pin))
    }
    # the games' names are the engine's words (games/engine/registry.py labels, docs/glossary.md)
    names |= {w.lower() for v in HAND_SD for w in WORD.findall(game_label(v))}
    # and so are its combinations and calls ("Full House" in German, docs/glossary.md)
    names |= {
        w.lower()
        for kind in ("combinations", "calls")
        for text in frames.labels(lang)[kind].values()
        for w in WORD.findall(text)
    }
    # and the editions the presets follow, by their publishers' names ("Rio Grande", "TIKI", "Abacus")
    names |= {w.lower() for p in engine.PRESETS for w in WORD.findall(p.label)[:-1]}
    # and the cards' faces (what a card shows: "Drg", Tien Zi Que's "TZQ")
    faces = engine.page_words(lang, "tien-zi-que")["cards"].values()
    names |= {w.lower() for face in faces for w in WORD.findall(face["rank"])}
    allowed = ALLOWED | names | (UK_KEYS if lang == "uk" else set())
    left = {}
    for path in paths:
        page.goto(live_server.url + path)
        if ready:
            page.wait_for_function("() => !document.querySelector('[data-ready=\"0\"]')")
            page.wait_for_function("() => document.getAnimations().length === 0")
        assert page.get_attribute("html", "lang") == lang, path
        # and each entry's PIN for the evening, on its slip (issue 33): a late entry's is drawn as
        # the cards page is drawn, so they are read after it
        pins = {w.lower() for pin in EntryPin.objects.values_list("pin", flat=True) for w in WORD.findall(printed(pin))}
        words = [w for w in page_words(page) if w.lower() not in allowed | pins]
        found = sorted({w for w in words if (w.lower() in english if lang != "uk" else len(w) > 1)})
        if found:
            left[path] = found
    return left


@pytest.mark.parametrize("lang", ("fr", "de", "uk"))
def test_no_english_left_on_the_pages(browser, live_server, site, lang):
    page = signed_in(browser, live_server, site["admin"], lang)
    left = left_over(page, live_server, site, pages(site), lang)
    visitor = browser.new_context(locale=lang).new_page()
    left |= left_over(visitor, live_server, site, signed_out_pages(site), lang)
    assert left == {}, f"English left over in {lang}: {left}"


@pytest.mark.parametrize("lang", ("fr", "de", "uk"))
def test_no_english_left_in_the_game_pages_server_markup(browser, live_server, site, lang):
    """The replay, entry and new-game pages as the server draws them (scripts off: what a reader
    without scripts gets); as their scripts redraw them, the next test."""
    page = signed_in(browser, live_server, site["admin"], lang, scripts=False)
    left = left_over(page, live_server, site, game_pages(site), lang)
    assert left == {}, f"English left over in {lang}: {left}"


@pytest.mark.parametrize("lang", ("fr", "de", "uk"))
def test_no_english_left_in_the_game_pages_once_their_scripts_have_drawn(browser, live_server, site, lang):
    """The same pages as their scripts redraw them (the replay's seats, panel and sheet, the entry
    page's controls: djangojs.po and the engine's words), the scripts done before reading."""
    page = signed_in(browser, live_server, site["admin"], lang)
    left = left_over(page, live_server, site, game_pages(site), lang, ready=True)
    assert left == {}, f"English left over in {lang}: {left}"


@pytest.mark.parametrize("lang", ("uk", "de", "fr"))
def test_the_pages_fit_a_phone_in_each_language(browser, live_server, site, lang):
    member = signed_in(browser, live_server, site["admin"], lang, width=360)
    visitor = browser.new_context(
        viewport={"width": 360, "height": 900}, locale=lang, is_mobile=True, has_touch=True
    ).new_page()  # the signed-out pages
    SHOTS.mkdir(parents=True, exist_ok=True)
    paths = [(member, path) for path in pages(site) + game_pages(site)]
    for page, path in paths + [(visitor, path) for path in signed_out_pages(site)]:
        page.goto(live_server.url + path)
        result = page.evaluate(OUTSIDE_JS)
        assert result["pageScroll"] <= 0 and result["outside"] == [], (lang, path, result)
        name = re.sub(r"[^\w]+", "-", path.strip("/")) or "home"
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-360.png"), full_page=True)


@pytest.mark.parametrize("lang", ("de", "uk"))
def test_the_game_pages_at_a_phone_and_a_laptop(browser, live_server, site, lang):
    """The replay, entry and new-game pages in the longest languages at 390 px (nothing wider than
    the screen) and 1280 px; screenshots of both for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (390, 1280):
        page = signed_in(browser, live_server, site["admin"], lang, width=width)
        for path, name in zip(game_pages(site), GAME_PAGE_NAMES):
            page.goto(live_server.url + path)
            # the entry pages' scripts have read the game's state (data-ready="1"), the replay's
            # seats have moved to their places
            page.wait_for_function("() => !document.querySelector('[data-ready=\"0\"]')")
            page.wait_for_function("() => document.getAnimations().length === 0")  # the seats in place
            result = page.evaluate(OUTSIDE_JS)
            assert result["pageScroll"] <= 0 and result["outside"] == [], (lang, width, path, result)
            page.screenshot(path=str(SHOTS / f"{name}-{lang}-{width}.png"), full_page=True)
        page.context.close()
