"""PostgreSQL restarted under a worker (issue #14, "Must be true" 3): a worker whose database
connection died, and a worker started while the database is down with rating tasks waiting,
both recover once PostgreSQL is back (task retries, then the outbox's beat sweep); nothing is
lost and the league equals a clean recompute."""

from __future__ import annotations

import time

import pytest

from tests.faults.helpers import import_games, rated_games
from tests.faults.instances import wait_until

pytestmark = pytest.mark.faults

# the beat sweep every 2 s for rows older than 1 s, and again 5 s after a sweep queued them
SWEEPS = {"TICHU_OUTBOX_SWEEP_S": "2", "TICHU_OUTBOX_GRACE_S": "1", "TICHU_OUTBOX_REQUEUE_S": "5"}


def web_answers_after_the_restart(stack) -> None:
    """Every gunicorn worker held a persistent connection that the restart killed: with
    CONN_HEALTH_CHECKS each checks it before reuse and reconnects, so no request fails."""
    answers = [stack.request("GET", "/api/clubs/")[0] for _ in range(12)]
    assert answers == [200] * 12, answers


def test_workers_recover_when_postgres_restarts_under_them(stack):
    stack.start_web()
    club, token = stack.new_club()
    first = stack.start_worker(beat=True, **SWEEPS)
    import_games(stack, club, token, 3, seed=3)
    wait_until(lambda: rated_games(stack, club) == 3, 60, "the first ratings")

    # a restart under an idle worker: its persistent connection is dead afterwards
    stack.pg.stop()
    time.sleep(3)  # the beat's sweeps fail meanwhile (logged); the worker must stay up
    stack.pg.start()
    assert first.process.poll() is None, stack.worker_logs()
    web_answers_after_the_restart(stack)
    import_games(stack, club, token, 3, seed=4)
    wait_until(lambda: rated_games(stack, club) == 6, 60, f"ratings after the restart\n{stack.worker_logs()}")

    # tasks waiting while the database is down, for a worker that starts then
    first.process.terminate()
    first.process.wait(30)
    import_games(stack, club, token, 3, seed=5)
    stack.pg.stop()
    second = stack.start_worker(beat=True, **SWEEPS)
    time.sleep(4)  # its tasks fail and retry against the stopped database
    stack.pg.start()
    web_answers_after_the_restart(stack)
    wait_until(lambda: rated_games(stack, club) == 9, 120, f"every game rated\n{stack.worker_logs()}", interval=0.5)
    assert second.process.poll() is None
    check = stack.probe("check", club)
    assert check == {**check, "finished": 9, "rated": 9, "pending": 0, "equal": True}
