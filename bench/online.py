"""Online tables, live: how soon an action reaches the other seats (issue 34 item 3).

    .venv/bin/python bench/online.py [--tables 8] [--seconds 30] [--think 0.5] [--db URL] [--json] [--check]

What it does, in one run:

1. (Re)creates the database ``tichu_bench_online`` on PostgreSQL (``--db``, default
   ``postgres://postgres@127.0.0.1:5432/tichu_bench_online``) when PostgreSQL answers, else a
   SQLite file in a temporary directory (the report says which), migrates it, and opens
   ``--tables`` online tables of Tichu (``games.online.services.open_table``), four seats each,
   no seat the server's bot.
2. Starts gunicorn as deploy/ runs it (``deploy/gunicorn.conf.py``: gthread, 4 workers x 16
   threads; only the bind address, the pid file and the control socket moved to this run's own),
   DEBUG off, on a free port of 127.0.0.1.
3. Plays every seat of every table from its own thread, over HTTP as a seat's page does
   (``SeatClient``: the seat's link, then its view long-polled with ``after``/``wait``, its
   actions POSTed with the seq it saw and an Idempotency-Key; the page's CSRF cookie). A seat picks
   its move among those its view offers (``choose``), after ``--think`` seconds (0.5x to 1.5x,
   at random), and calls no Tichu. Beside them a thread pings the same server
   (``GET /api/ping/``, 10 a second): the baseline of this run.
4. For each action and each other seat of its table whose long poll was waiting for it, measures
   the time from the action's POST response to that seat's long-poll return (what the issue
   names; negative when the poll answers before the actor reads its own answer), and from the
   POST's sending (an upper bound: the actor's whole request included). Prints p50 and p95 of
   both, their ratio to the 500 ms target and to the ping's p50 of the same run; ``--check``
   exits 1 when a p95 is over the target.

On PostgreSQL the long poll LISTENs for the game's head (games.live): the response-to-return time
is the server's load. On SQLite it reads the head every ``games.live.POLL_INTERVAL`` (0.15 s)
seconds, and about half of that is the floor.
The clients run on the same machine as the server, as on the CI machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tichu_bench_online"
TARGET_MS = 500.0
LONG_POLL_S = 20.0
PING_EVERY_S = 0.1
PLAYERS = ["Ada", "Ben", "Cyd", "Dot"]


# --- one seat over HTTP --------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    body: dict
    sent: float  # time.monotonic() when the request was sent
    answered: float  # ... and when its answer was read
    server: str  # the X-Backend header a test's proxy adds ("" without one)


class SeatClient:
    """A seat's page, as far as the server can tell: its link (which joins the seat and sets the
    CSRF cookie), its view (long-polled), its actions (with the seq seen and an Idempotency-Key).
    One connection per request, like a browser's page behind a proxy that does not keep them."""

    def __init__(self, base: str, secret: str) -> None:
        where = urlparse(base)
        self.host, self.port = where.hostname or "127.0.0.1", where.port or 80
        self.secret = secret
        self.csrf = ""

    def request(
        self, method: str, path: str, body: dict | None = None, headers: dict | None = None, form: dict | None = None
    ) -> Answer:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=LONG_POLL_S + 30)
        sent_headers = dict(headers or {})
        if self.csrf:
            sent_headers["Cookie"] = f"csrftoken={self.csrf}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent_headers.update({"Content-Type": "application/json", "X-CSRFToken": self.csrf})
        elif form is not None:  # a page's form (the seat's take-seat button)
            data = urlencode({"csrfmiddlewaretoken": self.csrf, **form}).encode()
            sent_headers["Content-Type"] = "application/x-www-form-urlencoded"
        sent = time.monotonic()
        try:
            conn.request(method, path, body=data, headers=sent_headers)
            response = conn.getresponse()
            raw = response.read()
            answered = time.monotonic()
            for header in response.headers.get_all("Set-Cookie") or []:
                cookie = SimpleCookie(header)
                if "csrftoken" in cookie:
                    self.csrf = cookie["csrftoken"].value
            server = response.headers.get("X-Backend", "")
        finally:
            conn.close()
        try:
            parsed = json.loads(raw) if raw else {}
        except ValueError:
            parsed = {"text": raw.decode(errors="replace")[:2000]}
        return Answer(response.status, parsed if isinstance(parsed, dict) else {}, sent, answered, server)

    def open(self) -> Answer:
        """The seat's link, then its button: a GET only offers the seat (and sets the CSRF
        cookie), the form's POST joins it (the table deals once every seat has)."""
        page = self.request("GET", f"/online/seat/{self.secret}/")
        if page.status == 200:
            joined = self.request("POST", f"/online/seat/{self.secret}/", headers={"X-CSRFToken": self.csrf}, form={})
            if joined.status not in (200, 302):
                return joined
        return page

    def view(self, after: int | None = None, wait: float = 0.0) -> Answer:
        query = f"?after={after}&wait={wait}" if after is not None else ""
        return self.request("GET", f"/online/seat/{self.secret}/view/{query}")

    def act(self, action: dict, expected_seq: int, key: str) -> Answer:
        return self.request(
            "POST",
            f"/online/seat/{self.secret}/act/",
            {"action": action, "expected_seq": expected_seq},
            {"Idempotency-Key": key},
        )


