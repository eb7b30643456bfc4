"""The fault tests' stack: the service as it runs in production, on servers the tests may stop.

`make test-faults` (TICHU_FAULT_TESTS=1, part of `make test`) runs tests/faults/ -m faults. A
session-wide private PostgreSQL (migrated once) and, per test, a private Redis (broker, result
backend and cache), a gunicorn serving the site, and Celery workers started with
tests/plugins/celery_worker.py's `start_worker`. The test process reaches the stack only from
outside: HTTP, the broker, the database (psycopg) and `tests/faults/probe.py` subprocesses.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.faults.instances import PrivatePostgres, PrivateRedis, free_port, wait_until
from tests.plugins.celery_worker import ROOT, CeleryWorker, start_worker, stop_worker

SERVICE_ENV_VARS = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CELERY_TASK_ALWAYS_EAGER",
    "CACHE_URL",
    "TICHU_CELERY_WORKER",
)


@pytest.fixture(scope="session")
def private_postgres():
    pg = PrivatePostgres()
    try:
        pg.start()
        pg.create_database("tichu")
        env = {k: v for k, v in os.environ.items() if k not in SERVICE_ENV_VARS}
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            env={**env, "DATABASE_URL": pg.url("tichu")},
        )
        assert done.returncode == 0, done.stdout + done.stderr
        yield pg
    finally:
        pg.close()


@pytest.fixture
def private_redis():
    redis = PrivateRedis()
    try:
        redis.start()
        yield redis
    finally:
        redis.close()


@dataclass
class Web:
    process: subprocess.Popen
    base: str
    log_path: Path


@dataclass
class Stack:
    pg: PrivatePostgres
    redis: PrivateRedis
    tmp: Path
    workers: list[CeleryWorker] = field(default_factory=list)
    web: Web | None = None

    @property
    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in SERVICE_ENV_VARS}
        env.update(
            {
                "DATABASE_URL": self.pg.url("tichu"),
                "CELERY_BROKER_URL": self.redis.url(0),
                "CELERY_RESULT_BACKEND": self.redis.url(0),
                "CELERY_TASK_ALWAYS_EAGER": "0",
                "CACHE_URL": self.redis.url(1),
                # production settings (DEBUG off needs a secret key of its own), over plain HTTP
                "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": "fault-tests-" + "x" * 50,
                "DJANGO_SECURE_SSL_REDIRECT": "0",
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                "PYTHONUNBUFFERED": "1",
            }
        )
        return env

    def celery_app(self):
        """A bare Celery app on the private broker (the test process's own app is in-memory)."""
        from celery import Celery

        app = Celery("faults", broker=self.redis.url(0), backend=self.redis.url(0))
        app.conf.broker_connection_timeout = 2
        return app

    # -- workers --------------------------------------------------------------------------------

    def start_worker(self, *, beat: bool = False, **extra_env: str) -> CeleryWorker:
        """A worker on the stack; `beat`: with Celery beat embedded (-B), i.e. the periodic sweep."""
        log_path = self.tmp / f"worker-{len(self.workers)}.log"
        extra_args = ["-B", "-s", str(self.tmp / f"beat-{len(self.workers)}")] if beat else []
        worker = start_worker(self.celery_app(), {**self.env, **extra_env}, log_path, extra_args)
        self.workers.append(worker)
        return worker

    def kill_worker(self, worker: CeleryWorker) -> None:
        """SIGKILL to the worker's process group: no warm shutdown, no acknowledgement."""
        if worker.process.poll() is None:
            os.killpg(worker.process.pid, signal.SIGKILL)
            worker.process.wait(10)

    def worker_logs(self) -> str:
        return "\n".join(f"--- {w.log_path.name}\n{w.log()[-6000:]}" for w in self.workers)

    # -- web --------------------------------------------------------------------------------------

    def start_web(self) -> Web:
        port = free_port()
        log_path = self.tmp / "gunicorn.log"
        with open(log_path, "ab") as log:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "tichu_site.wsgi",
                    "-b",
                    f"127.0.0.1:{port}",
                    "-w",
                    "2",
                    "--timeout",
                    "60",
                    "--graceful-timeout",
                    "5",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self.web = Web(process, f"http://127.0.0.1:{port}", log_path)

        def up():
            if process.poll() is not None:
                raise AssertionError(f"gunicorn exited:\n{log_path.read_text()}")
            try:
                return self.request("GET", "/api/ping/")[0] == 200
            except OSError:
                return False

        wait_until(up, 60, "gunicorn", interval=0.3)
        return self.web

    def request(self, method: str, path: str, body=None, token: str | None = None, timeout: float = 30):
        """(status, parsed JSON or text, seconds)."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.web.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Token {token}")
        started = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as err:
            status, raw = err.code, err.read()
        elapsed = time.monotonic() - started
        try:
            return status, json.loads(raw), elapsed
        except ValueError:
            return status, raw.decode(errors="replace"), elapsed

    def web_log(self) -> str:
        return self.web.log_path.read_text(errors="replace")[-6000:] if self.web else ""

    # -- the database -----------------------------------------------------------------------------

    def probe(self, *args: str) -> dict:
        done = subprocess.run(
            [sys.executable, "-m", "tests.faults.probe", *map(str, args)],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def new_club(self) -> tuple[int, str]:
        made = self.probe("setup", f"club-{uuid.uuid4().hex[:8]}")
        return made["club"], made["token"]

    def close(self) -> None:
        for worker in self.workers:
            stop_worker(worker.process)
        if self.web is not None and self.web.process.poll() is None:
            os.killpg(self.web.process.pid, signal.SIGTERM)
            try:
                self.web.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.web.process.pid, signal.SIGKILL)


@pytest.fixture
def stack(private_postgres, private_redis, tmp_path):
    if not private_postgres.answers():
        private_postgres.start()  # a test that failed while it was stopped
    built = Stack(private_postgres, private_redis, tmp_path)
    try:
        yield built
    finally:
        built.close()
