"""API benchmark: event append latency and throughput on PostgreSQL, against a real server.

    .venv/bin/python bench/api.py [--clients 1,2,4,8] [--seconds 3] [--rounds 3] [--workers 4] [--json] [--check]

What it does, in one run:

1. (Re)creates the database ``tichu_bench`` (``--db``, default
   ``postgres://postgres@127.0.0.1:5432/tichu_bench``), migrates it, and creates a scorer with a
   token, a club, one empty game per client, round and concurrency level, and one complete
   bot-played game for the state reads.
2. Starts gunicorn on 127.0.0.1 and a free port (``--workers`` sync workers, DEBUG off, write
   throttling lifted, Redis as the shared cache when it answers, else each worker's own memory).
3. For each concurrency level of ``--clients`` (default 1, 2, 4 and 8), runs that many concurrent
   client processes (one new HTTP connection per request, as a sync worker closes them), phase
   after phase, ``--rounds`` times so that other load on the machine hits every phase alike
   (``--seconds`` each, after a short warm-up):
   - ``ping``: ``GET /api/ping/`` with the token: the trivial DRF endpoint (authentication
     included), the yardstick;
   - ``append``: ``POST /api/games/{id}/events/`` with one event of a bot-played game and
     ``expected_seq``, each client on its own game;
   - ``state``: ``GET /api/games/{id}/state/?at=N`` at random N of a complete game.
4. Prints median, p99, throughput and server CPU per request (gunicorn, the bench database's
   PostgreSQL backends and Redis, from /proc; PostgreSQL's shared processes and other databases'
   backends apart, not counted) per phase and level, and the ratios to ping. Targets (issue 35):
   append median at most 2x the ping median and append server CPU at most 2.5 ms at every level;
   state median at most 10 ms at every level
   with no more clients than the server has CPUs, where the median is the request's own cost
   (``--check`` exits 1 when missed).

Latencies are closed-loop (each client waits for its answer) and the clients run on the same
machine, so with more clients than CPUs the median is mostly queueing (Little's law: clients /
throughput): those levels are reported, with their throughput, but the state target is not judged
on them. The ratios to the trivial endpoint, measured in the same rounds, are what compares across
machines, levels and loads. The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tichu_bench"
REDIS_URL = "redis://127.0.0.1:6379/7"
TARGET_APPEND_RATIO = 2.0  # issue 35 (3x before)
TARGET_APPEND_SERVER_CPU_MS = 2.5  # issue 35: gunicorn + the bench database's PostgreSQL backends
TARGET_STATE_MEDIAN_MS = 10.0
WARMUP_SECONDS = 0.5


# --- set-up --------------------------------------------------------------------------------------


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def prepare_data(levels: list[int], rounds: int) -> dict:
    """Migrate and create the objects the clients use (in this process, through the services)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from games.engine import random_game
    from games.models import Club, Membership
    from games.services import game_create, game_import

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench")
    token = Token.objects.create(user=user).key
    club = Club.objects.create(name="Bench", slug="bench")
    Membership.objects.create(club=club, user=user, role=Membership.Role.SCORER)
    records = [random_game(1000 + c) for c in range(max(levels))]

    def empty_game(rec: dict) -> int:
        return game_create(club=club, variant="nanking", options=None, players=rec["players"], user=user).body["id"]

    # games[level][round][client]: every append phase starts on fresh games
    games = [[[empty_game(rec) for rec in records[:level]] for _ in range(rounds)] for level in levels]
    full = random_game(7)
    full_id = game_import(club=club, record=full, user=user).body["id"]
    connections.close_all()
    return {
        "token": token,
        "events": [rec["events"] for rec in records],
        "games": games,
        "state_game": full_id,
        "state_len": len(full["events"]),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, workers: int, env: dict) -> subprocess.Popen:
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    command = [gunicorn, "tichu_site.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
               "--worker-class", "sync", "--log-level", "warning", "--timeout", "60"]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            status, _ = request(port, "GET", "/api/ping/", None, {})
            if status == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode}")
        time.sleep(0.2)
    stop_server(server)
    raise SystemExit("gunicorn did not answer within 30 s")


def warm_up(port: int, data: dict, workers: int) -> None:
    """Every worker imports the URLconf, views and engine on its first requests, and reads the
    state game's events and snapshots once into its own memory: do that before measuring
    (concurrent requests, so that each sync worker gets some; a sweep of positions twice per
    worker)."""
    auth = {"Authorization": f"Token {data['token']}"}
    state = f"/api/games/{data['state_game']}/state/?at="
    paths = ["/api/ping/"] * workers * 4
    paths += [state + str(at) for _ in range(workers * 2) for at in range(0, data["state_len"], 50)]
    with multiprocessing.get_context("fork").Pool(workers * 2) as pool:
        pool.starmap(request, [(port, "GET", path, None, auth) for path in paths])


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# --- clients -------------------------------------------------------------------------------------