def choose(view: dict, rng: random.Random) -> dict | None:
    """A seat's move among those its view offers, or None when it has nothing to do now: the
    exchange (cards at random), no Grand Tichu, and in turn a play (mostly) or a pass; no Tichu,
    and a bomb out of turn only now and then."""
    if not view.get("ready") or view.get("status") != "active":
        return None
    state = view.get("state") or {}
    hands = state.get("hands") or []
    if view.get("push_due"):
        hand = hands[view["hand_seat"]] if hands else []
        cards = rng.sample(hand, len(view["push_due"]))
        return {"type": "push", "seat": view["push_seat"], "cards": dict(zip(view["push_due"], cards))}
    actions = [a for a in view.get("actions", []) if a["type"] not in ("tichu", "grand_tichu")]
    if not actions:
        return None
    plays = [a for a in actions if a["type"] == "play"]
    if plays and state.get("turn") not in view.get("controls", []) and rng.random() < 0.95:
        return None  # a bomb out of turn: now and then only
    return dict(rng.choice(plays if plays and rng.random() < 0.7 else actions))


@dataclass
class SeatLog:
    """What one seat saw: its actions (seq before, seq after, sent, answered, server) and its long
    polls (after, seq returned, returned at, server)."""

    table: int
    seat: int
    actions: list[tuple[int, int, float, float, str]] = field(default_factory=list)
    polls: list[tuple[int, int, float, str]] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)  # status -> count
    errors: list[str] = field(default_factory=list)


def play_seat(client: SeatClient, log: SeatLog, stop: threading.Event, rng: random.Random, think: float) -> None:
    """Play one seat until `stop` or the game's end: act when the view offers a move, else wait
    for the table to move (the long poll)."""
    try:
        opened = client.open()
        if opened.status != 200:
            log.errors.append(f"seat page {opened.status}")
            return
        view = client.view().body
        while not stop.is_set() and view.get("status") == "active":
            move = choose(view, rng)
            if move is None:
                answer = client.view(after=view["seq"], wait=LONG_POLL_S)
                if answer.status != 200:
                    log.errors.append(f"view {answer.status}")
                    time.sleep(0.5)
                    continue
                log.polls.append((view["seq"], answer.body["seq"], answer.answered, answer.server))
                view = answer.body
                continue
            if think:
                time.sleep(think * rng.uniform(0.5, 1.5))
            answer = client.act(move, view["seq"], secrets.token_hex(8))
            if answer.status == 200:
                log.actions.append(
                    (view["seq"], answer.body["view"]["seq"], answer.sent, answer.answered, answer.server)
                )
            else:
                # 409: another seat was first (a bomb, a race); 400: a random push the rules refuse
                log.refused[answer.status] = log.refused.get(answer.status, 0) + 1
                if "view" not in answer.body:
                    log.errors.append(f"act {answer.status}: {answer.body}")
                    return
            view = answer.body["view"]
    except Exception as err:  # a bench reports its clients' failures, it does not hide them
        log.errors.append(repr(err))


