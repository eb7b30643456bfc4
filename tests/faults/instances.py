"""Private Redis and PostgreSQL servers for the fault tests, which stop and restart them.

Each runs from a fresh temporary directory on a free port; the machine's shared servers (5432,
6379) are never touched. PostgreSQL refuses to run as root, so as root its commands run as the
`postgres` OS user (runuser) in a directory that user owns.

A binary that is missing skips the test, except in CI (CI=true), where it fails it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.plugins.markers import in_ci

START_TIMEOUT_S = 30


def require(binary: str, *candidates: str) -> str:
    """The path of `binary` (PATH first, then the glob patterns `candidates`), or skip/fail."""
    found = shutil.which(binary) or next(
        (p for pattern in candidates for p in sorted(glob.glob(pattern), reverse=True)), None
    )
    if found:
        return found
    reason = f"fault tests need {binary} (not on PATH{' nor ' + ', '.join(candidates) if candidates else ''})"
    if in_ci():
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


class PrivateRedis:
    """`redis-server` on a free port, no persistence: a restart comes back empty, as a Redis
    that lost its memory (the broker's queue included)."""

    def __init__(self):
        self.binary = require("redis-server")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tichu-faults-redis-"))
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
                "--logfile",
                str(self.dir / "redis.log"),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_until(self.answers, START_TIMEOUT_S, f"redis on port {self.port}")

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def client(self, db: int = 0):
        import redis

        return redis.Redis(port=self.port, db=db, socket_connect_timeout=2)

    def stop(self) -> None:
        """SIGKILL: the way a crashed server goes (nothing saved, connections reset)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivatePostgres:
    """A PostgreSQL cluster of its own (initdb into a temporary directory), trust authentication
    on 127.0.0.1 only, fsync off (nothing here must survive the machine)."""

    def __init__(self):
        pattern = "/usr/lib/postgresql/*/bin/"
        self.initdb = require("initdb", pattern + "initdb")
        self.pg_ctl = require("pg_ctl", pattern + "pg_ctl")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tichu-faults-pg-"))
        self.data = self.dir / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            runuser = require("runuser")
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.as_user = [runuser, "-u", "postgres", "--"]
        self._run([self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])

    def _run(self, cmd: list[str], timeout: float = 120) -> None:
        done = subprocess.run(
            self.as_user + cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
        )
        if done.returncode != 0:
            raise AssertionError(
                f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n{self.log()}"
            )

    def log(self) -> str:
        path = self.dir / "postgres.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.dir} "
            f"-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            [
                self.pg_ctl,
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.dir / "postgres.log"),
                "-w",
                "-t",
                str(START_TIMEOUT_S),
                "start",
            ]
        )

    def stop(self, mode: str = "fast") -> None:
        """`fast`: clients are disconnected, as by a restart of the server."""
        self._run([self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"])

    def answers(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url("postgres"), connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def create_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    def close(self) -> None:
        try:
            self.stop("immediate")
        except AssertionError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
