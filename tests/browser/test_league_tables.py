"""The league and player pages in headless Chromium at phone (360, 390 px) and laptop (1280 px)
widths: both tables shown, the club's choice first, the predictive rating's range visible, the
unranked players listed with the games they need; the player page's charts, evenings and why
lines; nothing wider than the screen but the tables' own scroll boxes (the geometry check of
test_phone_layout). Screenshots in .ci/out/screenshots/league/."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games.models import Club, Player
from games.ratings import services
from games.ratings.types import GameResult
from tests.browser.target_sizes import problems
from tests.browser.test_phone_layout import check_fits
from tests.ratings.rules import set_league_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots" / "league"
WIDTHS = [360, 390, 1280]


@pytest.fixture
def club(db):
    club = Club.objects.create(name="League club with a longer name", slug="league-club")
    _, games = synthetic_history(60, 8, seed=3)
    # the history ends today, and a newcomer with two games (listed with "3 more games until ranked")
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
    late = datetime.now(timezone.utc) - timedelta(minutes=30)
    regulars = sorted({p for g in games for p in g.players}, key=str)[:3]
    games += [
        GameResult(
            f"new-{k}",
            late.timestamp() + 60 * k,
            ((regulars[0], "Newcomer Maximilian"), (regulars[1], regulars[2])),
            (450.0, 550.0),
            1,
            4,
        )
        for k in range(2)
    ]
    load_history(club, games, names={"Newcomer Maximilian": "Newcomer Maximilian"})
    services.recompute_club(club.pk)
    return club


@pytest.mark.parametrize("width", WIDTHS, ids=[f"w{w}" for w in WIDTHS])
def test_both_tables_in_the_clubs_order(browser, live_server, club, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        for leads, first in (("elo", "Elo table"), ("predictive", "Predictive rating")):
            set_league_rules(club, leads_with=leads)
            page.goto(live_server.url + f"/clubs/{club.slug}/league/")
            headings = page.locator("main h2").all_inner_texts()
            assert headings[0] == first and set(headings) == {"Elo table", "Predictive rating", "Partnerships"}
            assert page.locator("#league-elo tbody tr[data-player]").count() == 9
            assert page.locator("#league-predictive td.range").count() == 9
            assert page.locator("#league-predictive td.rating .pm").first.inner_text().startswith("± ")
            newcomer = page.locator("#league-elo tr.unranked", has_text="Newcomer Maximilian")
            assert "3 more games until ranked" in newcomer.inner_text()
            assert page.locator("#pairs tbody tr").count() > 0
            check_fits(page, f"league, {width} px")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"league-{leads}-{width}.png"), full_page=True)
        page.select_option("#period", "30d")
        with page.expect_navigation():
            page.click("#league-filters button")
        assert "period=30d" in page.url and page.locator("#league-elo tbody tr[data-player]").count() == 9
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS, ids=[f"w{w}" for w in WIDTHS])
def test_the_player_page(browser, live_server, club, width):
    regular = Player.objects.filter(club=club).exclude(name__startswith="Newcomer").order_by("id").first()
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(live_server.url + f"/players/{regular.pk}/")
        games = page.locator("#rating-chart circle.game").count()
        assert games > 10
        assert page.locator("#evenings-table tbody tr").count() >= 1
        assert page.locator("#rank-history svg.rank-chart polyline").count() >= 1
        why = page.locator("#recent td.why").first.inner_text()
        assert why.split()[0] in ("won", "lost", "drew") and "expected" in why and "predictive" in why
        assert "#" in page.locator("#standing").inner_text()
        chart = page.locator("#rating-chart svg").bounding_box()
        assert chart["width"] <= width and chart["x"] >= 0  # the chart shrinks to the screen
        check_fits(page, f"player, {width} px")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"player-{width}.png"), full_page=True)
        newcomer = Player.objects.get(club=club, name="Newcomer Maximilian")
        page.goto(live_server.url + f"/players/{newcomer.pk}/")
        assert "3 more games until ranked" in page.locator("#standing").inner_text()
        check_fits(page, f"newcomer, {width} px")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 1280], ids=["w360", "w1280"])
def test_the_admin_sets_the_clubs_time_zone(open_as, club, make_user, width):
    """The settings page's time zone: the zones offered as one types (a datalist), a typo refused
    beside the field with nothing saved, a real zone saved; the field fits a phone's width."""
    from games.models import Membership

    ada = make_user("ada")
    Membership.objects.create(club=club, user=ada, role="admin")
    page = open_as(ada, f"/clubs/{club.slug}/league/settings/", viewport={"width": width, "height": 900})
    try:
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        field = page.get_by_label("Time zone")
        assert field.input_value() == "UTC" and field.get_attribute("list") == "time-zones"
        assert page.locator("datalist#time-zones option[value='America/New_York']").count() == 1
        check_fits(page, f"league settings, {width} px")
        field.fill("Europe/Berln")
        with page.expect_navigation():
            page.click("#league-settings-form button[type=submit]")
        alert = page.locator(".has-error .field-errors").inner_text()
        assert "“Europe/Berln” is not a time zone this site knows" in alert
        club.refresh_from_db()
        assert club.time_zone == "UTC"
        page.get_by_label("Time zone").fill("Europe/Berlin")
        with page.expect_navigation():
            page.click("#league-settings-form button[type=submit]")
        assert page.url.endswith(f"/clubs/{club.slug}/league/")
        club.refresh_from_db()
        assert club.time_zone == "Europe/Berlin"
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [390, 1280], ids=["w390", "w1280"])
def test_the_admin_has_the_league_follow_the_tournaments_vp(open_as, club, make_user, width):
    """Issue 31 item 3: the settings form's "Count a tournament's VP" (off by default, said in its
    help text), ticked and saved; the league page then says in one sentence how a tournament game
    counts. The box is one a thumb can tick, and nothing leaves a phone's screen."""
    from games.models import Membership
    from games.ratings.league_rules import rules_of_club_id

    ada = make_user("ada")
    Membership.objects.create(club=club, user=ada, role="admin")
    page = open_as(ada, f"/clubs/{club.slug}/league/", viewport={"width": width, "height": 900})
    try:
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        assert "whatever its VP" in page.locator("#league-vp-rule").inner_text()
        page.goto(page.url + "settings/")
        box = page.get_by_label("Count a tournament's VP")
        assert not box.is_checked()
        assert "equal VP a draw" in page.locator("#league-settings-form").inner_text()
        size = box.bounding_box()
        assert size["width"] >= 24 and size["height"] >= 24, size
        check_fits(page, f"league settings, {width} px")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"league-settings-vp-{width}.png"), full_page=True)
        box.check()
        with page.expect_navigation():
            page.click("#league-settings-form button[type=submit]")
        assert page.url.endswith(f"/clubs/{club.slug}/league/")
        assert rules_of_club_id(club.pk).follows_tournament_vp
        said = page.locator("#league-vp-rule").inner_text()
        assert "counts as its VP say" in said and "equal VP are a draw" in said, said
        check_fits(page, f"league, {width} px")
        page.locator("#league-rules").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"league-vp-rule-{width}.png"))
        assert errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [390, 1280], ids=["w390", "w1280"])
