"""Cacheable answers (issue 37 finding 7): strong ETags and If-None-Match on a game's reads, the
tag depending on the reader's sight; Vary naming every header a body depends on; RateLimit-*
fields on every throttled answer; CORS for the allowed origins only."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games.models import Club, GameSeat
from tests.api.helpers import grand_double
from tests.conftest import client_for
from tests.visibility.test_channels import SEAT, make_game

pytestmark = pytest.mark.django_db

READS = ["record/", "events/", "state/", "state/?at=3", "score/"]


@pytest.fixture
def finished(scorer_client, club):
    game_id = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": list("ABCD")}, format="json"
    ).json()["id"]
    scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [grand_double(0)] * 3}, format="json"
    )
    return game_id


@pytest.mark.parametrize("read", READS)
def test_a_finished_games_reads_answer_304_to_their_etag(anon, finished, read):
    first = anon.get(f"/api/games/{finished}/{read}")
    tag = first["ETag"]
    assert first.status_code == 200 and tag.startswith('"') and not tag.startswith("W/")
    again = anon.get(f"/api/games/{finished}/{read}", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    other = anon.get(f"/api/games/{finished}/{read}", HTTP_IF_NONE_MATCH='"something-else"')
    assert other.status_code == 200 and other.json() == first.json()


def test_an_append_changes_the_tag(scorer_client, club):
    game_id = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": list("ABCD")}, format="json"
    ).json()["id"]
    before = scorer_client.get(f"/api/games/{game_id}/record/")["ETag"]
    scorer_client.post(f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [grand_double(0)]}, format="json")
    response = scorer_client.get(f"/api/games/{game_id}/record/", HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200 and response["ETag"] != before


@pytest.mark.parametrize("read", ["record/", "events/", "state/"])
def test_two_readers_with_different_sight_never_share_a_304(make_user, read):
    """A hand in play: the scorer sees every card, the seated player their own hand, an anonymous
    reader none. Each one's tag is refused to every other (a 200 with their own body)."""
    club = Club.objects.create(name="Home", slug="home")
    scorer, seated = make_user("sam"), make_user("pia")
    club.memberships.create(user=scorer, role="scorer")
    game = make_game(club)
    player = GameSeat.objects.get(game=game, seat=SEAT).player
    player.user = seated
    player.save()
    readers = {"scorer": client_for(scorer), "seated": client_for(seated), "anonymous": APIClient()}
    answers = {who: c.get(f"/api/games/{game.pk}/{read}") for who, c in readers.items()}
    assert len({a["ETag"] for a in answers.values()}) == 3
    assert len({a.content for a in answers.values()}) == 3
    for who, client in readers.items():
        for other, answer in answers.items():
            response = client.get(f"/api/games/{game.pk}/{read}", HTTP_IF_NONE_MATCH=answer["ETag"])
            if who == other:
                assert response.status_code == 304
            else:
                assert response.status_code == 200 and response.content == answers[who].content, (who, other)


@pytest.mark.parametrize("path", ["/api/games/", "/api/games/{game}/state/", "/api/clubs/"])
def test_vary_names_every_header_the_body_depends_on(anon, finished, path):
    response = anon.get(path.format(game=finished))
    vary = {v.strip().lower() for v in response["Vary"].split(",")}
    assert {"authorization", "cookie", "accept-language", "accept"} <= vary


@override_settings(REST_FRAMEWORK={"DEFAULT_THROTTLE_RATES": {"writes": "3/minute"}})
def test_ratelimit_fields_on_every_throttled_answer(scorer_client, club):
    from rest_framework.settings import api_settings

    api_settings.reload()
    try:
        answers = [
            scorer_client.post(
                "/api/games/", {"club": club.pk, "variant": "nanking", "players": list("ABCD")}, format="json"
            )
            for _ in range(4)
        ]
    finally:
        api_settings.reload()
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert [a["RateLimit-Limit"] for a in answers] == ["3"] * 4
    assert [a["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0"]
    assert all(1 <= int(a["RateLimit-Reset"]) <= 60 for a in answers)
    assert "RateLimit-Limit" not in scorer_client.get("/api/games/")  # reads are not throttled


def test_cors_is_off_by_default(anon):
    response = anon.get("/api/games/", HTTP_ORIGIN="https://club.example.org")
    assert "Access-Control-Allow-Origin" not in response


@override_settings(TICHU_CORS_ORIGINS=("https://club.example.org",))
def test_cors_for_the_allowed_origins_only(anon, finished):
    allowed = anon.get(f"/api/games/{finished}/record/", HTTP_ORIGIN="https://club.example.org")
    assert allowed["Access-Control-Allow-Origin"] == "https://club.example.org"
    assert "ETag" in allowed["Access-Control-Expose-Headers"] and "Origin" in allowed["Vary"]
    assert "Access-Control-Allow-Credentials" not in allowed
    preflight = anon.options(
        "/api/games/",
        HTTP_ORIGIN="https://club.example.org",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )
    assert preflight.status_code == 204 and "POST" in preflight["Access-Control-Allow-Methods"]
    assert "Authorization" in preflight["Access-Control-Allow-Headers"]
    other = anon.get("/api/games/", HTTP_ORIGIN="https://evil.example.com")
    assert "Access-Control-Allow-Origin" not in other
    page = anon.get("/", HTTP_ORIGIN="https://club.example.org")  # the site's pages: never
    assert "Access-Control-Allow-Origin" not in page
