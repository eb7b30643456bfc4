"""A duplicate night with Redis stopped when its round closes (issue 30, finding 2): the tables'
games finish while their round is open and a worker rates nothing of them; the round closes with
Redis down (201 at once); once Redis is back (empty: the broker's queue is lost with it) the
rating outbox's sweep rates the round's games, and the league equals a clean recompute."""

from __future__ import annotations

import pytest

from games import engine
from tests.faults.helpers import rated_games
from tests.faults.instances import wait_until

pytestmark = pytest.mark.faults

HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 1}
PAIRS = [["Anna", "Ben"], ["Cleo", "Dan"], ["Eva", "Finn"], ["Gus", "Hanna"]]


def api(stack, token: str, method: str, path: str, body=None, expected: int = 200) -> dict:
    status, answer, _ = stack.request(method, path, body, token)
    assert status == expected, (method, path, answer, stack.web_log()[-2000:])
    return answer


def play_out(stack, token: str, game: int) -> None:
    """The board's hand played to its end with the first legal action each time, as the TD."""
    record = api(stack, token, "GET", f"/api/games/{game}/record/")
    state = engine.fold(record)
    events = []
    while not state.history and not state.over:
        action = engine.legal_actions(state)[0]
        state.apply(action)
        events.append(action)
    answer = api(
        stack,
        token,
        "POST",
        f"/api/games/{game}/events/",
        {"expected_seq": len(record["events"]), "events": events},
        expected=201,
    )
    assert answer["status"] == "finished", answer


def test_a_duplicate_round_closed_with_redis_down_is_rated_once_redis_is_back(stack):
    stack.start_web()
    stack.start_worker()
    club, token = stack.new_club()
    tid = api(
        stack, token, "POST", "/api/tournaments/", {"club": club, "name": "Night", "header": HEADER}, expected=201
    )["id"]
    registered = [{"type": "entry_registered", "entry": f"e{i}", "players": p} for i, p in enumerate(PAIRS)]
    api(
        stack, token, "POST", f"/api/tournaments/{tid}/events/", {"expected_seq": 0, "events": registered}, expected=201
    )
    proposal = api(stack, token, "GET", f"/api/tournaments/{tid}/pairing/")
    api(
        stack,
        token,
        "POST",
        f"/api/tournaments/{tid}/events/",
        {"expected_seq": proposal["seq"], "events": [proposal["event"]]},
        expected=201,
    )
    tables = api(stack, token, "POST", f"/api/tournaments/{tid}/rounds/1/games/", expected=201)
    for table in tables:
        play_out(stack, token, table["game"])
    # the worker handles each finish's task, and rates nothing: the round is open
    wait_until(
        lambda: stack.probe("status", club)["pending"] == 0,
        60,
        f"the finishes' tasks\n{stack.worker_logs()}",
        interval=0.5,
    )
    assert stack.probe("status", club) == {"finished": 2, "rated": 0, "pending": 0}
    seq = 0
    for table in tables:
        seq = api(
            stack,
            token,
            "POST",
            f"/api/tournaments/{tid}/rounds/1/tables/{table['table']}/result-from-game/",
            {},
            expected=201,
        )["seq"]

    stack.redis.stop()
    status, body, seconds = stack.request(
        "POST",
        f"/api/tournaments/{tid}/events/",
        {"expected_seq": seq, "events": [{"type": "round_closed", "round": 1}]},
        token,
    )
    assert status == 201, (body, stack.web_log()[-2000:])
    assert seconds < 3, f"the close waited {seconds:.1f} s for the broker"
    assert stack.probe("status", club) == {"finished": 2, "rated": 0, "pending": 2}, "the close wrote their rows"

    stack.redis.start()
    wait_until(lambda: rated_games(stack, club) == 2, 120, f"the outbox delivered\n{stack.worker_logs()}", interval=0.5)
    check = stack.probe("check", club)
    assert check == {**check, "finished": 2, "rated": 2, "pending": 0, "equal": True}
