"""The `celery_worker_process` fixture: a real `celery -A tichu_site worker` on Redis.

Enabled by TICHU_CELERY_WORKER=1 (`make test-celery` sets it and selects `-m celery_worker`).
Then, at import of this plugin and so before Django reads its settings, the whole pytest
process is switched from the embedded in-process Celery to Redis:

    CELERY_BROKER_URL = CELERY_RESULT_BACKEND = $TICHU_TEST_REDIS_URL (redis://127.0.0.1:6379/15)
    CELERY_TASK_ALWAYS_EAGER = 0

so `.delay()` in such a session always goes through the broker: run only `-m celery_worker`
tests with it.

How the worker sees the test database: pytest-django creates `test_<name>` on the server given by
DATABASE_URL. The fixture reads that name from the live connection after `django_db_setup` and
starts the worker with the same DATABASE_URL but that database name. A test whose data the worker
must read uses `@pytest.mark.django_db(transaction=True)`: the plain `django_db` wraps each test
in a transaction that is never committed, so no other process would see its rows. The default
SQLite test database lives in memory and cannot be shared: worker tests run on PostgreSQL.
The fixture is session-scoped (one worker for all tests) and depends on `django_db_setup`, so the
worker is stopped before pytest-django drops the test database.
"""

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENABLED = os.environ.get("TICHU_CELERY_WORKER") == "1"
REDIS_URL = os.environ.get("TICHU_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 20

if ENABLED:
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    os.environ["CELERY_RESULT_BACKEND"] = REDIS_URL
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"


@dataclass
class CeleryWorker:
    process: subprocess.Popen
    node: str  # the worker's node name, e.g. pytest-1a2b3c4d@host
    env: dict  # the worker's environment: run another process with it to see what the worker sees
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def worker_database_url(settings_dict) -> str:
    """DATABASE_URL for a process that must use the test database named in settings_dict."""
    name = str(settings_dict["NAME"])
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        if name == ":memory:" or "mode=memory" in name:
            pytest.fail(
                "celery_worker tests need a test database another process can open; the SQLite "
                "test database is in memory. Run them on PostgreSQL: "
                "DATABASE_URL=postgres://postgres@127.0.0.1:5432/tichu (see `make test-celery`)."
            )
        return "sqlite:///" + str(Path(name).resolve())
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + quote(name)))


def _wait_for_ping(app, worker: CeleryWorker) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            pytest.fail(f"celery worker exited with {worker.process.returncode}:\n{worker.log()}")
        try:
            replies = app.control.ping(destination=[worker.node], timeout=1.0)
        except Exception:  # broker not reachable yet: the loop's deadline decides
            replies = []
            time.sleep(0.5)
        if any(worker.node in reply for reply in replies):
            return
    pytest.fail(f"celery worker did not answer a ping within {START_TIMEOUT_S}s:\n{worker.log()}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)  # warm shutdown: finish the current task, then exit
    try:
        process.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(STOP_TIMEOUT_S)


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, tmp_path_factory):
    """Start `celery -A tichu_site worker` on Redis against the test database; yield a CeleryWorker."""
    if not ENABLED:
        pytest.skip("set TICHU_CELERY_WORKER=1 to run tests that need a Celery worker")
    from django.db import connections

    from tichu_site.celery import app

    if app.conf.broker_url != REDIS_URL or app.conf.task_always_eager:
        pytest.fail(
            f"the test process's Celery is not on {REDIS_URL} (broker {app.conf.broker_url!r}, "
            f"eager {app.conf.task_always_eager}): Django settings were loaded before "
            "tests.plugins.celery_worker; register it with -p (pyproject addopts)"
        )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "tichu_site.settings"),
        "DATABASE_URL": worker_database_url(connections["default"].settings_dict),
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_RESULT_BACKEND": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "PYTHONUNBUFFERED": "1",
    }
    worker = start_worker(
        app, env, tmp_path_factory.mktemp("celery") / "worker.log", extra_args=["--purge"]
    )  # drop messages an interrupted run left in the test queue
    try:
        yield worker
    finally:
        stop_worker(worker.process)


def start_worker(app, env: dict, log_path: Path, extra_args=()) -> CeleryWorker:
    """Start `celery -A tichu_site worker --pool=solo` with `env` (its own process group, output
    to `log_path`) and wait until it answers a ping through `app` (a Celery app on the same
    broker). Also used by the fault tests (tests/faults/), which kill and restart workers."""
    node = f"pytest-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "tichu_site",
        "worker",
        "--pool=solo",
        "--loglevel=INFO",
        "-n",
        node,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        *extra_args,
    ]
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    worker = CeleryWorker(process=process, node=node, env=env, log_path=log_path)
    try:
        _wait_for_ping(app, worker)
    except BaseException:
        stop_worker(process)
        raise
    return worker


def stop_worker(process: subprocess.Popen) -> None:
    """Warm shutdown (the current task ends first), SIGKILL after STOP_TIMEOUT_S."""
    _stop(process)
