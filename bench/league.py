"""League pages benchmark: ``python bench/league.py [--games 3000] [--players 24] [--json]``.

A club of `--players` players with `--games` rated games (bench.ratings_lab.synthetic, loaded in bulk
and recomputed) in a throwaway test database (SQLite unless DATABASE_URL says otherwise). Times
each page through Django's test client:

- the league page (`/clubs/<slug>/league/`) and a player page (`/players/<id>/`), warm: the pair
  ratings and the rank history read from the cache under the pool's version (games/ratings/
  league_cache.py);
- the same pages with the cache emptied before each request: the replay of the whole pool on
  every view, as every view did before the cache (the baseline, measured in the same run).

Prints the median and best of `--rounds` requests each (wall and process CPU time: the machine
is shared) and the ratio warm / baseline, and the target: a warm page costs at most half the
replay's process CPU (``CPU_RATIO_AT_MOST``; CPU, as a shared machine distorts it least); how the
pages grow with a club's history is bench/scale.py's (its second target).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


#: a warm page's process CPU at most this share of the replay on every view (the baseline)
CPU_RATIO_AT_MOST = 0.5


def timed(fn, rounds: int, before=None) -> dict:
    wall, cpu = [], []
    for _ in range(rounds):
        if before is not None:
            before()
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return {
        "median_ms": round(1000 * statistics.median(wall), 1),
        "best_ms": round(1000 * min(wall), 1),
        "cpu_median_ms": round(1000 * statistics.median(cpu), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=5, help="requests per figure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.test import Client
    from django.test.runner import DiscoverRunner

    from bench.ratings_lab.fixtures import load_history
    from bench.ratings_lab.synthetic import club_history
    from games.models import Club, Player
    from games.ratings import services

    runner = DiscoverRunner(verbosity=0)
    runner.setup_test_environment()
    old_config = runner.setup_databases()
    try:
        club = Club.objects.create(name="Bench", slug="bench")
        _skills, games = club_history(n_games=args.games, n_players=args.players, seed=1)
        load_history(club, games)
        services.recompute_club(club.pk)
        player = Player.objects.filter(club=club).order_by("id").first()
        client = Client()
        pages = {"league": "/clubs/bench/league/", "player": f"/players/{player.pk}/"}
        for url in pages.values():
            assert client.get(url).status_code == 200, url
        figures: dict = {
            "games": args.games,
            "players": args.players,
            "rounds": args.rounds,
            "database": django.db.connection.vendor,
            "cache": django.conf.settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
        }
        for name, url in pages.items():
            baseline = timed(lambda u=url: client.get(u), args.rounds, before=cache.clear)
            client.get(url)
            warm = timed(lambda u=url: client.get(u), args.rounds)
            figures[name] = {
                "baseline": baseline,
                "warm": warm,
                "ratio": round(warm["median_ms"] / baseline["median_ms"], 3),
                "cpu_ratio": round(warm["cpu_median_ms"] / baseline["cpu_median_ms"], 3),
            }
    finally:
        runner.teardown_databases(old_config)
        runner.teardown_test_environment()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{figures['games']} games, {figures['players']} players, {figures['database']}, "
            f"cache {figures['cache']}, median of {figures['rounds']} requests"
        )
        for name in pages:
            f = figures[name]
            print(
                f"{name:7s} baseline (replayed each view) {f['baseline']['median_ms']:8.1f} ms "
                f"(cpu {f['baseline']['cpu_median_ms']:.1f})  warm {f['warm']['median_ms']:8.1f} ms "
                f"(cpu {f['warm']['cpu_median_ms']:.1f})  ratio {f['ratio']:.3f}, cpu {f['cpu_ratio']:.3f} "
                f"(target cpu <= {CPU_RATIO_AT_MOST}: {'met' if f['cpu_ratio'] <= CPU_RATIO_AT_MOST else 'MISSED'})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