def request(port: int, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def client_loop(args: tuple) -> dict:
    """One client process: run `phase` for `seconds` (after a warm-up), return latencies (s)."""
    port, phase, seconds, token, job = args
    auth = {"Authorization": f"Token {token}"}
    rng = random.Random(os.getpid())
    latencies: list[float] = []
    errors: list[str] = []
    seq = 0
    requests = 0
    warm_until = time.monotonic() + WARMUP_SECONDS
    end = warm_until + seconds
    while True:
        now = time.monotonic()
        if now >= end:
            break
        if phase == "ping":
            method, path, body, headers = "GET", "/api/ping/", None, auth
        elif phase == "append":
            if seq >= len(job["events"]):
                break
            payload = {"expected_seq": seq, "events": [job["events"][seq]]}
            method, path = "POST", f"/api/games/{job['game']}/events/"
            body, headers = json.dumps(payload).encode(), {**auth, "Content-Type": "application/json"}
        else:
            method, path = "GET", f"/api/games/{job['game']}/state/?at={rng.randint(0, job['length'])}"
            body, headers = None, auth
        started = time.perf_counter()
        status, content = request(port, method, path, body, headers)
        elapsed = time.perf_counter() - started
        requests += 1
        expected = 201 if phase == "append" else 200
        if status != expected:
            errors.append(f"{status} {content[:200]!r}")
            if phase == "append":
                break
        elif phase == "append":
            seq += 1
        if now >= warm_until:
            latencies.append(elapsed)
    return {"latencies": latencies, "errors": errors, "requests": requests}


SERVER_GROUPS = ("gunicorn", "postgres", "redis")
#: CPU also measured but not in a request's server CPU: the PostgreSQL processes that serve every
#: database of the server (WAL writer, checkpointer, background writer, autovacuum) and the
#: backends of other databases, which on a machine shared with other work are mostly theirs
SHARED_GROUPS = ("postgres shared",)
_server_pgid: int | None = None  # gunicorn's process group (started in a session of its own)
_bench_db: str | None = None  # the bench database's name: its backends are the bench's


def _postgres_group(pid: str) -> str:
    """ "postgres" for a backend of the bench's database ("postgres: 15/main: USER DB HOST(PORT)
    STATE" on Linux), else "postgres shared"."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
    except OSError:
        return "postgres shared"
    return "postgres" if _bench_db is not None and _bench_db in words[2:5] else "postgres shared"


def server_cpu_seconds() -> dict[int, tuple[str, float]] | None:
    """CPU seconds used so far by each server-side process on this machine, with its group:
    gunicorn (master and workers: the server's process group), PostgreSQL (the backends of the
    bench's database; the server's shared processes and other databases' backends apart, as
    "postgres shared": other sessions' tests on a shared machine are not the bench's) and Redis.
    The bench and its clients are never counted. None where /proc cannot tell."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    usage: dict[int, tuple[str, float]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, _, tail = stat.read_text().rpartition(")")
            fields = tail.split()
            name, pgid = head.partition("(")[2], int(fields[2])
        except (OSError, ValueError, IndexError):
            continue
        group = (
            "gunicorn"
            if _server_pgid is not None and pgid == _server_pgid
            else _postgres_group(stat.parent.name)
            if name == "postgres"
            else "redis"
            if name.startswith("redis-server")
            else None
        )
        if group is not None:
            usage[int(stat.parent.name)] = (group, (int(fields[11]) + int(fields[12])) / tick)  # utime + stime
    return usage or None


def cpu_used(before: dict | None, after: dict | None) -> dict[str, float] | None:
    """CPU seconds per group between two readings: the growth of every process alive at the second
    one (a process born in between counts whole; one that exited in between, such as an
    autovacuum worker, is left out rather than subtracted)."""
    if before is None or after is None:
        return None
    used = dict.fromkeys(SERVER_GROUPS + SHARED_GROUPS, 0.0)
    for pid, (group, cpu) in after.items():
        used[group] += cpu - before.get(pid, (group, 0.0))[1]
    return used


