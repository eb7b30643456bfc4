"""CPU per hand of a file's import, in one process on PostgreSQL: the game-by-game path
(`import_bsw` without --workers: games.importing.import_bsw_log, the rating task per game run
eagerly) against the bulk path of the workers (games.import_tasks.import_bsw_chunk: one fold a
game, COPY, one rating recompute per job). Python's process_time and the PostgreSQL backend's
CPU (read from /proc: the server must run on this machine). CPU time is what a loaded machine
distorts least; bench/bulk_import.py gives the wall-clock rates with worker processes.

    .venv/bin/python bench/bulk_import_cpu.py [--files 20] [--base 20]

Prints the ratio bulk / game by game of the CPU per hand (Python + PostgreSQL) and its target.

Environment: TICHU_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/tichu_bench_bulk_cpu,
dropped and created again).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.api import recreate_database  # noqa: E402
from bench.bulk_import import write_logs  # noqa: E402

#: the workers' bulk path costs at most this share of the game-by-game path's CPU per hand (one
#: fold a game, COPY and one recompute a job against a fold, inserts and a rating task a game)
BULK_RATIO_AT_MOST = 0.5
DB = os.environ.get("TICHU_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tichu_bench_bulk_cpu")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--base", type=int, default=20)
    args = parser.parse_args(argv)
    os.environ.update(DATABASE_URL=DB, DJANGO_SETTINGS_MODULE="tichu_site.settings", CELERY_TASK_ALWAYS_EAGER="1")
    for name in ("CELERY_BROKER_URL", "CACHE_URL"):
        os.environ.pop(name, None)
    recreate_database(DB)
    with tempfile.TemporaryDirectory(prefix="bulk-cpu-") as tmp:
        folder = Path(tmp)
        write_logs(folder, args.files, args.base)  # before Django: no connection crosses the fork
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        files = sorted(folder.glob("*.tch"))
        rows = {name: measure(name, files) for name in ("game by game", "bulk")}
    for name, r in rows.items():
        print(
            f"{name:>12}: {r['hands']} hands, Python {r['python_ms']:.1f} ms/hand, PostgreSQL "
            f"{r['postgres_ms']:.1f} ms/hand, total {r['python_ms'] + r['postgres_ms']:.1f} ms/hand, "
            f"{r['rated']} games rated"
        )
    one, bulk = (rows[n]["python_ms"] + rows[n]["postgres_ms"] for n in ("game by game", "bulk"))
    ratio = bulk / one if one else float("inf")
    print(
        f"bulk / game by game, CPU per hand: {ratio:.2f}x (target <= {BULK_RATIO_AT_MOST}x: "
        f"{'met' if ratio <= BULK_RATIO_AT_MOST else 'MISSED'})"
    )
    print("load average: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    return rows


def measure(name: str, files: list[Path]) -> dict:
    from django.db import connection, transaction

    from games.import_tasks import import_bsw_chunk
    from games.importing import import_bsw_log
    from games.models import Club, Event, ImportJob
    from games.ratings.models import RatingChange

    club = Club.objects.create(slug=name.replace(" ", "-"), name=name)
    connection.ensure_connection()
    tick = os.sysconf("SC_CLK_TCK")

    def server_cpu() -> float:
        fields = Path(f"/proc/{connection.connection.info.backend_pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    p0, s0 = time.process_time(), server_cpu()
    if name == "bulk":
        job = ImportJob.objects.create(club=club, files_total=len(files))
        import_bsw_chunk(job.pk, [str(f) for f in files])
    else:
        for f in files:
            with transaction.atomic():
                import_bsw_log(club=club, text=f.read_bytes().decode("latin-1"), user=None, game_id=f.stem, path=f)
    p1, s1 = time.process_time(), server_cpu()
    hands = Event.objects.filter(game__club=club, type="shuffle").count()
    return {
        "hands": hands,
        "python_ms": 1000 * (p1 - p0) / hands,
        "postgres_ms": 1000 * (s1 - s0) / hands,
        "rated": RatingChange.objects.filter(club=club).values("game").distinct().count(),
    }


if __name__ == "__main__":
    main()
