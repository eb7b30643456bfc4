"""OpenAPI schema and Swagger UI, the admin pages, and the seed_demo command."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.engine import fold, score_json
from games.models import Club, Event, Game, Membership
from games.selectors import game_record
from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand

pytestmark = pytest.mark.django_db


def test_openapi_schema_documents_the_section_6_endpoints(anon):
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    paths = schema["paths"]
    for path in ["/api/games/", "/api/games/{id}/events/", "/api/games/{id}/state/", "/api/games/{id}/score/",
                 "/api/games/{id}/record/", "/api/games/import/", "/api/clubs/", "/api/players/"]:  # fmt: skip
        assert path in paths, path
    append = paths["/api/games/{id}/events/"]["post"]
    assert {"201", "409", "422", "400", "401", "403"} <= set(append["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in append["parameters"])
    assert any(p["name"] == "at" for p in paths["/api/games/{id}/state/"]["get"]["parameters"])
    filters = {p["name"] for p in paths["/api/games/"]["get"]["parameters"]}
    assert {"club", "player", "variant", "status", "date_after", "date_before", "page"} <= filters


def test_swagger_ui(anon):
    response = anon.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


@pytest.fixture
def admin_client_with_game(admin_client, club, scorer):
    game_id = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    append_events(game=game_id, events=[hand(), hand()], expected_seq=0, user=scorer)
    return admin_client, Game.objects.get(pk=game_id)


def test_admin_shows_clubs_players_games_and_events(admin_client_with_game):
    client, game = admin_client_with_game
    for url in ["/admin/games/club/", f"/admin/games/club/{game.club_id}/change/", "/admin/games/player/",
                "/admin/games/game/", f"/admin/games/game/{game.pk}/change/", "/admin/games/membership/"]:  # fmt: skip
        assert client.get(url).status_code == 200, url
    # a game's events on its page, in seq order (their key is (game, seq): no admin of their own)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    table = page[page.index('<table class="game-events">') :]
    rows = table[: table.index("</table>")].split("<tr>")[2:]
    assert [row.split("</td>")[0].removeprefix("<td>") for row in rows] == ["1", "2"]
    assert all("<td>hand_result</td>" in row and "scorer" in row for row in rows)
    assert "&quot;calls&quot;" in rows[0]  # the payload, escaped


def test_admin_events_are_read_only(admin_client_with_game):
    client, game = admin_client_with_game
    assert client.get("/admin/games/event/").status_code == 404
    page = client.get(f"/admin/games/game/{game.pk}/change/")
    assert b'name="events"' not in page.content  # shown, not a field of the form
    client.post(f"/admin/games/game/{game.pk}/change/", {"events": "[]", "seq": 0})
    assert list(Event.objects.filter(game=game).values_list("seq", "type")) == [(1, "hand_result"), (2, "hand_result")]


def test_seed_demo_creates_complete_games_and_is_idempotent():
    call_command("seed_demo", "--games", "3")
    club = Club.objects.get(slug="demo")
    assert club.is_public
    games = list(club.games.order_by("id"))
    assert len(games) == 3
    snapshot = sorted((g.pk, g.seq) for g in games), Event.objects.count()
    for game in games:
        record = game_record(game)
        state = fold(record)
        assert state.is_over and game.status == "finished" and game.seq == len(record["events"]) > 0
        assert score_json(state)["complete"] is True
    call_command("seed_demo", "--games", "3")
    assert (sorted((g.pk, g.seq) for g in club.games.all()), Event.objects.count()) == snapshot
    call_command("seed_demo", "--games", "4")
    assert club.games.count() == 4


def test_seed_demo_prints_how_to_sign_in_as_its_demo_users(settings):
    from io import StringIO

    from django.test import Client

    settings.DEBUG = True
    out = StringIO()
    call_command("seed_demo", "--games", "1", stdout=out)
    text = out.getvalue()
    for username, role in (("demo-admin", "admin"), ("demo-scorer", "scorer"), ("demo-viewer", "viewer")):
        line = next(line for line in text.splitlines() if line.strip().startswith(username))
        password = line.split("password '")[1].split("'")[0]
        client = Client()
        response = client.post("/accounts/sign-in/", {"username": username, "password": password})
        assert response.status_code == 302, username
        assert Membership.objects.get(user__username=username, club__slug="demo").role == role
    settings.DEBUG = False  # no known password for a new demo account on a public site
    Membership.objects.filter(user__username="demo-viewer").delete()
    get_user_model().objects.filter(username="demo-viewer").delete()
    out = StringIO()
    call_command("seed_demo", "--games", "1", stdout=out)
    assert "demo-viewer  viewer  in the demo club, no usable password" in out.getvalue()


def test_seed_demo_in_process_setup_logs_no_broker_warning(caplog, django_capture_on_commit_callbacks):
    """The embedded default publishes the rating task in-process; kombu must not warn about a
    missing broker hostname on each one (it did with the bare `memory://` URL)."""
    import logging

    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True) as callbacks:
        call_command("seed_demo", "--games", "1")
    assert callbacks, "the finishing append should publish its rating task after the commit"
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [], [r.getMessage() for r in warnings]
