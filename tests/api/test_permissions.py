"""Who may read and write: token and session authentication, club visibility (lists included),
writes only by the game's club scorers and admins."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.clubs.models import Invitation
from games.models import Club, Event, Game, Membership, Player
from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand, record
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_user, make_club):
    """A home club (public or private, per test) with a game, and an outsider who is admin of
    another club."""
    users = {name: make_user(name) for name in ("admin", "scorer", "viewer", "outsider", "member")}

    def build(visibility: str):
        home = make_club("home", visibility, **{})
        for role in ("admin", "scorer", "viewer"):
            Membership.objects.create(club=home, user=users[role], role=role)
        Membership.objects.create(club=home, user=users["member"], role="viewer")
        away = make_club("away", Club.Visibility.MEMBERS)
        Membership.objects.create(club=away, user=users["outsider"], role="admin")
        game_id = game_create(club=home, variant="nanking", options=None, players=PLAYERS, user=users["scorer"]).body[
            "id"
        ]
        append_events(game=game_id, events=[hand()], expected_seq=0, user=users["scorer"])
        return home, Game.objects.get(pk=game_id), users

    return build


def write_requests(home: Club, game: Game, users) -> list[tuple[str, str, str, dict]]:
    """(needed role, method, url, body) for every write endpoint."""
    member = users["member"].pk
    return [
        ("admin", "patch", f"/api/clubs/{home.pk}/", {"name": "Renamed"}),
        ("admin", "post", f"/api/clubs/{home.pk}/invitations/", {"role": "scorer"}),
        ("admin", "patch", f"/api/clubs/{home.pk}/members/{member}/", {"role": "admin"}),
        ("admin", "delete", f"/api/clubs/{home.pk}/members/{member}/", {}),
        ("admin", "patch", f"/api/players/{Player.objects.filter(club=home).first().pk}/", {"name": "Renamed"}),
        ("scorer", "post", "/api/players/", {"club": home.pk, "name": "Newcomer"}),
        ("scorer", "post", "/api/games/", {"club": home.pk, "variant": "nanking", "players": PLAYERS}),
        ("scorer", "post", f"/api/games/import/?club={home.pk}", record([hand()])),
        ("scorer", "post", f"/api/games/{game.pk}/events/", {"expected_seq": 1, "events": [hand()]}),
    ]


def snapshot() -> tuple:
    return (
        Game.objects.count(), Event.objects.count(), sorted(Player.objects.values_list("name", flat=True)),
        sorted(Membership.objects.values_list("club__slug", "user__username", "role")),
        sorted(Club.objects.values_list("name", "visibility")), Invitation.objects.count(),
    )  # fmt: skip


def send(client, method, url, body):
    return getattr(client, method)(url, body, format="json")


@pytest.mark.parametrize("visibility", ["public", "members"])
def test_every_write_endpoint_refuses_no_token_bad_token_and_outsiders(world, visibility):
    home, game, users = world(visibility)
    before = snapshot()
    for _, method, url, body in write_requests(home, game, users):
        response = send(APIClient(), method, url, body)
        assert (response.status_code, response.json()["code"]) == (401, "not_authenticated"), url
        assert response["WWW-Authenticate"].startswith("Token")
        response = send(client_for(token="0" * 40), method, url, body)
        assert (response.status_code, response.json()["code"]) == (401, "authentication_failed"), url
        response = send(client_for(users["outsider"]), method, url, body)
        # A members-only club is invisible from outside (404); a public one is seen but not writable.
        expected = 403 if visibility == "public" else 404
        assert response.status_code == expected, (url, response.json())
        assert response.json()["message"]
    assert snapshot() == before


def test_writes_need_the_right_role_in_the_club(world):
    home, game, users = world("members")
    before = snapshot()
    for needed, method, url, body in write_requests(home, game, users):
        too_low = ["viewer"] if needed == "scorer" else ["viewer", "scorer"]
        for role in too_low:
            response = send(client_for(users[role]), method, url, body)
            assert (response.status_code, response.json()["code"]) == (403, "permission_denied"), (url, role)
    assert snapshot() == before
    # ... and succeed with it.
    for needed, method, url, body in write_requests(home, game, users):
        response = send(client_for(users[needed]), method, url, body)
        assert response.status_code in (200, 201, 204), (url, response.content)


def test_scorers_of_one_club_cannot_write_to_another_clubs_games(world, make_club):
    home, game, users = world("public")
    other = make_club("other")
    Membership.objects.create(club=other, user=users["outsider"], role="scorer")
    response = client_for(users["outsider"]).post(
        "/api/games/", {"club": home.pk, "variant": "nanking", "players": PLAYERS}, format="json"
    )
    assert response.status_code == 403
    response = client_for(users["outsider"]).post(
        f"/api/games/{game.pk}/events/", {"expected_seq": 1, "events": [hand()]}, format="json"
    )
    assert response.status_code == 403
    assert Event.objects.filter(game=game).count() == 1


GAME_READS = ["/api/games/{id}/", "/api/games/{id}/events/", "/api/games/{id}/state/", "/api/games/{id}/state/?at=1",
              "/api/games/{id}/score/", "/api/games/{id}/record/"]  # fmt: skip


def test_private_games_are_invisible_from_outside(world):
    home, game, users = world("members")
    player = Player.objects.filter(club=home).first()
    reads = [u.format(id=game.pk) for u in GAME_READS] + [f"/api/clubs/{home.pk}/", f"/api/players/{player.pk}/"]
    for client in (APIClient(), client_for(users["outsider"])):
        for url in reads:
            response = client.get(url)
            assert (response.status_code, response.json()["code"]) == (404, "not_found"), url
        assert client.get("/api/games/").json()["count"] == 0
        hidden_club = client.get(f"/api/games/?club={home.pk}")  # as the club's own URL: 404 (issue 37)
        assert (hidden_club.status_code, hidden_club.json()["code"]) == (404, "not_found")
        assert not [c for c in client.get("/api/clubs/").json()["results"] if c["id"] == home.pk]
        assert client.get("/api/players/").json()["count"] == Player.objects.exclude(club=home).count()
    for url in reads:
        assert client_for(token="f" * 40).get(url).status_code == 401
    # Every member may read, whatever the role.
    for role in ("viewer", "scorer", "admin"):
        client = client_for(users[role])
        for url in reads:
            assert client.get(url).status_code == 200, (url, role)
        assert [g["id"] for g in client.get("/api/games/").json()["results"]] == [game.pk]


def test_public_games_are_readable_by_anyone(world):
    home, game, users = world("public")
    for url in GAME_READS:
        assert APIClient().get(url.format(id=game.pk)).status_code == 200
    assert [g["id"] for g in APIClient().get("/api/games/").json()["results"]] == [game.pk]
    # The member list stays private to members.
    assert APIClient().get(f"/api/clubs/{home.pk}/members/").status_code == 403
    assert client_for(users["viewer"]).get(f"/api/clubs/{home.pk}/members/").status_code == 200


def test_making_a_club_private_hides_it_at_once(world):
    home, game, users = world("public")
    response = client_for(users["admin"]).patch(f"/api/clubs/{home.pk}/", {"visibility": "members"}, format="json")
    assert response.status_code == 200
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 404


def test_token_endpoint_and_session_authentication(world):
    home, game, users = world("members")
    response = APIClient().post("/api/auth/token/", {"username": "scorer", "password": "pw-scorer"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    assert client_for(token=token).get(f"/api/games/{game.pk}/").status_code == 200
    bad = APIClient().post("/api/auth/token/", {"username": "scorer", "password": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"

    browser = APIClient(enforce_csrf_checks=True)
    assert browser.login(username="scorer", password="pw-scorer")
    assert browser.get(f"/api/games/{game.pk}/").status_code == 200
    # Session writes need the CSRF token, like any browser form.
    response = browser.post(f"/api/games/{game.pk}/events/", {"expected_seq": 1, "events": [hand()]}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
    assert "CSRF" in response.json()["message"]
    browser.get("/admin/login/")  # sets the csrftoken cookie
    csrf = browser.cookies["csrftoken"].value
    response = browser.post(
        f"/api/games/{game.pk}/events/",
        {"expected_seq": 1, "events": [hand()]},
        format="json",
        headers={"X-CSRFToken": csrf},
    )
    assert response.status_code == 201


def test_club_creation_makes_the_creator_admin(make_user):
    user = make_user("founder")
    response = client_for(user).post(
        "/api/clubs/", {"name": "New", "slug": "new", "visibility": "members"}, format="json"
    )
    assert response.status_code == 201
    assert Membership.objects.get(user=user, club_id=response.json()["id"]).role == "admin"
    again = client_for(user).post("/api/clubs/", {"name": "New", "slug": "new"}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "duplicate")


def test_last_admin_cannot_be_removed(world):
    home, game, users = world("public")
    admin = client_for(users["admin"])
    response = admin.delete(f"/api/clubs/{home.pk}/members/{users['admin'].pk}/")
    assert (response.status_code, response.json()["code"]) == (400, "last_admin")
    assert Membership.objects.filter(club=home, role="admin").count() == 1


def test_a_refused_write_is_explained_in_the_requests_language(world):
    """Every write endpoint's refusal of a too low role: `message` in the request's language
    (here fr), `code` as in English."""
    home, game, users = world("members")
    for _needed, method, url, body in write_requests(home, game, users):
        client = client_for(users["viewer"])
        said = {
            lang: getattr(client, method)(url, body, format="json", HTTP_ACCEPT_LANGUAGE=lang).json()
            for lang in ("en", "fr")
        }
        assert said["en"]["code"] == said["fr"]["code"] == "permission_denied", url
        assert said["fr"]["message"] != said["en"]["message"], (url, said["fr"])