def test_a_player_finds_themselves_and_taps_the_chart(browser, live_server, club, make_user, width):
    """Issue 39 item 3: "you" on both tables and the player page, the ranking rule and the "?" said
    in words on the league page, headers in words; on the player page a tap on the chart (a touch
    screen: no hover) says the nearest game's why line below it, and an evening's games are points
    of their own."""
    from django.conf import settings
    from django.test import Client

    regular = Player.objects.filter(club=club).exclude(name__startswith="Newcomer").order_by("id").first()
    me = make_user("me")
    Player.objects.filter(pk=regular.pk).update(user=me)
    client = Client()
    client.force_login(me)
    context = browser.new_context(viewport={"width": width, "height": 900}, has_touch=True)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(live_server.url + f"/clubs/{club.slug}/league/")
        for table in ("elo", "predictive"):
            mine = page.locator(f"#league-{table} tr.mine")
            assert (
                mine.count() == 1
                and regular.name in mine.inner_text()
                and "you" in mine.locator(".you-badge").inner_text()
            )
        assert "low end of the range" in page.locator("#ranking-rule").inner_text()
        assert "provisional" in page.locator("#question-predictive").inner_text()
        headers = page.locator("#league-predictive thead th").all_inner_texts()
        assert "Last game" in headers and "Double victories" in headers and "1-2" not in headers
        low = [
            float(t.split("–")[0].replace("−", "-"))
            for t in page.locator("#league-predictive tbody tr:not(.unranked) td.range").all_inner_texts()
        ]
        assert low == sorted(low, reverse=True)  # ranked by the range's low end
        check_fits(page, f"league as a player, {width} px")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"league-you-{width}.png"), full_page=True)

        page.goto(live_server.url + f"/players/{regular.pk}/")
        assert page.locator("h1 #you").is_visible()
        xs = [float(c.get_attribute("cx")) for c in page.locator("#rating-chart circle.game").all()]
        assert len(set(xs)) == len(xs), "every game a point of its own"
        assert page.locator("#chart-point").is_hidden()
        box = page.locator("#rating-chart svg").bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] * 0.995, box["y"] + box["height"] / 2)
        said = page.locator("#chart-point")
        assert said.is_visible() and any(w in said.inner_text() for w in ("won", "lost", "drew"))
        assert page.locator("#rating-chart circle.game.picked").count() == 1
        last_why = page.locator("#recent td.why").first.inner_text()
        assert last_why in said.inner_text()  # the right end of the chart: the latest game
        check_fits(page, f"player page as the player, {width} px")
        page.screenshot(path=str(SHOTS / f"player-you-{width}.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280], ids=["w390", "w1280"])
def test_the_player_pages_games_page_by_page(browser, live_server, club, width, monkeypatch):
    """A regular with more games than the page lists and the chart draws (games/ratings/
    player_view.py, cut to 8 and 16 here): the chart says it is thinned; the latest games first, "Older games" to the next page, "Newer games" back, each link a
    thumb's target (44 px); nothing wider than the screen."""
    from games.ratings import player_view

    monkeypatch.setattr(player_view, "LIST_GAMES", 8)
    monkeypatch.setattr(player_view, "CHART_POINTS", 16)  # and the chart thinned to 16 games
    regular = Player.objects.filter(club=club).exclude(name__startswith="Newcomer").order_by("id").first()
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(live_server.url + f"/players/{regular.pk}/")
        first = page.locator("#recent td.why").all_inner_texts()
        assert len(first) == 8
        assert page.locator("#newer-games").count() == 0
        assert 0 < page.locator("#rating-chart circle.game").count() <= 16
        assert page.locator("#chart-thinned").is_visible()
        with page.expect_navigation():
            page.click("#older-games")
        second = page.locator("#recent td.why").all_inner_texts()
        assert len(second) == 8 and page.locator("#games-h").inner_text() == "Older games"
        for link in page.locator("#games-pager a").all():
            box = link.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, link.inner_text()
        check_fits(page, f"player, older games, {width} px")
        assert problems(page) == [], "every target at least 24 px"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"player-older-{width}.png"), full_page=True)
        with page.expect_navigation():
            page.click("#newer-games")
        assert page.locator("#recent td.why").all_inner_texts() == first
        assert errors == []
    finally:
        context.close()
