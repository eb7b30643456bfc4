"""The live server's long polls (games.live.wait_for_seq), ended when a browser test ends.

A page that follows a game (static/shared/live.js) keeps a long poll open on the live server, and
closing the page does not end it: the server's thread goes on reading the game's ``seq`` for up to
``live.MAX_WAIT`` seconds, into the next tests and past the session's end, where pytest-django
refuses it the database ("Database access not allowed" in the log). The `browser` fixture
(tests/plugins/browser.py) installs this watch and, once it has closed the test's pages, ends the
waits still running and waits for them to return: each wait is the original one, in slices of
``SLICE`` seconds, so it notices the end within one slice and otherwise behaves as before.
"""

from __future__ import annotations

import threading
import time

#: seconds: how often a watched wait checks whether the test has ended
SLICE = 0.3


class LongPolls:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._running = 0
        self._ending = False
        self._original = None

    def install(self) -> None:
        """Replace games.live.wait_for_seq by the watched wait (once per session)."""
        from games import live

        if self._original is None:
            self._original = live.wait_for_seq
            live.wait_for_seq = self.wait_for_seq

    def wait_for_seq(self, game_id: int, after: int, wait: float, **kwargs) -> int:
        from games import live

        deadline = time.monotonic() + max(0.0, min(wait, live.MAX_WAIT))
        with self._cond:
            self._running += 1
            self._cond.notify_all()
        try:
            while True:
                seq = self._original(game_id, after, min(SLICE, max(0.0, deadline - time.monotonic())), **kwargs)
                if seq > after or self._ending or time.monotonic() >= deadline:
                    return seq
        finally:
            with self._cond:
                self._running -= 1
                self._cond.notify_all()

    @property
    def running(self) -> int:
        return self._running

    def wait_until_running(self, count: int, timeout: float = 10.0) -> bool:
        """Wait until ``count`` waits are in flight (a test of this watch)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._running >= count, timeout=timeout)

    def end_all(self, timeout: float = 10.0) -> bool:
        """End the waits in flight and wait for them to return; True when none is left."""
        with self._cond:
            self._ending = True
            try:
                return self._cond.wait_for(lambda: self._running == 0, timeout=timeout)
            finally:
                self._ending = False


LONG_POLLS = LongPolls()
