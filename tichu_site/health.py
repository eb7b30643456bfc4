"""Liveness and readiness (docs/deploy.md "Health").

- Liveness, `/api/ping/`: the process answers, nothing else is asked (a load balancer or systemd
  watchdog restarts a process that stops answering; it must not restart a healthy web process
  because PostgreSQL is down).
- Readiness, `/api/ready/`: can this instance do its work? The database answers, no migration is
  pending (the code is newer than the schema: an upgrade half done), the cache and the broker
  (Redis) answer, and a Celery worker ran the heartbeat task recently. 200 when every check
  passes, else 503; each check's result in the body either way, without error texts (which could
  name hosts and users).

The worker's heartbeat: Celery beat queues `tichu_site.worker_heartbeat` every
TICHU_WORKER_HEARTBEAT_S seconds (settings) and a worker runs it, writing the time into the
shared cache (Redis, CACHE_URL); a worker also queues one each time it connects to the broker
(tichu_site/celery.py). So a stale heartbeat means no worker, or no beat (and then the rating
outbox's sweep is not running either). With tasks run in-process (no broker: the embedded
default) there is no worker to wait for.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

HEARTBEAT_KEY = "tichu:worker:heartbeat"
REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"


def heartbeat_interval() -> float:
    return float(getattr(settings, "TICHU_WORKER_HEARTBEAT_S", 30))


def record_heartbeat(now: float | None = None) -> None:
    """Run by the worker (the heartbeat task): the time it ran, kept a day."""
    cache.set(HEARTBEAT_KEY, time.time() if now is None else now, 24 * 3600)


def _database() -> dict:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"ok": True}


def _migrations() -> dict:
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return {"ok": not pending, "pending": len(pending)}


def _shared_cache() -> bool:
    return settings.CACHES["default"]["BACKEND"] == REDIS_CACHE


def _cache() -> dict:
    if not _shared_cache():
        return {"ok": True, "detail": "local memory"}
    cache.set("tichu:ready", 1, 10)
    return {"ok": cache.get("tichu:ready") == 1}


def _eager() -> bool:
    return bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def _broker() -> dict:
    if _eager():
        return {"ok": True, "detail": "tasks run in-process"}
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://")):
        import redis

        return {"ok": bool(redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping())}
    from tichu_site.celery import app

    with app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1)
    return {"ok": True}


def _worker() -> dict:
    if _eager():
        return {"ok": True, "detail": "tasks run in-process"}
    if not _shared_cache():
        return {"ok": False, "detail": "the cache is not shared with the worker (set CACHE_URL)"}
    beat = cache.get(HEARTBEAT_KEY)
    if beat is None:
        return {"ok": False, "detail": "no heartbeat"}
    age = max(0.0, time.time() - float(beat))
    return {"ok": age <= 3 * heartbeat_interval(), "heartbeat_age_s": round(age, 1)}


CHECKS = {"database": _database, "migrations": _migrations, "cache": _cache, "broker": _broker, "worker": _worker}


def readiness() -> dict:
    results = {}
    for name, check in CHECKS.items():
        if name == "migrations" and not results["database"]["ok"]:
            results[name] = {"ok": False, "detail": "database down"}
            continue
        try:
            results[name] = check()
        except Exception as exc:  # noqa: BLE001 - a check that cannot run has failed; its class says why
            results[name] = {"ok": False, "error": type(exc).__name__}
    return results


@never_cache
@require_safe
def ready(request):
    checks = readiness()
    ok = all(result["ok"] for result in checks.values())
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