def run_phase(pool, port: int, phase: str, seconds: float, token: str, jobs: list[dict]) -> dict:
    started = time.perf_counter()
    cpu_before = server_cpu_seconds()
    results = pool.map(client_loop, [(port, phase, seconds, token, job) for job in jobs])
    cpu_after = server_cpu_seconds()
    wall = time.perf_counter() - started - WARMUP_SECONDS
    return {
        "latencies": [x for r in results for x in r["latencies"]],
        "errors": [e for r in results for e in r["errors"]],
        "seconds": wall,
        # the warm-up requests are counted here too: CPU per request is taken over all of them
        "server_cpu": cpu_used(cpu_before, cpu_after),
        "all_requests": sum(r["requests"] for r in results),
    }


def summary(latencies: list[float], seconds: float) -> dict:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")
    return {
        "requests": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 2) if ordered else None,
        "p99_ms": round(p99 * 1000, 2),
        "per_second": round(len(ordered) / seconds, 1) if seconds > 0 else None,
    }


def parse_levels(text: str) -> list[int]:
    levels = sorted({int(x) for x in text.split(",") if x.strip()})
    if not levels or levels[0] < 1:
        raise argparse.ArgumentTypeError("--clients takes positive integers, e.g. 1,2,4,8")
    return levels


def measure_level(port: int, data: dict, level_index: int, clients: int, opts) -> dict:
    phases: dict[str, dict] = {p: {"latencies": [], "errors": [], "seconds": 0.0, "all_requests": 0,
                                   "server_cpu": dict.fromkeys(SERVER_GROUPS + SHARED_GROUPS, 0.0)}
                               for p in ("ping", "append", "state")}  # fmt: skip
    state_jobs = [{"game": data["state_game"], "length": data["state_len"]}] * clients
    with multiprocessing.get_context("fork").Pool(clients) as pool:
        for r in range(opts.rounds):
            games = data["games"][level_index][r]
            append_jobs = [{"game": games[c], "events": data["events"][c]} for c in range(clients)]
            for phase, jobs in (("ping", [{}] * clients), ("append", append_jobs), ("state", state_jobs)):
                result = run_phase(pool, port, phase, opts.seconds, data["token"], jobs)
                for key in ("latencies", "errors", "seconds", "all_requests"):
                    phases[phase][key] += result[key]
                if result["server_cpu"] is None or phases[phase]["server_cpu"] is None:
                    phases[phase]["server_cpu"] = None
                else:
                    for group, cpu in result["server_cpu"].items():
                        phases[phase]["server_cpu"][group] += cpu
    for phase, p in phases.items():
        if not p["latencies"]:
            raise SystemExit(f"no successful {phase} request with {clients} clients: {p['errors'][:3]}")
    figures = {phase: summary(p["latencies"], p["seconds"]) for phase, p in phases.items()}
    for phase, p in phases.items():
        cpu = p["server_cpu"]
        figures[phase]["server_cpu_ms"] = (
            None if cpu is None else round(1000 * sum(cpu[g] for g in SERVER_GROUPS) / p["all_requests"], 2)
        )
        figures[phase]["server_cpu_ms_by_group"] = (
            None if cpu is None else {g: round(1000 * c / p["all_requests"], 2) for g, c in cpu.items()}
        )
    cpu = [figures[p]["server_cpu_ms"] for p in ("append", "ping")]
    ratio = figures["append"]["median_ms"] / figures["ping"]["median_ms"]
    judged_state = clients <= (os.cpu_count() or 1)
    return {
        "clients": clients,
        **figures,
        "append_over_ping_median": round(ratio, 2),
        "append_over_ping_p99": round(figures["append"]["p99_ms"] / figures["ping"]["p99_ms"], 2),
        "append_over_ping_throughput": round(figures["ping"]["per_second"] / figures["append"]["per_second"], 2),
        "append_over_ping_server_cpu": round(cpu[0] / cpu[1], 2) if None not in cpu and cpu[1] else None,
        "state_over_ping_median": round(figures["state"]["median_ms"] / figures["ping"]["median_ms"], 2),
        "state_target_judged": judged_state,
        "errors": {phase: p["errors"][:5] for phase, p in phases.items() if p["errors"]},
        "append_server_cpu_target_met": cpu[0] is not None and cpu[0] <= TARGET_APPEND_SERVER_CPU_MS,
        "targets_met": ratio <= TARGET_APPEND_RATIO
        and (cpu[0] is None or cpu[0] <= TARGET_APPEND_SERVER_CPU_MS)
        and (not judged_state or figures["state"]["median_ms"] <= TARGET_STATE_MEDIAN_MS)
        and not any(p["errors"] for p in phases.values()),
    }


