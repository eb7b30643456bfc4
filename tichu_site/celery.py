"""The Celery app. Redis is the broker in production (CELERY_BROKER_URL); the embedded default
runs tasks in-process (CELERY_TASK_ALWAYS_EAGER), see settings."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")

app = Celery("tichu_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task
def ping():
    """Debug task: answers "pong". Used by the worker smoke test (tests/integration/test_celery_worker.py)."""
    return "pong"
