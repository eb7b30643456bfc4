"""Who reaches the entry pages and the legal-actions endpoint, and who may write from a browser
session: only the club's scorers and admins."""

from __future__ import annotations

import json

import pytest

from games.models import Club, Event, Game
from tests.entry.conftest import PLAYERS, browser_client, build_club

pytestmark = pytest.mark.django_db


def entry_urls(club, game) -> list[str]:
    return [
        f"/clubs/{club.slug}/new-game/",
        f"/games/{game.pk}/enter/",
        f"/games/{game.pk}/enter/panels/",
    ]


@pytest.mark.parametrize("role", ["scorer", "admin"])
def test_scorers_and_admins_reach_every_entry_page(users, home, game, role):
    client = browser_client(users[role])
    for url in entry_urls(home, game) + ["/enter/", f"/api/games/{game.pk}/legal/"]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("role, status", [("viewer", 403), ("outsider", 403)])
def test_readers_of_a_public_club_get_403(users, home, game, role, status):
    client = browser_client(users[role])
    for url in entry_urls(home, game) + [f"/api/games/{game.pk}/legal/"]:
        assert client.get(url).status_code == status, url


def test_outsiders_of_a_members_only_club_get_404(users):
    club = build_club(users, Club.Visibility.MEMBERS)
    from games.services import game_create

    game = Game.objects.get(
        pk=game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=None).body["id"]
    )
    client = browser_client(users["outsider"])
    for url in entry_urls(club, game) + [f"/api/games/{game.pk}/legal/"]:
        assert client.get(url).status_code == 404, url
    assert browser_client(users["viewer"]).get(f"/games/{game.pk}/enter/").status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(home, game):
    client = browser_client()
    for url in entry_urls(home, game) + ["/enter/"]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/sign-in/?next="), url
    assert client.get(f"/api/games/{game.pk}/legal/").status_code == 403


def test_the_scorer_home_lists_only_clubs_one_scores_for(users, home, game):
    page = browser_client(users["scorer"]).get("/enter/").content.decode()
    assert f"/games/{game.pk}/enter/" in page and "/clubs/home/new-game/" in page
    page = browser_client(users["viewer"]).get("/enter/").content.decode()
    assert "/clubs/home/new-game/" not in page and "You score for no club" in page


def _post_events(client, game, events, expected_seq):
    token = client.cookies.get("csrftoken")
    headers = {"HTTP_X_CSRFTOKEN": token.value} if token else {}
    return client.post(
        f"/api/games/{game.pk}/events/",
        json.dumps({"expected_seq": expected_seq, "events": events}),
        content_type="application/json",
        **headers,
    )


def test_a_session_write_needs_the_csrf_token_and_the_scorer_role(users, home, game):
    hand = {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [50, 50]}
    for role in ("viewer", "outsider"):
        client = browser_client(users[role])
        client.get("/clubs/")  # no entry page for them: take the CSRF cookie elsewhere
        client.get(f"/games/{game.pk}/")
        client.cookies["csrftoken"] = "x" * 32
        assert _post_events(client, game, [hand], 0).status_code in (403, 404)
    scorer = browser_client(users["scorer"])
    assert _post_events(scorer, game, [hand], 0).status_code == 403  # no CSRF token yet
    assert scorer.get(f"/games/{game.pk}/enter/").status_code == 200  # sets the CSRF cookie
    assert _post_events(scorer, game, [hand], 0).status_code == 201
    assert Event.objects.filter(game=game).count() == 1


def test_new_game_form_refuses_readers(users, home):
    client = browser_client(users["viewer"])
    response = client.post(f"/clubs/{home.slug}/new-game/", {"variant": "nanking"})
    assert response.status_code == 403
    assert not Game.objects.exists()
