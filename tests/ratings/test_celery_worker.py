"""Ratings through a real Celery worker on Redis (make test-celery: PostgreSQL + Redis).

A finished game is rated by the worker after the commit; the recompute task reports its progress
as task state and leaves the same table as the in-process recompute.
"""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games import services as game_services
from games.engine import random_game
from games.models import Club
from games.ratings import services
from games.ratings.models import RatingChange

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def _wait(predicate, timeout=90.0, every=0.2):
    """Poll `predicate` until it holds (True) or `timeout` seconds have passed (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return bool(predicate())


def test_worker_rates_a_finished_game_after_commit(celery_worker_process):
    club = Club.objects.create(name="Worker", slug="worker-ratings")
    user = get_user_model().objects.create_user("worker-scorer", password="pw")
    gid = game_services.game_import(club=club, record=random_game(5), user=user).body["id"]
    assert _wait(lambda: RatingChange.objects.filter(game_id=gid).count() == 4), celery_worker_process.log()
    assert "update_ratings_for_game" in celery_worker_process.log()
    table = services.pool_signature(club.pk, "nanking")
    services.recompute_club(club.pk)
    assert services.pool_signature(club.pk, "nanking") == table


def test_worker_recompute_reports_progress_and_is_deterministic(celery_worker_process):
    from games.ratings.tasks import recompute_ratings

    club = Club.objects.create(name="Worker big", slug="worker-ratings-big")
    _, games = synthetic_history(4000, 60, seed=9)
    load_history(club, games)
    services.recompute_club(club.pk)
    expected = services.pool_signature(club.pk, "nanking")
    result = recompute_ratings.delay(club.pk)
    seen = []

    def finished() -> bool:
        if result.state == "PROGRESS":
            seen.append(dict(result.info))
        return result.ready()

    assert _wait(finished, timeout=120.0, every=0.05), f"no result after 120 s\n{celery_worker_process.log()}"
    summary = result.get(timeout=10)
    assert summary[0]["games"] == 4000
    assert seen, "no PROGRESS state was observed"
    assert all(s["club"] == club.pk for s in seen)
    # "start": the report (and heartbeats) before the first stage; then every stage counts up
    assert all(0 < s["done"] <= s["total"] for s in seen if s["stage"] != "start")
    assert any(s["stage"] != "start" for s in seen)
    assert services.pool_signature(club.pk, "nanking") == expected
