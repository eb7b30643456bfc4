"""Issue #14, finding 4: `recompute_ratings --queue` ends with an error when its worker dies.

The follower (games.ratings.management.commands.recompute_ratings.py `follow`) is driven here by a fake
AsyncResult whose state script is what Redis would show; tests/faults/ kills a real worker."""

from __future__ import annotations

import itertools
import time

import pytest
from django.core.management.base import CommandError

from games.ratings.management.commands.recompute_ratings import follow


class ScriptedResult:
    """An AsyncResult whose (state, info) follows `script`, the last entry repeating for ever."""

    id = "task-1"

    def __init__(self, script):
        self._steps = itertools.chain(script, itertools.repeat(script[-1]))
        self.state, self.info = "PENDING", None

    def advance(self):
        self.state, self.info = next(self._steps)


def run(result, **timeouts):
    seen = []

    def progress(stage, done, total):
        seen.append((stage, done, total))

    real_sleep = time.sleep

    def tick(_):
        result.advance()
        real_sleep(0.01)

    import games.ratings.management.commands.recompute_ratings as command

    command.time.sleep, saved = tick, command.time.sleep
    try:
        follow(result, progress, poll=0.01, **timeouts)
    finally:
        command.time.sleep = saved
    return seen


def beat(n, done=1):
    return ("PROGRESS", {"stage": "rate", "done": done, "total": 10, "club": 1, "beat": n})


def test_a_task_whose_heartbeat_stops_ends_the_command_with_an_error():
    result = ScriptedResult([("STARTED", {}), beat(1), beat(2), beat(3)])  # then silent: the worker died
    with pytest.raises(CommandError, match="has not reported for 0 s: its worker stopped or died"):
        run(result, start_timeout=5, stall_timeout=0.3)


def test_a_task_nobody_starts_ends_the_command_with_an_error():
    result = ScriptedResult([("PENDING", None)])
    with pytest.raises(CommandError, match="no Celery worker started the recompute"):
        run(result, start_timeout=0.2, stall_timeout=5)


def test_a_slow_stage_with_a_live_heartbeat_is_followed_to_the_end():
    # the same `done` for longer than the stall timeout, but the heartbeat goes on
    script = [beat(n, done=3) for n in range(1, 80)] + [("SUCCESS", [])]
    seen = run(ScriptedResult(script), start_timeout=5, stall_timeout=0.3)
    assert seen and seen[-1] == ("rate", 3, 10)
