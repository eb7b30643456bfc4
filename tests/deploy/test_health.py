"""Liveness (/api/ping/) and readiness (/api/ready/, tichu_site/health.py): readiness fails, with
the reason, when the database is down, a migration is pending, Redis does not answer or no worker
has run the heartbeat task for three intervals."""

from __future__ import annotations

import os
import time

import pytest
from django.db import OperationalError
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client

from tichu_site import health

pytestmark = pytest.mark.django_db

TEST_REDIS = os.environ.get("TICHU_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def ready():
    response = Client().get("/api/ready/")
    return response.status_code, response.json()


def test_liveness_asks_nothing(monkeypatch):
    monkeypatch.setattr(health, "_database", lambda: 1 / 0)
    assert Client().get("/api/ping/").json() == {"ok": True}


def test_the_embedded_default_is_ready():
    status, body = ready()
    assert status == 200 and body["ok"] is True
    assert set(body["checks"]) == {"database", "migrations", "cache", "broker", "worker"}
    assert body["checks"]["migrations"] == {"ok": True, "pending": 0}


def test_a_pending_migration_is_not_ready(monkeypatch):
    applied = MigrationRecorder.applied_migrations

    def one_forgotten(self):
        found = dict(applied(self))
        found.pop(max(key for key in found if key[0] == "games"))
        return found

    monkeypatch.setattr(MigrationRecorder, "applied_migrations", one_forgotten)
    status, body = ready()
    assert status == 503 and body["checks"]["migrations"] == {"ok": False, "pending": 1}


def test_a_database_that_does_not_answer_is_not_ready(monkeypatch):
    def down():
        raise OperationalError("connection refused to db.internal as tichu_app")

    monkeypatch.setattr(health, "_database", down)
    monkeypatch.setitem(health.CHECKS, "database", down)
    status, body = ready()
    assert status == 503
    assert body["checks"]["database"] == {"ok": False, "error": "OperationalError"}  # no host, no user
    assert body["checks"]["migrations"]["ok"] is False


@pytest.fixture
def on_redis(settings):
    import redis

    try:
        redis.Redis.from_url(TEST_REDIS, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.fail(f"this test needs Redis at {TEST_REDIS}")
    settings.CACHES = {
        "default": {"BACKEND": health.REDIS_CACHE, "LOCATION": TEST_REDIS, "KEY_PREFIX": f"test-ready-{os.getpid()}"}
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = TEST_REDIS
    settings.TICHU_WORKER_HEARTBEAT_S = 10
    from django.core.cache import cache

    cache.delete(health.HEARTBEAT_KEY)
    yield cache
    cache.delete(health.HEARTBEAT_KEY)


def test_with_a_broker_readiness_waits_for_the_workers_heartbeat(on_redis):
    status, body = ready()
    assert status == 503 and body["checks"]["worker"] == {"ok": False, "detail": "no heartbeat"}
    assert body["checks"]["broker"]["ok"] and body["checks"]["cache"]["ok"]
    health.record_heartbeat()
    status, body = ready()
    assert status == 200 and body["checks"]["worker"]["ok"] and body["checks"]["worker"]["heartbeat_age_s"] < 5
    health.record_heartbeat(time.time() - 31)  # three intervals (10 s) and a second ago
    status, body = ready()
    assert (
        status == 503 and body["checks"]["worker"]["ok"] is False and body["checks"]["worker"]["heartbeat_age_s"] >= 31
    )


def test_the_heartbeat_task_writes_the_heartbeat(on_redis):
    from tichu_site.celery import worker_heartbeat

    worker_heartbeat.apply()  # what a worker does when beat queues it
    assert time.time() - on_redis.get(health.HEARTBEAT_KEY) < 5


def test_a_broker_that_does_not_answer_is_not_ready(on_redis, settings):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/0"  # nothing listens there
    health.record_heartbeat()
    status, body = ready()
    assert status == 503 and body["checks"]["broker"] == {"ok": False, "error": "ConnectionError"}


def test_beat_schedules_the_heartbeat():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["worker-heartbeat"]
    assert entry["task"] == "tichu_site.worker_heartbeat" and entry["schedule"] == settings.TICHU_WORKER_HEARTBEAT_S


def test_the_favicon_is_served():
    from django.contrib.staticfiles import finders

    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/site/favicon.svg"
    assert finders.find("site/favicon.svg")
    assert b'rel="icon" href="/static/site/favicon.svg"' in Client().get("/").content
