"""Following a game in play: wait, a bounded time, until a game's stream grows past a seq.

The site runs Django's sync views under gunicorn sync workers (docs/api.md), so "live" is a long
poll, not server-sent events: an SSE stream would hold a worker for as long as a page stays open,
a long poll holds it at most ``MAX_WAIT`` seconds and then answers like any other request, so it
passes every proxy, needs no new moving part, and the reader's visibility is decided per answer by
the same code as any read (games.visibility). While waiting, the stream head's ``seq`` is read
every ``POLL_INTERVAL`` seconds: one primary-key lookup of one integer, which is what lets a page
see an append within a second. Outside a transaction each read sees the latest commit.
"""

from __future__ import annotations

import time

from games.models import Game

MAX_WAIT = 25.0  # seconds: below the usual 30 s proxy and gunicorn timeouts
POLL_INTERVAL = 0.15  # seconds between two reads of the stream head


def wait_for_seq(game_id: int, after: int, wait: float, *, poll: float = POLL_INTERVAL) -> int:
    """The game's ``seq`` once it is greater than ``after``, or when ``wait`` seconds (at most
    ``MAX_WAIT``) have passed, whichever comes first."""
    deadline = time.monotonic() + max(0.0, min(wait, MAX_WAIT))
    while True:
        seq = Game.objects.filter(pk=game_id).values_list("seq", flat=True).first() or 0
        if seq > after or time.monotonic() >= deadline:
            return seq
        time.sleep(min(poll, max(0.0, deadline - time.monotonic())))
