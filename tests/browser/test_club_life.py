"""Club life in headless Chromium at phone (390 px) and laptop (1280 px) widths: the first
administrator to the first recorded hand, an invitation accepted by a newcomer who then scores,
signing out, a rename and a merge shown on the league and game pages, the API by slug.
Screenshots of each page land in .ci/out/screenshots/club_life/ (for looking at, not compared)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.engine import random_game
from games.models import Club, Event, Game, Membership, Player
from games.services import game_import

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
WIDTHS = [pytest.param(PHONE, id="phone"), pytest.param(LAPTOP, id="laptop")]
SHOTS = Path(__file__).resolve().parents[2] / ".ci" / "out" / "screenshots" / "club_life"


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(viewport):
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        return page

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def fits(page) -> bool:
    """Nothing wider than the screen (tables scroll inside their own box)."""
    return page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


def sign_in(page, base: str, username: str, password: str) -> None:
    page.goto(base + "/")
    page.click("#sign-in-link")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("#sign-in-form button[type=submit]")
    page.wait_for_selector("#sign-out-button")


def start_game_and_record_a_hand(page, names: list[str]) -> Game:
    page.click("#new-game-link")
    page.wait_for_selector("#new-game")
    for seat, name in enumerate(names):
        page.fill(f"#seat-{seat}-new", name)
    page.click("#create")
    page.wait_for_selector("#entry[data-ready='1']")
    page.check("#out-0-0")
    page.fill("#points-0", "60")
    page.wait_for_selector("#hand-check.ok")
    page.click("#save-hand")
    page.wait_for_selector("#entry[data-seq='1'][data-busy='0']", state="attached")
    return Game.objects.latest("id")


@pytest.mark.parametrize("viewport", WIDTHS)
def test_first_administrator_to_first_recorded_hand(new_page, live_server, monkeypatch, viewport):
    monkeypatch.setenv("TICHU_ADMIN_PASSWORD", "first admin pw")
    out = StringIO()
    call_command("create_admin", "--username", "boss", stdout=out)
    assert "/accounts/sign-in/" in out.getvalue()
    page = new_page(viewport)
    sign_in(page, live_server.url, "boss", "first admin pw")
    shot(page, "clubs")
    page.click("#create-club-link")
    page.fill("#id_name", "Tuesday Club")
    shot(page, "create-club")
    page.click("#club-create-form button[type=submit]")
    page.wait_for_selector("#invite-form")
    assert page.url.endswith("/clubs/tuesday-club/members/")
    assert fits(page)
    shot(page, "members")
    page.click("nav.club-links >> text=Games")
    game = start_game_and_record_a_hand(page, ["Ann", "Bob", "Cid", "Dee"])
    assert game.club.slug == "tuesday-club"
    assert [e.as_record_event() for e in Event.objects.filter(game=game)] == [
        {"type": "hand_result", "calls": {}, "out": [0], "points": [60, 40]}
    ]
    page.goto(live_server.url + "/clubs/tuesday-club/")
    row = page.locator(f"tr[data-game='{game.pk}']")
    assert " ".join(row.locator("td.sides").inner_text().split()) == "Ann & Cid vs Bob & Dee"
    assert row.locator("td.score").inner_text() == "60 : 40"
    assert "in play" in row.locator("td.status").inner_text()
    assert page.is_visible("#latest-evening")
    assert fits(page)
    shot(page, "club")
    assert not page.errors
    assert "/admin/" not in "".join(page.evaluate("() => [...document.querySelectorAll('a')].map(a => a.href)"))


@pytest.mark.parametrize("viewport", WIDTHS)
def test_an_invitation_accepted_by_a_newcomer_who_then_scores(new_page, live_server, settings, viewport):
    settings.TICHU_OPEN_SIGNUP = False  # joining by invitation works with sign-up off
    ada = get_user_model().objects.create_user("ada", password="ada's pw 123")
    club = Club.objects.create(name="Home", slug="home")
    Membership.objects.create(club=club, user=ada, role="admin")
    admin = new_page(viewport)
    sign_in(admin, live_server.url, "ada", "ada's pw 123")
    admin.goto(live_server.url + "/clubs/home/members/")
    admin.select_option("#id_role", "scorer")
    admin.fill("#id_note", "Bea")
    admin.click("#invite-form button[type=submit]")
    link = admin.locator("#invitations li[data-state=pending] a.invitation-link").first.inner_text()
    assert fits(admin)
    shot(admin, "invitation-made")

    newcomer = new_page(viewport)
    newcomer.goto(link)
    assert "Join Home" in newcomer.inner_text("h1")
    shot(newcomer, "invitation")
    newcomer.fill("#id_username", "bea")
    newcomer.fill("#id_password1", "bea's long pw")
    newcomer.fill("#id_password2", "bea's long pw")
    newcomer.click("#invitation-sign-up button[type=submit]")
    newcomer.wait_for_selector("#new-game-link")
    assert "Welcome to Home" in newcomer.inner_text(".messages")
    game = start_game_and_record_a_hand(newcomer, ["Ann", "Bob", "Cid", "Dee"])
    assert Event.objects.get(game=game).recorded_by.username == "bea"
    assert Membership.objects.get(club=club, user__username="bea").role == "scorer"
    admin.goto(live_server.url + "/clubs/home/history/")
    assert "joined the club as Scorer by invitation" in admin.inner_text("#history")
    assert not newcomer.errors and not admin.errors


def test_sign_out_from_any_page(new_page, live_server):
    get_user_model().objects.create_user("sam", password="sam's pw 123")
    Club.objects.create(name="Home", slug="home")
    page = new_page(PHONE)
    sign_in(page, live_server.url, "sam", "sam's pw 123")
    page.goto(live_server.url + "/clubs/home/")
    assert page.is_visible("#sign-out-button") and fits(page)
    shot(page, "signed-in-header")
    page.click("#sign-out-button")
    page.wait_for_selector("#sign-in-link")
    page.goto(live_server.url + "/accounts/")
    assert "/accounts/sign-in/" in page.url  # signed out: the account page asks to sign in


@pytest.mark.parametrize("viewport", [pytest.param(LAPTOP, id="laptop")])
def test_a_rename_and_a_merge_show_on_the_league_and_game_pages(new_page, live_server, viewport):
    ada = get_user_model().objects.create_user("ada", password="ada's pw 123")
    club = Club.objects.create(name="Home", slug="home")
    Membership.objects.create(club=club, user=ada, role="admin")
    first = game_import(club=club, record=random_game(1, players=["Ann", "Bob", "Cid", "Dee"]), user=ada).body["id"]
    second = game_import(club=club, record=random_game(2, players=["Anne", "Bob", "Cid", "Dee"]), user=ada).body["id"]
    page = new_page(viewport)
    sign_in(page, live_server.url, "ada", "ada's pw 123")
    page.goto(live_server.url + f"/games/{first}/")  # seen (and cached) under the old names first
    assert "Bob" in page.inner_text("main")
    page.goto(live_server.url + "/clubs/home/players/")
    bob = Player.objects.get(club=club, name="Bob")
    page.fill(f"#name-{bob.pk}", "Robert")
    page.click(f"tr[data-player='{bob.pk}'] form.rename button")
    page.wait_for_selector("text=Renamed to Robert.")
    anne, ann = Player.objects.get(club=club, name="Anne"), Player.objects.get(club=club, name="Ann")
    page.select_option("#merge-source", str(anne.pk))
    page.select_option("#merge-target", str(ann.pk))
    page.check("#merge-confirm")
    page.click("#merge-form button[type=submit]")
    page.wait_for_selector("text=Anne merged into Ann")
    shot(page, "roster")
    page.goto(live_server.url + f"/clubs/{club.pk}/league/")
    league = page.inner_text("main")
    assert "Robert" in league and "Ann" in league and "Anne" not in league and "Bob" not in league
    shot(page, "league")
    for game_id in (first, second):
        page.goto(live_server.url + f"/games/{game_id}/")
        text = page.inner_text("main")
        assert "Robert" in text and "Ann" in text and "Bob" not in text and "Anne" not in text
    page.goto(live_server.url + "/clubs/home/history/")
    history = page.inner_text("#history")
    assert "renamed the player “Bob” to “Robert”" in history and "merged the player “Anne” into “Ann”" in history
    shot(page, "history")
    assert not page.errors


def test_the_api_by_slug_from_the_browser(new_page, live_server):
    ada = get_user_model().objects.create_user("ada", password="ada's pw 123")
    club = Club.objects.create(name="Home", slug="home")
    Membership.objects.create(club=club, user=ada, role="admin")
    game_import(club=club, record=random_game(1, players=["Ann", "Bob", "Cid", "Dee"]), user=ada)
    page = new_page(PHONE)
    page.goto(live_server.url + "/clubs/home/")
    assert "home" in page.inner_text("p.meta code")  # the page tells the slug to use in the API
    got = page.evaluate("""async () => {
        const get = async (path) => (await fetch(path)).json();
        return [await get('/api/clubs/home/'), await get('/api/games/?club=home'), await get('/api/players/?club=home')];
    }""")
    club_json, games, players = got
    assert (club_json["id"], club_json["slug"]) == (club.pk, "home")
    assert games["count"] == 1 and games["results"][0]["club"] == club.pk
    assert sorted(p["name"] for p in players["results"]) == ["Ann", "Bob", "Cid", "Dee"]
    # a scorer creates a game naming the club by slug (session + CSRF, as the entry pages do)
    sign_in(page, live_server.url, "ada", "ada's pw 123")
    page.goto(live_server.url + "/clubs/home/")
    created = page.evaluate("""async () => {
        const csrf = document.querySelector('input[name=csrfmiddlewaretoken]').value;
        const r = await fetch('/api/games/', {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-CSRFToken': csrf}, body: JSON.stringify({club: 'home', variant: 'nanking', players: ['ann', 'Bob', 'Cid', 'Eve']})});
        return [r.status, await r.json()];
    }""")
    assert created[0] == 201, json.dumps(created)
    assert [s.player.name for s in Game.objects.get(pk=created[1]["id"]).seats.select_related("player")] == [
        "Ann",
        "Bob",
        "Cid",
        "Eve",
    ]
