"""The Celery app. Redis is the broker in production (CELERY_BROKER_URL); the embedded default
runs tasks in-process (CELERY_TASK_ALWAYS_EAGER), see settings."""

import logging
import os

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")

app = Celery("tichu_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@app.task
def ping():
    """Debug task: answers "pong". Used by the worker smoke test (tests/integration/test_celery_worker.py)."""
    return "pong"


@app.task(name="tichu_site.worker_heartbeat", ignore_result=True)
def worker_heartbeat():
    """Beat queues it every TICHU_WORKER_HEARTBEAT_S; the time it ran is the worker's heartbeat
    that /api/ready/ reads (tichu_site/health.py)."""
    from tichu_site.health import record_heartbeat

    record_heartbeat()


class SweepRatingOutboxOnConnect(bootsteps.StartStopStep):
    """Queue the rating outbox's sweep each time the worker's consumer (re)connects to the broker:
    at worker start, after a crash, and when Redis comes back after an outage, which is when the
    tasks an append could not queue are waiting (docs/ratings.md, "Delivery"). With no grace
    period: after a reconnect any row may have lost its message (a Redis that restarted empty),
    and a duplicate costs one idempotent task. Celery beat sweeps periodically besides."""

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, consumer):
        try:
            consumer.app.send_task("games.tasks.sweep_rating_outbox", kwargs={"grace_s": 0})
            # and a heartbeat at once, so that /api/ready/ sees a started worker before beat's turn
            consumer.app.send_task("tichu_site.worker_heartbeat")
        except Exception:  # noqa: BLE001 - the beat schedule sweeps later
            logger.warning("rating outbox sweep not queued on connect", exc_info=True)


app.steps["consumer"].add(SweepRatingOutboxOnConnect)
