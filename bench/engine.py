"""Engine benchmark: ``python bench/engine.py [--games N]``.

Reports, for bot-played games to 1000 points:
- events per second of the validating fold (every event checked, the wish included);
- the time to rebuild the state at a random event: cold (fold the prefix) and from the
  hand-boundary snapshots that the service caches (``Replay.state_at``);
each beside ``json.loads`` of the same record, measured in the same run, as a ratio (the floor:
no fold can be cheaper than reading the record).
Targets: at least 50,000 events/s; the state at any event in at most 5 ms median.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Replay, fold, random_game  # noqa: E402

#: (variant, players, options): every game of the Tichu family, each to its natural end
VARIANTS = [
    ("nanking", ["A", "B", "C", "D"], {"preset": "rio"}),
    ("tientsin", ["A", "B", "C", "D", "E", "F"], {}),
    ("threechu", ["A", "B", "C"], {}),
    ("grand-seigneur", [f"P{i}" for i in range(8)], {"hands": 6, "scoring": "ranks"}),
]


def timed(fn, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return samples


def bench_variant(name: str, players: list, options: dict, games: int, positions: int, rng: random.Random) -> dict:
    records = [random_game(seed, variant=name, options=options, players=players) for seed in range(games)]
    texts = [json.dumps(r) for r in records]
    events = sum(len(r["events"]) for r in records)

    load = min(timed(lambda: [json.loads(t) for t in texts], 5))
    folding = min(timed(lambda: [fold(r) for r in records], 3))

    cold, warm, loads = [], [], []
    replays = [Replay(r) for r in records]
    for _ in range(positions):
        i = rng.randrange(games)
        record, text, replay = records[i], texts[i], replays[i]
        n = rng.randrange(len(record["events"]) + 1)
        cold.append(min(timed(lambda: fold(record, n), 1)))
        warm.append(min(timed(lambda: replay.state_at(n), 3)))
        loads.append(min(timed(lambda: json.loads(text), 3)))
    return {
        "variant": name,
        "games": games,
        "events": events,
        "events_per_game": events / games,
        "fold_events_per_s": events / folding,
        "json_loads_events_per_s": events / load,
        "fold_vs_json_loads": folding / load,
        "state_at_cold_median_ms": statistics.median(cold) * 1e3,
        "state_at_snapshot_median_ms": statistics.median(warm) * 1e3,
        "state_at_snapshot_p99_ms": sorted(warm)[int(0.99 * (len(warm) - 1))] * 1e3,
        "json_loads_record_median_ms": statistics.median(loads) * 1e3,
        "state_at_snapshot_vs_json_loads": statistics.median(warm) / statistics.median(loads),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--variant", default=None, help="only this variant")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    chosen = [v for v in VARIANTS if args.variant in (None, v[0])]
    results = [bench_variant(name, players, opts, args.games, args.positions, rng) for name, players, opts in chosen]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(f"== {r['variant']}: {r['games']} bot games, {r['events']} events ({r['events_per_game']:.0f}/game)")
        print(f"validating fold      {r['fold_events_per_s']:>12,.0f} events/s   (target >= 50,000)")
        print(f"json.loads floor     {r['json_loads_events_per_s']:>12,.0f} events/s   fold/json.loads time ratio {r['fold_vs_json_loads']:.1f}x")
        print(f"state at random N    cold fold {r['state_at_cold_median_ms']:.2f} ms median; "
              f"from snapshots {r['state_at_snapshot_median_ms']:.3f} ms median, {r['state_at_snapshot_p99_ms']:.3f} ms p99 (target <= 5 ms)")
        print(f"json.loads of record {r['json_loads_record_median_ms']:.3f} ms median; snapshot state_at / json.loads ratio {r['state_at_snapshot_vs_json_loads']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
