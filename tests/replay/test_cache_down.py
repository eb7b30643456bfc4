"""Issue #14, finding 5: with the cache (Redis) down the pages answer like the API (the cache is
an optimisation: a miss, and the frames are folded), and every server error is logged with its
traceback on stderr (settings.LOGGING)."""

from __future__ import annotations

import io
import logging

import pytest
from django.test import Client, override_settings

from games import services
from games.models import Club, Game, Membership
from replay import data as replay_data_module
from tests.api.helpers import PLAYERS, hand

pytestmark = pytest.mark.django_db

# Nothing listens on port 1: every cache call is a refused connection, as with Redis stopped.
REDIS_DOWN = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
}


@pytest.fixture
def active_game(make_user):
    scorer = make_user("scorer")
    club = Club.objects.create(name="Open", slug="open", visibility=Club.Visibility.PUBLIC)
    Membership.objects.create(club=club, user=scorer, role=Membership.Role.SCORER)
    body = services.game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body
    services.append_events(game=body["id"], events=[hand()], expected_seq=0, user=scorer)
    return Game.objects.get(pk=body["id"]), scorer


@pytest.fixture
def cache_down():
    # override_settings, not the `settings` fixture: the cache must be back before the autouse
    # _fresh_cache (tests/conftest.py) clears it
    replay_data_module.clear_local()
    with override_settings(CACHES=REDIS_DOWN):
        yield
    replay_data_module.clear_local()


@pytest.mark.parametrize(
    "path",
    [
        "/games/{id}/",
        "/games/{id}/replay/",
        "/games/{id}/enter/",
        "/games/{id}/enter/panels/",
        "/enter/",
        "/clubs/open/",
    ],
)
def test_pages_answer_with_the_cache_down(active_game, cache_down, path):
    game, scorer = active_game
    client = Client()
    client.force_login(scorer)
    response = client.get(path.format(id=game.pk))
    assert response.status_code == 200, response.content[:500]


def test_the_api_and_the_pages_agree_with_the_cache_down(active_game, cache_down):
    game, scorer = active_game
    client = Client()
    client.force_login(scorer)
    assert client.get(f"/api/games/{game.pk}/state/").status_code == 200
    assert client.get(f"/games/{game.pk}/replay/?at=1").status_code == 200


def test_an_append_and_the_club_page_with_the_cache_down(
    active_game, cache_down, caplog, django_capture_on_commit_callbacks
):
    """The snapshot cache and the club page's scores go through games.safe_cache: a write whose
    states cannot be cached is stored all the same, and the club page still shows its score."""
    game, scorer = active_game
    with (
        caplog.at_level(logging.WARNING, logger="games.safe_cache"),
        django_capture_on_commit_callbacks(execute=True),
    ):  # the snapshot cache's writes run on commit
        services.append_events(game=game.pk, events=[hand()], expected_seq=1, user=scorer)
    game.refresh_from_db()
    assert game.seq == 2
    assert any("cache unavailable" in r.getMessage() for r in caplog.records)  # logged, not raised
    client = Client()
    client.force_login(scorer)
    page = client.get("/clubs/open/").content.decode()
    totals = client.get(f"/api/games/{game.pk}/score/").json()["totals"]
    assert " : ".join(str(t) for t in totals) in page


def test_a_server_error_on_a_page_is_logged_with_its_traceback(active_game, monkeypatch):
    game, _ = active_game
    # the stderr handler settings.LOGGING puts on the root logger (pytest's own are subclasses)
    stderr = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert len(stderr) == 1
    written = io.StringIO()
    monkeypatch.setattr(stderr[0], "stream", written)

    def broken(*args, **kwargs):
        raise RuntimeError("frames exploded")

    replay_data_module.clear_local()
    monkeypatch.setattr(replay_data_module.frames, "from_states", broken)
    response = Client(raise_request_exception=False).get(f"/games/{game.pk}/replay/")
    assert response.status_code == 500
    err = written.getvalue()
    assert "ERROR django.request" in err and f"/games/{game.pk}/replay/" in err
    assert "Traceback" in err and "RuntimeError: frames exploded" in err
    assert err.count("RuntimeError: frames exploded") == 1  # once, not once per handler
