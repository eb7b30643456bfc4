"""Smoke test of the real Celery worker harness (tests/plugins/celery_worker.py).

Runs under `make test-celery` (TICHU_CELERY_WORKER=1, PostgreSQL, Redis at 127.0.0.1:6379/15).
"""

import subprocess
import sys

import pytest
from django.contrib.auth.models import User

from tests.plugins.celery_worker import ROOT
from tichu_site.celery import ping

pytestmark = pytest.mark.celery_worker


def test_worker_answers_ping_task(celery_worker_process):
    assert ping.app.conf.task_always_eager is False
    result = ping.delay()
    assert result.get(timeout=30) == "pong"
    assert result.state == "SUCCESS"
    assert f"Task tichu_site.celery.ping[{result.id}] succeeded" in celery_worker_process.log()


@pytest.mark.django_db(transaction=True)
def test_worker_environment_sees_committed_test_data(celery_worker_process):
    # transaction=True commits, so another process on the worker's DATABASE_URL sees the row.
    User.objects.create(username="celery-smoke")
    check = "from django.contrib.auth.models import User; print(User.objects.filter(username='celery-smoke').exists())"
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", check],
        cwd=ROOT,
        env=celery_worker_process.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "True"