def reach_times(logs: list[SeatLog]) -> tuple[list[float], list[float]]:
    """For each action and each other seat of its table whose long poll was waiting for it (the
    poll's `after` at most the action's seq before, its answer past it, answered after the action
    was sent): seconds from the action's answer, and from its sending, to that poll's return."""
    from_answer: list[float] = []
    from_sending: list[float] = []
    for actor in logs:
        others = [log for log in logs if log.table == actor.table and log.seat != actor.seat]
        for before, _after, sent, answered, _server in actor.actions:
            for other in others:
                returns = [t for after, seq, t, _ in other.polls if after <= before < seq and t >= sent]
                if returns:
                    from_answer.append(min(returns) - answered)
                    from_sending.append(min(returns) - sent)
    return from_answer, from_sending


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# --- the server ----------------------------------------------------------------------------------


def postgres_answers(url: str) -> bool:
    try:
        import psycopg

        admin = urlparse(url)._replace(path="/postgres").geturl()
        with psycopg.connect(admin, connect_timeout=2):
            return True
    except Exception:
        return False


def recreate_postgres(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def server_env(database_url: str) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DATABASE_OWNER_URL", "CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")
    }
    env.update(
        {
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "tichu_site.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-online-" + "x" * 50,
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "TICHU_LOG_LEVEL": "ERROR",
        }
    )
    return env


