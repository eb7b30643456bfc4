"""Where one append's server milliseconds go: appends through the site's own WSGI application
(every middleware, DRF, the service, PostgreSQL), in this process, beside the trivial ping.

    .venv/bin/python bench/append_profile.py [--db URL] [--appends N] [--profile] [--top N] [--json]

(Re)creates the database (``--db``, default ``postgres://postgres@127.0.0.1:5432/tichu_bench_profile``),
creates a scorer with a token, a club and empty games, then appends the events of bot-played games
one request at a time (``expected_seq``, no Idempotency-Key, as ``bench/api.py`` does) and asks
``GET /api/ping/`` as many times, round robin. Prints CPU time per request (``process_time``: this
process's Python, not PostgreSQL's), wall time, and the SQL statements of one append (each one a
round trip). ``--profile`` adds a cProfile of the appends grouped by part (middleware, DRF,
authentication, parsing, the service's parts, SQL, rendering) and the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tichu_bench_profile"


def environ(method: str, path: str, token: str, body: bytes = b"") -> dict:
    return {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "CONTENT_TYPE": "application/json" if body else "",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }


def call(app, env: dict) -> tuple[str, bytes]:
    status: list[str] = []
    chunks = app(env, lambda s, h, exc=None: status.append(s))
    try:
        content = b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # request_finished: as the server does after each request
    return status[0], content


# cProfile's functions grouped by the part of the request they belong to: (part, file fragment)
PARTS = [
    ("SQL (psycopg: round trips)", "psycopg"),
    ("engine (the legal check's fold)", "games/engine/"),
    ("snapshots (state cache)", "games/snapshots.py"),
    ("service (games/services, streams)", "games/services/"),
    ("service (games/services, streams)", "games/streams/"),
    ("selectors + sql.py", "games/selectors.py"),
    ("selectors + sql.py", "games/sql.py"),
    ("DRF (views, request, parsing, serializers, rendering)", "rest_framework/"),
    ("Django ORM", "django/db/"),
    ("Django middleware + handler", "django/middleware/"),
    ("Django middleware + handler", "django/core/handlers/"),
    ("project middleware, api helpers", "games/api/"),
]


def by_part(stats: pstats.Stats) -> dict[str, float]:
    """Own (tottime) seconds per part; whatever matches no part is 'other'."""
    parts: dict[str, float] = {}
    for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        part = next((p for p, fragment in PARTS if fragment in filename), "other (Django utils, stdlib, ...)")
        parts[part] = parts.get(part, 0.0) + tottime
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=os.environ.get("TICHU_PROFILE_DB", DEFAULT_DB))
    parser.add_argument("--appends", type=int, default=600)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args(argv)

    os.environ.update(
        DATABASE_URL=opts.db,
        DJANGO_DEBUG="0",
        TICHU_WRITE_THROTTLE="100000000/minute",
        DJANGO_SETTINGS_MODULE="tichu_site.settings",
        DJANGO_SECURE_SSL_REDIRECT="0",
    )
    os.environ.setdefault("DJANGO_SECRET_KEY", "profile-" + "x" * 50)
    os.environ.pop("CACHE_URL", None)
    sys.path.insert(0, str(ROOT / "bench"))
    from api import recreate_database  # bench/api.py

    recreate_database(opts.db)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from games.engine import random_game
    from games.models import Club, Membership
    from games.services import game_create

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("profile")
    token = Token.objects.create(user=user).key
    club = Club.objects.create(name="Profile", slug="profile")
    Membership.objects.create(club=club, user=user, role=Membership.Role.SCORER)
    app = get_wsgi_application()

    jobs: list[tuple[int, list[dict]]] = []
    planned = 0
    seed = 2000
    while planned < opts.appends + 50:
        record = random_game(seed)
        seed += 1
        game = game_create(club=club, variant="nanking", options=None, players=record["players"], user=user)
        jobs.append((game.body["id"], record["events"]))
        planned += len(record["events"])

    def appends():
        for game_id, events in jobs:
            for seq, event in enumerate(events):
                body = json.dumps({"expected_seq": seq, "events": [event]}).encode()
                yield environ("POST", f"/api/games/{game_id}/events/", token, body)

    requests = appends()
    ping = environ("GET", "/api/ping/", token)
    # warm-up: imports, the URLconf, the first fold
    for _ in range(50):
        status, content = call(app, next(requests))
        assert status.startswith("201"), (status, content[:300])
        call(app, dict(ping, **{"wsgi.input": io.BytesIO()}))

    statements: list[str] = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        call(app, next(requests))
    one_append = list(statements)
    statements.clear()
    with connection.execute_wrapper(count):
        call(app, dict(ping, **{"wsgi.input": io.BytesIO()}))
    one_ping = list(statements)

    cpu = {"append": [], "ping": []}
    wall = {"append": [], "ping": []}
    # CPU time (process_time), not wall: the waits for PostgreSQL are its time, not this process's
    profiler = cProfile.Profile(time.process_time) if opts.profile else None
    ping_profiler = cProfile.Profile(time.process_time) if opts.profile else None
    for _ in range(opts.appends):
        env = next(requests)
        w, c = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        status, content = call(app, env)
        if profiler is not None:
            profiler.disable()
        cpu["append"].append(time.process_time() - c)
        wall["append"].append(time.perf_counter() - w)
        assert status.startswith("201"), (status, content[:300])
        env = dict(ping, **{"wsgi.input": io.BytesIO()})
        w, c = time.perf_counter(), time.process_time()
        if ping_profiler is not None:
            ping_profiler.enable()
        call(app, env)
        if ping_profiler is not None:
            ping_profiler.disable()
        cpu["ping"].append(time.process_time() - c)
        wall["ping"].append(time.perf_counter() - w)

    ms = lambda xs: round(statistics.median(xs) * 1000, 3)  # noqa: E731
    report = {
        "appends": opts.appends,
        "append_cpu_ms": round(sum(cpu["append"]) * 1000 / opts.appends, 3),
        "ping_cpu_ms": round(sum(cpu["ping"]) * 1000 / opts.appends, 3),
        "append_wall_median_ms": ms(wall["append"]),
        "ping_wall_median_ms": ms(wall["ping"]),
        "append_sql": one_append,
        "ping_sql": one_ping,
    }
    if profiler is not None:
        stats = pstats.Stats(profiler)
        total = sum(t for t in by_part(stats).values())
        report["profile_ms_per_append"] = {
            part: round(t * 1000 / opts.appends, 3) for part, t in sorted(by_part(stats).items(), key=lambda x: -x[1])
        }
        report["profile_total_ms_per_append"] = round(total * 1000 / opts.appends, 3)
        ping_parts = by_part(pstats.Stats(ping_profiler))
        report["profile_ms_per_ping"] = {part: round(t * 1000 / opts.appends, 3) for part, t in ping_parts.items()}
        report["profile_total_ms_per_ping"] = round(sum(ping_parts.values()) * 1000 / opts.appends, 3)
    if opts.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"{opts.appends} appends and pings through the WSGI application, PostgreSQL, load {os.getloadavg()[0]:.1f}"
        )
        print(
            f"  append: {report['append_cpu_ms']} ms CPU (this process) per request, median wall {report['append_wall_median_ms']} ms"
        )
        print(
            f"  ping:   {report['ping_cpu_ms']} ms CPU (this process) per request, median wall {report['ping_wall_median_ms']} ms"
        )
        print(f"  SQL statements of one append: {len(one_append)}; of one ping: {len(one_ping)}")
        for sql in one_append:
            print(f"    {' '.join(sql.split())[:150]}")
        if profiler is not None:
            print(f"  cProfile, own CPU time per request by part (profiled totals: append "
                  f"{report['profile_total_ms_per_append']} ms, ping {report['profile_total_ms_per_ping']} ms;"
                  " the profiler's own cost included):")  # fmt: skip
            print("     append      ping  part")
            for part, t in report["profile_ms_per_append"].items():
                print(f"    {t:7.3f}   {report['profile_ms_per_ping'].get(part, 0.0):7.3f}  {part}")
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(opts.top)
            print(out.getvalue())
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(opts.top * 2)
            print(out.getvalue())
            print("  the ping's profile:")
            out = io.StringIO()
            pstats.Stats(ping_profiler, stream=out).sort_stats("cumulative").print_stats(opts.top * 2)
            print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
