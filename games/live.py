"""Following a game in play: wait, a bounded time, until a game's stream grows past a seq.

The site runs Django's sync views under gunicorn sync workers (docs/api.md), so "live" is a long
poll, not server-sent events: an SSE stream would hold a worker for as long as a page stays open,
a long poll holds it at most ``MAX_WAIT`` seconds and then answers like any other request, so it
passes every proxy, needs no new moving part, and the reader's visibility is decided per answer by
the same code as any read (games.visibility). While waiting, the stream head's ``seq`` is read
every ``POLL_INTERVAL`` seconds: one primary-key lookup of one integer, which is what lets a page
see an append within a second. Outside a transaction each read sees the latest commit.

On PostgreSQL the wait does not sleep between reads: the game's head tells its listeners when its
`seq` grows (`pg_notify` on the channel `notify_channel(game_id)`, from a trigger on the head's
row, migration games/0030, so every path that appends tells them), and the wait LISTENs on its own
connection, reading the head again on a notification, or every `LISTEN_RECHECK` seconds at the
latest (nothing is lost if a notification is). An action then reaches the other seats' pages in
milliseconds, with no broker beside the database. Inside a transaction (a LISTEN takes effect
only at its commit), on SQLite, or with `TICHU_LIVE_LISTEN=0` (a pooler in transaction mode, such
as PgBouncer's, cannot keep a LISTEN), the wait reads the head every `POLL_INTERVAL` seconds.
"""

from __future__ import annotations

import os
import time

from django.db import connection

from games.models import Game

MAX_WAIT = 25.0  # seconds: below the usual 30 s proxy and gunicorn timeouts
POLL_INTERVAL = 0.15  # seconds between two reads of the stream head
LISTEN_RECHECK = 1.0  # seconds: the longest a listening wait goes without reading the head


def notify_channel(game_id: int) -> str:
    """The PostgreSQL channel a game's head notifies (the trigger of migration games/0030)."""
    return f"tichu_game_{int(game_id)}"


def _listens() -> bool:
    return (
        connection.vendor == "postgresql"
        and not connection.in_atomic_block
        and os.environ.get("TICHU_LIVE_LISTEN", "1") != "0"
    )


def _head_seq(game_id: int) -> int:
    return Game.objects.filter(pk=game_id).values_list("seq", flat=True).first() or 0


def wait_for_seq(game_id: int, after: int, wait: float, *, poll: float = POLL_INTERVAL) -> int:
    """The game's ``seq`` once it is greater than ``after``, or when ``wait`` seconds (at most
    ``MAX_WAIT``) have passed, whichever comes first."""
    deadline = time.monotonic() + max(0.0, min(wait, MAX_WAIT))
    if _listens() and deadline > time.monotonic():
        return _wait_listening(game_id, after, deadline)
    while True:
        seq = _head_seq(game_id)
        if seq > after or time.monotonic() >= deadline:
            return seq
        time.sleep(min(poll, max(0.0, deadline - time.monotonic())))


def _wait_listening(game_id: int, after: int, deadline: float) -> int:
    """wait_for_seq on PostgreSQL: LISTEN first, then read the head (a commit between the two is
    told), then sleep until a notification or the recheck, whichever comes first."""
    channel = notify_channel(game_id)
    with connection.cursor() as cursor:
        cursor.execute(f"LISTEN {channel}")
    try:
        pg = connection.connection
        while True:
            seq = _head_seq(game_id)
            left = deadline - time.monotonic()
            if seq > after or left <= 0:
                return seq
            for _note in pg.notifies(timeout=min(LISTEN_RECHECK, left), stop_after=1):
                pass
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"UNLISTEN {channel}")