def open_tables(env: dict, tables: int) -> list[list[str]]:
    """Migrate, then open `tables` tables of four seats (in a child process, on the run's
    database): each table's seat secrets in seat order."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    script = (
        "import json, django; django.setup()\n"
        "from django.contrib.auth import get_user_model\n"
        "from games.models import Club, Membership\n"
        "from games.online import services\n"
        "user = get_user_model().objects.create_user('bench-online')\n"
        "club = Club.objects.create(name='Bench online', slug='bench-online')\n"
        "Membership.objects.create(club=club, user=user, role=Membership.Role.SCORER)\n"
        f"tables = [services.open_table(club=club, variant='nanking', options=None, players={PLAYERS!r}, user=user)"
        f" for _ in range({tables})]\n"
        "print(json.dumps([[s.secret for s in t.seats.order_by('seat')] for t in tables]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def gunicorn_config(run_dir: Path) -> Path:
    """deploy/gunicorn.conf.py as it is, with this run's bind address, pid file and control
    socket (the deployed ones are under /run/tichu-web)."""
    config = run_dir / f"gunicorn-{uuid.uuid4().hex[:8]}.conf.py"
    config.write_text(
        f"exec(open({str(ROOT / 'deploy' / 'gunicorn.conf.py')!r}).read())\n"
        f"pidfile = {str(config.with_suffix('.pid'))!r}\n"
        f"control_socket = {str(config.with_suffix('.ctl'))!r}\n"
        "accesslog = None\n"
    )
    return config


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(env: dict, port: int, run_dir: Path, log_path: Path, *extra: str) -> subprocess.Popen:
    """gunicorn on 127.0.0.1:`port` with deploy's settings (`extra`: command-line settings over
    them, e.g. fewer workers); returns once /api/ping/ answers."""
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    command = [gunicorn, "tichu_site.wsgi:application", "--config", str(gunicorn_config(run_dir)),
               "--bind", f"127.0.0.1:{port}", *extra]  # fmt: skip
    with open(log_path, "ab") as log:
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}:\n{log_path.read_text()[-3000:]}")
        try:
            if SeatClient(f"http://127.0.0.1:{port}", "").request("GET", "/api/ping/").status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    stop_gunicorn(server)
    raise RuntimeError("gunicorn did not answer within 60 s")


def stop_gunicorn(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# --- the run -------------------------------------------------------------------------------------


def ping_loop(base: str, stop: threading.Event, out: list[float]) -> None:
    client = SeatClient(base, "")
    while not stop.is_set():
        answer = client.request("GET", "/api/ping/")
        if answer.status == 200:
            out.append(answer.answered - answer.sent)
        stop.wait(PING_EVERY_S)


def run(opts) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-online-") as tmp:
        run_dir = Path(tmp)
        if not opts.sqlite and postgres_answers(opts.db):
            recreate_postgres(opts.db)
            database, database_url = "PostgreSQL", opts.db
        else:
            database, database_url = "SQLite", f"sqlite:///{run_dir / 'bench.sqlite3'}"
        env = server_env(database_url)
        secrets_by_table = open_tables(env, opts.tables)
        port = free_port()
        server = start_gunicorn(env, port, run_dir, run_dir / "gunicorn.log")
        base = f"http://127.0.0.1:{port}"
        stop = threading.Event()
        logs = [SeatLog(t, s) for t in range(opts.tables) for s in range(len(PLAYERS))]
        pings: list[float] = []
        threads = [threading.Thread(target=ping_loop, args=(base, stop, pings), daemon=True)]
        for log in logs:
            client = SeatClient(base, secrets_by_table[log.table][log.seat])
            rng = random.Random(opts.seed * 1000 + log.table * 10 + log.seat)
            threads.append(threading.Thread(target=play_seat, args=(client, log, stop, rng, opts.think), daemon=True))
        try:
            for thread in threads:
                thread.start()
            time.sleep(opts.seconds)
        finally:
            stop.set()
            for thread in threads:
                thread.join(LONG_POLL_S + 10)
            stop_gunicorn(server)
        if database == "PostgreSQL":
            recreate_postgres(opts.db)  # leave no load behind; the next run recreates it anyway
    from_answer, from_sending = reach_times(logs)
    errors = [f"table {log.table} seat {log.seat}: {e}" for log in logs for e in log.errors]
    if not from_answer or not pings:
        seen = [(log.table, log.seat, len(log.actions), len(log.polls), log.refused) for log in logs]
        raise SystemExit(f"nothing measured: {errors[:5]}; (table, seat, actions, polls, refused): {seen}")
    ping_p50 = statistics.median(pings)
    figures = {
        name: {"p50_ms": percentile(values, 0.5) * 1000, "p95_ms": percentile(values, 0.95) * 1000}
        for name, values in (("from_answer", from_answer), ("from_sending", from_sending))
    }
    for figure in figures.values():
        figure["p95_to_target"] = figure["p95_ms"] / TARGET_MS
        figure["p50_to_ping"] = figure["p50_ms"] / (ping_p50 * 1000)
        figure["p95_to_ping"] = figure["p95_ms"] / (ping_p50 * 1000)
    return {
        "database": database,
        "tables": opts.tables,
        "seconds": opts.seconds,
        "think_s": opts.think,
        "actions": sum(len(log.actions) for log in logs),
        "measured": len(from_answer),
        "refused": {str(k): sum(log.refused.get(k, 0) for log in logs) for k in (400, 409)},
        "errors": errors,
        "ping_p50_ms": ping_p50 * 1000,
        "ping_p95_ms": percentile(pings, 0.95) * 1000,
        "load_average": os.getloadavg()[0],
        **figures,
    }


def print_report(result: dict) -> None:
    print(
        f"Online bench: {result['tables']} tables x 4 seats over HTTP, {result['seconds']:.0f} s, think "
        f"{result['think_s']} s, gunicorn as deploy/ (gthread 4 x 16), {result['database']}; "
        f"load average {result['load_average']:.2f}"
    )
    print(
        f"  {result['actions']} actions, {result['measured']} (action, other seat) arrivals measured; refused "
        f"{result['refused']}; client errors {len(result['errors'])}"
    )
    print(f"  baseline ping: p50 {result['ping_p50_ms']:.1f} ms, p95 {result['ping_p95_ms']:.1f} ms")
    for name, words in (
        ("from_answer", "action's answer -> poll return"),
        ("from_sending", "action sent -> poll return"),
    ):
        f = result[name]
        print(
            f"  {words:32s} p50 {f['p50_ms']:7.1f} ms  p95 {f['p95_ms']:7.1f} ms  "
            f"p95/target {f['p95_to_target']:.2f}  p50/ping {f['p50_to_ping']:.1f}  p95/ping {f['p95_to_ping']:.1f}"
        )
    for error in result["errors"][:5]:
        print("  error:", error)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.5, help="a seat's mean think time (s) before it acts")
    parser.add_argument("--db", default=DEFAULT_DB, help="PostgreSQL URL of the run's database (recreated)")
    parser.add_argument("--sqlite", action="store_true", help="SQLite even when PostgreSQL answers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 when a p95 is over the 500 ms target")
    opts = parser.parse_args(argv)
    result = run(opts)
    if opts.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
    missed = result["from_sending"]["p95_ms"] > TARGET_MS or result["from_answer"]["p95_ms"] > TARGET_MS
    return 1 if opts.check and (missed or result["errors"]) else 0


if __name__ == "__main__":
    sys.exit(main())
