"""Redis stopped during finishing appends (issue #14, findings 3 and 5): every append answers 201
at once, the pages and the API keep answering, and once Redis is back (empty: the broker's queue
is lost with it) the rating outbox's sweep delivers every rating task: the league equals a clean
recompute."""

from __future__ import annotations

import random

import pytest

from tests.faults.helpers import LEVEL, finish, players, rated_games
from tests.faults.instances import wait_until

pytestmark = pytest.mark.faults

GAMES = 8


def test_redis_down_during_finishing_appends_loses_no_rating(stack):
    stack.start_web()
    stack.start_worker()  # the default outbox settings: the sweep on reconnect delivers
    club, token = stack.new_club()
    rng = random.Random(2)
    games = []
    for _ in range(GAMES + 1):
        status, body, _ = stack.request(
            "POST", "/api/games/", {"club": club, "variant": "nanking", "players": players(rng)}, token
        )
        assert status == 201, body
        status, body, _ = stack.request(
            "POST", f"/api/games/{body['id']}/events/", {"expected_seq": 0, "events": LEVEL}, token
        )
        assert status == 201, body
        games.append(body["id"])
    *finishing, still_active = games

    stack.redis.stop()
    for gid in finishing:
        status, body, seconds = stack.request(
            "POST", f"/api/games/{gid}/events/", {"expected_seq": 4, "events": [finish(rng)]}, token
        )
        assert (status, body["status"]) == (201, "finished"), (body, stack.web_log())
        assert seconds < 3, f"the append waited {seconds:.1f} s for the broker"
    # pages and API alike, with the cache down
    for path in (
        f"/games/{still_active}/",
        f"/games/{still_active}/replay/",
        f"/api/games/{still_active}/state/",
        f"/games/{finishing[0]}/replay/",
        "/clubs/",
    ):
        status, body, _ = stack.request("GET", path)
        assert status == 200, (path, str(body)[:300], stack.web_log())
    assert stack.probe("status", club) == {"finished": GAMES, "rated": 0, "pending": GAMES}
    assert "ERROR" not in stack.web_log()

    stack.redis.start()  # empty: the tasks published before the outage would be gone too
    wait_until(
        lambda: rated_games(stack, club) == GAMES, 120, f"the outbox delivered\n{stack.worker_logs()}", interval=0.5
    )
    check = stack.probe("check", club)
    assert check == {**check, "finished": GAMES, "rated": GAMES, "pending": 0, "equal": True}
