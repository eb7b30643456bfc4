"""Two gunicorn servers on one database behind one address serve the same online table (issue 34
item 3: no table lives in one process's memory, so a club that outgrows a machine adds machines).

Four seats play through one address (tests/faults/round_robin.py, each request to the next
server in turn, the POSTs alternating between the two) from their own threads, as four phones
would: the seat's link, its view long-polled, its actions with the seq it saw and an
Idempotency-Key (bench/online.py's SeatClient). They play until a trick is won; then every seat
has seen every action once (its views follow each other, seq after seq, never back, and end at
the record's last event), the record holds every accepted action once, and an action sent again
with its key is answered by either server as the first time and stored once.
"""

from __future__ import annotations

import random
import secrets
import threading
import uuid
from dataclasses import dataclass, field

import pytest

from bench.online import SeatClient, start_gunicorn, stop_gunicorn
from tests.faults.instances import free_port
from tests.faults.round_robin import RoundRobinProxy

pytestmark = pytest.mark.faults

TABLE_STEPS = ("shuffle", "deal")  # the events the table appends itself (games/online/services.py)


@dataclass
class Seen:
    """One seat's observations in order: (seq it had, seq the answer showed, what answered)."""

    steps: list[tuple[str, int, int]] = field(default_factory=list)
    accepted: list[tuple[dict, int, str, dict]] = field(default_factory=list)  # action, seq, key, answer
    servers: set[str] = field(default_factory=set)  # the servers that accepted its actions
    errors: list[str] = field(default_factory=list)


def trick_won(view: dict) -> bool:
    """Every other seat has passed on a play: the trick is won (closed; its cards are collected at
    the next lead, which nobody makes here)."""
    state = view.get("state") or {}
    return bool(state.get("trick_closed")) or any(t["cards"] for t in state.get("tricks_won") or [])


def choose(view: dict, rng: random.Random) -> dict | None:
    """The seat's move among those its view offers: its exchange, no Grand Tichu, in turn a play or
    a pass; never a call nor a bomb out of turn (so that nobody acts once the trick is won)."""
    if not view.get("ready") or view.get("status") != "active":
        return None
    state = view["state"]
    if view["push_due"]:
        cards = rng.sample(state["hands"][view["hand_seat"]], len(view["push_due"]))
        return {"type": "push", "seat": view["push_seat"], "cards": dict(zip(view["push_due"], cards))}
    for kind in ("no_grand_tichu", "dragon_gift"):  # the deal waits for the one, the trick for the other
        offered = [a for a in view["actions"] if a["type"] == kind]
        if offered:
            return dict(rng.choice(offered))
    if state.get("turn") not in view["controls"]:
        return None
    actions = [a for a in view["actions"] if a["type"] not in ("tichu", "grand_tichu")]
    return dict(rng.choice(actions)) if actions else None


def play_until_a_trick_is_won(client: SeatClient, seen: Seen, rng: random.Random) -> None:
    try:
        assert client.open().status == 200
        answer = client.view()
        seen.steps.append(("view", -1, answer.body["seq"]))
        view = answer.body
        while not trick_won(view):
            move = choose(view, rng)
            if move is None:
                answer = client.view(after=view["seq"], wait=20)
                seen.steps.append(("poll", view["seq"], answer.body["seq"]))
            else:
                key = secrets.token_hex(8)
                answer = client.act(move, view["seq"], key)
                seen.steps.append((f"act {answer.status}", view["seq"], answer.body["view"]["seq"]))
                if answer.status == 200:
                    seen.accepted.append((move, view["seq"], key, answer.body))
                    seen.servers.add(answer.server)
            view = answer.body["view"] if "view" in answer.body else answer.body
    except Exception as err:
        seen.errors.append(repr(err))


@pytest.fixture
def two_servers(stack, tmp_path):
    """Two gunicorns as deploy/ runs them (two workers each here: the CI machine is small) on the
    stack's PostgreSQL and Redis, and the one address in front of them."""
    servers, ports = [], []
    try:
        for n in range(2):
            ports.append(free_port())
            servers.append(
                start_gunicorn(stack.env, ports[-1], tmp_path, tmp_path / f"gunicorn-{n}.log", "--workers", "2")
            )
        proxy = RoundRobinProxy([("127.0.0.1", p) for p in ports], free_port()).start()
        try:
            yield proxy
        finally:
            proxy.close()
    finally:
        for server in servers:
            stop_gunicorn(server)


def test_two_servers_behind_one_address_serve_one_table(stack, two_servers):
    table = stack.probe("online", f"online-{uuid.uuid4().hex[:8]}")
    clients = [SeatClient(two_servers.base, secret) for secret in table["secrets"]]
    seen = [Seen() for _ in clients]
    threads = [
        threading.Thread(target=play_until_a_trick_is_won, args=(c, s, random.Random(n)), daemon=True)
        for n, (c, s) in enumerate(zip(clients, seen))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), [s.steps[-3:] for s in seen]
    assert [s.errors for s in seen] == [[]] * 4

    record = stack.probe("events", table["game"])
    final = record["seq"]
    # every seat saw every action once: each answer starts where the seat was, goes forward or
    # stays (a refusal, a "no Grand Tichu"), never back, and the last shows the record's end
    for s in seen:
        chain = s.steps[1:]
        assert all(had == prev for (_, had, _), (_, _, prev) in zip(chain, s.steps)), s.steps
        assert all(shown >= had for _, had, shown in chain), s.steps
        assert all(shown > had for kind, had, shown in chain if kind == "poll"), s.steps
        assert s.steps[-1][2] == final
    # the record holds each accepted action once, beside the table's own shuffle and deal
    stored = [e for e in record["events"] if e["type"] not in TABLE_STEPS]
    sent = [move for s in seen for move, *_ in s.accepted if move["type"] != "no_grand_tichu"]
    assert len(stored) == len(sent) >= 5  # four pushes and at least the trick's lead
    assert sorted(e["type"] for e in stored) == sorted(m["type"] for m in sent)
    # the actions landed on both servers
    assert set().union(*(s.servers for s in seen)) == {"0", "1"}
    assert all(two_servers.answered)

    # the last accepted play or pass, sent again with its key: each server answers it as the first
    # time (the two POSTs go to the two servers in turn), and nothing is stored twice
    owner = next(n for n, s in enumerate(seen) if s.accepted and s.accepted[-1][0]["type"] in ("play", "pass"))
    move, expected, key, first = seen[owner].accepted[-1]
    again = [clients[owner].act(move, expected, key) for _ in range(2)]
    assert {a.server for a in again} == {"0", "1"}
    assert [a.status for a in again] == [200, 200]
    assert stack.probe("events", table["game"])["seq"] == final