def print_level(level: dict) -> None:
    print(f"  {level['clients']} client(s):")
    for phase, label in (("ping", "GET /api/ping/ (trivial)"), ("append", "POST events (1 event)"),
                         ("state", "GET state?at=N")):  # fmt: skip
        f = level[phase]
        by = f["server_cpu_ms_by_group"]
        cpu = (
            "?"
            if by is None
            else f"{f['server_cpu_ms']:.2f} ({' + '.join(f'{g} {by[g]:.2f}' for g in SERVER_GROUPS)}; "
            f"not counted: {', '.join(f'{g} {by[g]:.2f}' for g in SHARED_GROUPS)})"
        )
        print(f"    {label:26} median {f['median_ms']:7.2f} ms   p99 {f['p99_ms']:7.2f} ms   "
              f"{f['per_second']:8.1f} req/s   server CPU {cpu} ms/req   ({f['requests']} requests)")  # fmt: skip
    state_note = (
        f"target <= {TARGET_STATE_MEDIAN_MS} ms"
        if level["state_target_judged"]
        else "more clients than CPUs: queueing, not judged"
    )
    print(
        f"    append / ping: median {level['append_over_ping_median']:.2f}x (target <= {TARGET_APPEND_RATIO}x), "
        f"p99 {level['append_over_ping_p99']:.2f}x, throughput {level['append_over_ping_throughput']:.2f}x, "
        f"server CPU {level['append_over_ping_server_cpu']}x; append server CPU {level['append']['server_cpu_ms']} ms "
        f"(target <= {TARGET_APPEND_SERVER_CPU_MS} ms); "
        f"state median {level['state']['median_ms']} ms ({state_note}), "
        f"{level['state_over_ping_median']}x ping"
    )
    if level["errors"]:
        print(f"    ERRORS: {level['errors']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("TICHU_BENCH_DB", DEFAULT_DB))
    parser.add_argument(
        "--clients",
        type=parse_levels,
        default=[1, 2, 4, 8],
        help="concurrency levels, comma-separated (default 1,2,4,8)",
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--seconds", type=float, default=3.0, help="per phase and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-redis", action="store_true", help="per-worker memory cache even if Redis answers")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    opts = parser.parse_args(argv)

    env = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "CELERY_BROKER_URL")}
    env.update(DATABASE_URL=opts.db, DJANGO_DEBUG="0", TICHU_WRITE_THROTTLE="100000000/minute",
               DJANGO_SETTINGS_MODULE="tichu_site.settings", PYTHONPATH=str(ROOT))  # fmt: skip
    # Production settings (DEBUG off needs a secret key) on plain HTTP: no redirect to https.
    env.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    env.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
    cache = "redis" if redis_answers() and not opts.no_redis else "per-worker memory"
    if cache == "redis":
        env["CACHE_URL"] = REDIS_URL
    os.environ.update(
        {
            k: env[k]
            for k in (
                "DATABASE_URL",
                "DJANGO_DEBUG",
                "TICHU_WRITE_THROTTLE",
                "DJANGO_SECRET_KEY",
                "DJANGO_SECURE_SSL_REDIRECT",
            )
        }
    )
    os.environ.pop("CACHE_URL", None)
    if cache == "redis":
        os.environ["CACHE_URL"] = REDIS_URL
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()

    recreate_database(opts.db)
    data = prepare_data(opts.clients, opts.rounds)
    port = free_port()
    server = start_server(port, opts.workers, env)
    global _server_pgid, _bench_db
    _server_pgid = server.pid
    _bench_db = urlparse(opts.db).path.lstrip("/")  # start_new_session: the master leads its own process group
    warm_up(port, data, opts.workers)
    try:
        levels = [measure_level(port, data, i, clients, opts) for i, clients in enumerate(opts.clients)]
    finally:
        stop_server(server)

    ok = all(level["targets_met"] for level in levels)
    report = {
        "setup": {
            "clients": opts.clients,
            "gunicorn_workers": opts.workers,
            "seconds_per_phase": opts.seconds,
            "rounds": opts.rounds,
            "cache": cache,
            "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        },  # fmt: skip
        "levels": levels,
        "targets_met": ok,
    }
    if opts.json:
        print(json.dumps(report, indent=2))
    else:
        s = report["setup"]
        print(f"API bench: gunicorn {s['gunicorn_workers']} sync workers, PostgreSQL, cache {s['cache']}, "
              f"{s['rounds']} rounds x {s['seconds_per_phase']} s per phase, {s['cpus']} CPUs, "
              f"load average {s['load_average']}")  # fmt: skip
        for level in levels:
            print_level(level)
        print("  targets met" if ok else "  TARGETS MISSED")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
