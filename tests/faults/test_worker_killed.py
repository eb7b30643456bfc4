"""A Celery worker killed (SIGKILL) with rating tasks queued loses nothing (issue #14, finding 4):
the task it held is redelivered by Redis once the visibility timeout has passed (acks_late), and
the league equals a clean recompute. `recompute_ratings --queue` ends with an error when the
worker running it dies."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import psycopg
import pytest

from tests.faults.helpers import import_games, rated_games
from tests.faults.instances import wait_until
from tests.plugins.celery_worker import ROOT

pytestmark = pytest.mark.faults

GAMES = 30
FIRST = 5  # rated before the kill
REDELIVERY = {"CELERY_VISIBILITY_TIMEOUT": "4"}  # short enough for the test


def held_task_ids(broker) -> list[str]:
    """The ids of the tasks delivered and not acknowledged (kombu's `unacked` hash)."""
    return [json.loads(raw)[0]["headers"]["id"] for raw in broker.hvals("unacked")]


def test_a_worker_killed_with_rating_tasks_queued_loses_nothing(stack):
    stack.start_web()
    club, token = stack.new_club()
    import_games(stack, club, token, FIRST, seed=1)
    broker = stack.redis.client(0)
    assert broker.llen("celery") == FIRST  # every finish queued its task; no worker yet

    first = stack.start_worker(**REDELIVERY)
    wait_until(lambda: rated_games(stack, club) == FIRST, 60, "the first ratings")
    # The worker is killed with a rating task in hand: the test holds the rating changes' table
    # against writes (reads go on), so the next task blocks in it, however fast the machine.
    # Without the lock a quiet machine's worker rated every game before the test saw one held
    # (1 run in 3 here).
    with psycopg.connect(stack.pg.url("tichu")) as lock:
        lock.execute("LOCK TABLE games_ratingchange IN EXCLUSIVE MODE")
        import_games(stack, club, token, GAMES - FIRST, seed=2)
        wait_until(lambda: broker.hlen("unacked") >= 1, 30, f"a task in hand\n{stack.worker_logs()}", interval=0.01)
        stack.kill_worker(first)
        held = held_task_ids(broker)
        lock.rollback()
    assert len(held) == 1, stack.worker_logs()  # acks_late: the task in hand was not acknowledged
    assert rated_games(stack, club) == FIRST  # the killed task wrote nothing

    second = stack.start_worker(**REDELIVERY)
    wait_until(lambda: rated_games(stack, club) == GAMES, 90, f"all {GAMES} games rated\n{stack.worker_logs()}")
    wait_until(lambda: broker.hlen("unacked") == 0 and broker.llen("celery") == 0, 30, "an empty queue")
    # the very message the killed worker held came back (the visibility timeout), besides the
    # outbox sweep the new worker queued when it connected
    wait_until(
        lambda: f"update_ratings_for_game[{held[0]}] succeeded" in second.log(),
        30,
        f"the held task redelivered\n{stack.worker_logs()}",
    )
    check = stack.probe("check", club)
    assert check == {**check, "finished": GAMES, "rated": GAMES, "pending": 0, "equal": True}


def task_states(broker) -> list[dict]:
    return [json.loads(broker.get(key)) for key in broker.scan_iter("celery-task-meta-*")]


def test_recompute_queue_ends_with_an_error_when_its_worker_dies(stack):
    club, _ = stack.new_club()
    stack.probe("history", club, 6000)
    worker = stack.start_worker()
    broker = stack.redis.client(0)
    started = time.monotonic()
    command = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "recompute_ratings",
            "--queue",
            "--club",
            str(club),
            "--no-progress",
            "--stall-timeout",
            "8",
        ],
        cwd=ROOT,
        env=stack.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(
            lambda: any(s["status"] == "PROGRESS" for s in task_states(broker)),
            60,
            f"the recompute running\n{stack.worker_logs()}",
            interval=0.02,
        )
        stack.kill_worker(worker)
        out, err = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            command.kill()
    assert command.returncode == 1, out + err
    assert "its worker stopped or died" in err
    assert time.monotonic() - started < 60
    assert stack.probe("status", club)["rated"] == 0  # the killed recompute wrote nothing
