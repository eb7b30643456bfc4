"""Bulk import benchmark: `manage.py import_bsw FOLDER --workers` with 1, 2 and 4 Celery worker
processes on PostgreSQL.

    .venv/bin/python bench/bulk_import.py [--games 500] [--workers 1,2,4] [--json]

Generates the logs once: `--base` (default 40) bot-played games (games.engine.random_game, seeded,
exported with games.engine.export_bsw), then `--games` files made from them by renaming the
four handles per file, so every file has its own content hash and is imported in full (the hash
skip would otherwise store each game once). Then, per worker count, a fresh club and one
`celery -A tichu_site worker --concurrency K` (K processes) on the broker, and the command itself,
timed from queueing to the job's last file and its rating recompute. Prints hands and events per second, the scaling ratio
against 1 worker measured in the same run, the workers' CPU milliseconds per hand (what a loaded
machine does not distort much), and the size of games_event
(pg_total_relation_size, table + indexes + TOAST) per stored hand against the target of issue 35
item 6 (at most 4 KB a hand), split into the heap, each index, TOAST and the maps.

Environment: TICHU_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/tichu_bench_bulk,
dropped and created again), TICHU_BENCH_BROKER (default redis://127.0.0.1:6379/11, flushed after).
Target (issue #20): 10,000 games (about 100,000 hands) in under 10 minutes with 2 workers.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.api import recreate_database  # noqa: E402

DB = os.environ.get("TICHU_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tichu_bench_bulk")
BROKER = os.environ.get("TICHU_BENCH_BROKER", "redis://127.0.0.1:6379/11")
HANDLES = ("Ann", "Bob", "Cid", "Dee")


def base_log(seed: int) -> str:
    from games.engine import export_bsw, random_game

    return export_bsw(random_game(seed, players=list(HANDLES)))


def write_logs(folder: Path, games: int, base: int) -> None:
    """`games` files from `base` bot-played games, the handles renamed per file (whole words
    only: the card names never match) so that no two files have the same bytes."""
    with get_context("fork").Pool(2) as pool:
        logs = pool.map(base_log, range(1, min(base, games) + 1))
    pattern = re.compile(r"\b(" + "|".join(HANDLES) + r")\b")
    for n in range(games):
        text = pattern.sub(lambda m, n=n: f"{m.group(1)}{n}", logs[n % len(logs)])
        (folder / f"{n:06d}.tch").write_text(text, encoding="latin-1")


def start_workers(k: int, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tichu_site",
            "worker",
            "--concurrency",
            str(k),
            "--pool",
            "prefork",
            "--loglevel",
            "WARNING",
            "-n",
            f"bench-bulk-{k}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def _children_cpu_s() -> float:
    """CPU seconds (user + system) of the finished child processes: the Celery workers and their
    pool processes once stopped (PostgreSQL's own CPU is not in it)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(folder: Path, k: int, env: dict, chunk: int) -> dict:
    import io

    from django.core.management import call_command

    from games.models import Club, Event, Game, ImportJob
    from games.ratings.models import RatingChange, RatingOutbox

    club = Club.objects.create(slug=f"bench-{k}", name=f"bench {k} workers")
    workers = start_workers(k, env)
    cpu0 = _children_cpu_s()
    try:
        time.sleep(3)  # the worker processes start (counted out of the timing)
        t0 = time.perf_counter()
        call_command(
            "import_bsw",
            str(folder),
            "--club",
            club.slug,
            "--workers",
            "--stall-timeout",
            "120",
            "--chunk",
            str(chunk),
            stdout=io.StringIO(),
            stderr=sys.stderr,
        )
        files_s = time.perf_counter() - t0
        # then the job's one rating recompute (games.import_tasks.rate_import_job), on the workers
        while RatingOutbox.objects.filter(game__club=club).exists():
            time.sleep(0.2)
        seconds = time.perf_counter() - t0
    finally:
        stop(workers)
    cpu = _children_cpu_s() - cpu0
    job = ImportJob.objects.get(club=club)
    events = Event.objects.filter(game__club=club).count()
    hands = Event.objects.filter(game__club=club, type="shuffle").count()  # one shuffle opens each hand
    rated = RatingChange.objects.filter(club=club).values("game").distinct().count()
    return {
        "workers": k,
        "seconds": seconds,
        "files_s": files_s,
        "rating_s": seconds - files_s,
        "worker_cpu_s": cpu,
        "rated_games": rated,
        "files": job.files_done,
        "failed": job.files_failed,
        "games": Game.objects.filter(club=club).count(),
        "hands": hands,
        "events": events,
        "hands_per_s": hands / seconds,
        "events_per_s": events / seconds,
    }


#: issue 35 item 6: an archive's bytes, at most 4 KB stored per hand (docs/speed.md, "An archive's bytes")
TARGET_BYTES_PER_HAND = 4096


def event_table_bytes() -> dict:
    """games_event's bytes (pg_total_relation_size) and their split: the heap (main fork), each
    index, TOAST (table and index), the free-space and visibility maps; and the average row as
    stored (pg_column_size of the row: header and data, before alignment and its line pointer)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_total_relation_size(c.oid), pg_relation_size(c.oid), "
            "coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0), "
            "pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm') "
            "FROM pg_class c WHERE c.oid = 'games_event'::regclass"
        )
        total, heap, toast, maps = cursor.fetchone()
        cursor.execute(
            "SELECT i.indexrelid::regclass::text, pg_relation_size(i.indexrelid) FROM pg_index i "
            "WHERE i.indrelid = 'games_event'::regclass ORDER BY 1"
        )
        indexes = dict(cursor.fetchall())
        cursor.execute("SELECT count(*), avg(pg_column_size(e.*)) FROM games_event e")
        rows, row_bytes = cursor.fetchone()
    return {
        "total": total,
        "heap": heap,
        "indexes": indexes,
        "toast": toast,
        "maps": maps,
        "rows": rows,
        "avg_row_bytes": float(row_bytes or 0),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--base", type=int, default=40, help="bot-played games the files are made from")
    parser.add_argument("--workers", default="1,2,4", help="worker process counts, comma-separated")
    parser.add_argument("--chunk", type=int, default=20, help="files per Celery task (import_bsw --chunk)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    # DEBUG off (no query log kept in memory); production settings need a secret key of their own
    env = dict(
        os.environ,
        DATABASE_URL=DB,
        CELERY_BROKER_URL=BROKER,
        CELERY_RESULT_BACKEND=BROKER,
        CELERY_TASK_ALWAYS_EAGER="0",
        DJANGO_DEBUG="0",
        DJANGO_SETTINGS_MODULE="tichu_site.settings",
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", "bench-bulk-import-" + "x" * 40),
        PYTHONPATH=str(ROOT),
    )
    env.pop("CACHE_URL", None)
    os.environ.update(
        {
            k: env[k]
            for k in (
                "DATABASE_URL",
                "CELERY_BROKER_URL",
                "CELERY_RESULT_BACKEND",
                "CELERY_TASK_ALWAYS_EAGER",
                "DJANGO_DEBUG",
                "DJANGO_SETTINGS_MODULE",
                "DJANGO_SECRET_KEY",
            )
        }
    )
    recreate_database(DB)
    with tempfile.TemporaryDirectory(prefix="bulk-import-") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        write_logs(folder, args.games, args.base)  # before Django: no connection crosses the fork
        generated_s = time.perf_counter() - t0
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        runs = []
        try:
            for k in (int(x) for x in args.workers.split(",")):
                runs.append(run_once(folder, k, env, args.chunk))
        finally:
            import redis

            redis.Redis.from_url(BROKER).flushdb()
    hands = sum(r["hands"] for r in runs)
    baseline = runs[0]["hands_per_s"]
    for r in runs:
        r["scaling"] = r["hands_per_s"] / baseline
    figures = {
        "games": args.games,
        "base_games": min(args.base, args.games),
        "generate_s": generated_s,
        "runs": runs,
        "event_table": event_table_bytes(),
        "hands_stored": hands,
        "load_average": os.getloadavg(),
    }
    figures["event_table_bytes"] = figures["event_table"]["total"]
    figures["event_bytes_per_hand"] = figures["event_table_bytes"] / hands if hands else None
    figures["target_bytes_per_hand"] = TARGET_BYTES_PER_HAND
    two = next((r for r in runs if r["workers"] == 2), None)
    if two:  # the target: 100,000 hands in 600 s with 2 workers = 167 hands/s
        figures["target_2_workers_hands_per_s"] = 100_000 / 600
        figures["projected_10000_games_s_2_workers"] = 100_000 / two["hands_per_s"]
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{args.games} BSW logs ({figures['base_games']} bot-played games renamed), generated in {generated_s:.0f} s"
        )
        print(
            f"{'workers':>7} {'seconds':>8} {'(rating)':>8} {'games':>6} {'hands':>6} {'events':>8} "
            f"{'hands/s':>8} {'events/s':>9} {'scaling':>8} {'cpu ms/hand':>11}"
        )
        for r in runs:
            print(
                f"{r['workers']:>7} {r['seconds']:>8.1f} {r['rating_s']:>8.1f} {r['games']:>6} {r['hands']:>6} "
                f"{r['events']:>8} {r['hands_per_s']:>8.1f} {r['events_per_s']:>9.0f} {r['scaling']:>7.2f}x "
                f"{1000 * r['worker_cpu_s'] / max(r['hands'], 1):>11.1f}"
            )
        print("load average at the end: " + " ".join(f"{x:.1f}" for x in figures["load_average"]))
        table, per = figures["event_table"], max(hands, 1)
        verdict = "met" if (figures["event_bytes_per_hand"] or 0) <= TARGET_BYTES_PER_HAND else "not met"
        print(
            f"games_event: {figures['event_table_bytes'] / 2**20:.1f} MiB for {hands} hands = "
            f"{figures['event_bytes_per_hand']:.0f} bytes per hand (table + indexes + TOAST; "
            f"target at most {TARGET_BYTES_PER_HAND}: {verdict})"
        )
        print(
            f"  heap {table['heap'] / per:.0f} B/hand ({table['rows'] / per:.1f} rows a hand, "
            f"{table['avg_row_bytes']:.1f} B a row before alignment and its 4-byte line pointer)"
        )
        for name, size in table["indexes"].items():
            print(f"  index {name} {size / per:.0f} B/hand")
        print(
            f"  TOAST {table['toast'] / per:.0f} B/hand, free-space and visibility maps {table['maps'] / per:.0f} B/hand"
        )
        if two:
            print(
                f"10,000 games (~100,000 hands) with 2 workers at this rate: "
                f"{figures['projected_10000_games_s_2_workers'] / 60:.1f} min (target: under 10 min)"
            )
    return figures


if __name__ == "__main__":
    main()
