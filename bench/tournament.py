"""Tournament benchmark: ``python bench/tournament.py [--json]``.

Reports, each beside a baseline measured in the same run:
- Swiss pairing of 200 fixed pairs in round 8 (after 7 rounds paired by the Swiss itself, with
  random results): time per pairing (target <= 1 s), and the rematches of the Swiss against a
  random draw from the same history, every round;
- individual seating of 40 players over 6 rounds: time per round (target <= 1 s), repeated
  partners and opponents against a random draw from the same history, every round, and against a
  whole tournament drawn at random;
- the standings of a 64-pair, 8-round tournament folded from its record (target <= 50 ms),
  beside json.loads of the same record (the floor: no fold is cheaper than reading the record);
- then (unless --no-night) bench/tournament_night.py: a 64-pair round entered by 32 tables at
  once over the API with table codes, and the PDF of the 32 table cards.
Time ratios are against the random draw and the standings fold of the same record (pairings)
and json.loads (fold), in the same run; CPU time is printed beside wall time because the machine
is shared.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.tournament import fold, propose, standings_json  # noqa: E402


def best(fn, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def register(n: int, entrants: str) -> list[dict]:
    if entrants == "pairs":
        return [{"type": "entry_registered", "entry": f"e{i}", "players": [f"A{i}", f"B{i}"]} for i in range(n)]
    return [{"type": "entry_registered", "entry": f"e{i}", "players": [f"P{i}"]} for i in range(n)]


def results(record: dict, pairing_event: dict, rng: random.Random, hands: int) -> None:
    record["events"].append(pairing_event)
    r = pairing_event["round"]
    for t in pairing_event["tables"]:
        lines = [[a, 100 - a] for a in (rng.randrange(-25, 126, 5) for _ in range(hands))]
        for line in lines:
            line[rng.randrange(2)] += rng.choice([0, 0, 100, -100])
        record["events"].append({"type": "result_recorded", "round": r, "table": t["table"], "hands": lines})
    record["events"].append({"type": "round_closed", "round": r})


def random_draw(entries: list[str], side_size: int, rng: random.Random) -> tuple[list[list[list[str]]], float]:
    """Tables drawn at random (the leftover entries sit out), and the time it took."""
    t0 = time.perf_counter()
    order = entries[:]
    rng.shuffle(order)
    per_table = 2 * side_size
    tables = [
        [order[i : i + side_size], order[i + side_size : i + per_table]]
        for i in range(0, len(order) - per_table + 1, per_table)
    ]
    return tables, time.perf_counter() - t0


def meetings(tables, seen_partners: Counter, seen_opponents: Counter) -> tuple[int, int]:
    """(repeated partners, repeated opponents) of a round's tables against the history."""
    partners = sum(seen_partners[frozenset(side)] > 0 for t in tables for side in t if len(side) == 2)
    opponents = sum(seen_opponents[frozenset((x, y))] > 0 for t in tables for x in t[0] for y in t[1])
    return partners, opponents


def update(tables, seen_partners: Counter, seen_opponents: Counter) -> None:
    for t in tables:
        for side in t:
            if len(side) == 2:
                seen_partners[frozenset(side)] += 1
        for x in t[0]:
            for y in t[1]:
                seen_opponents[frozenset((x, y))] += 1


def bench_pairing(name: str, n: int, rounds: int, header: dict, side_size: int, seed: int) -> dict:
    rng = random.Random(seed)
    draw_rng = random.Random(seed + 1)
    record = {"header": dict(header, rounds=rounds, seed=seed), "events": register(n, header["entrants"])}
    partners, opponents = Counter(), Counter()
    random_partners, random_opponents = Counter(), Counter()  # a whole tournament drawn at random
    per_round = []
    for r in range(1, rounds + 1):
        state = fold(record)
        pairing = propose(state)
        elapsed = best(lambda state=state: propose(state), 3)
        cpu = best(lambda state=state: propose(state), 3, time.process_time)  # the machine is shared: CPU time too
        read = best(lambda: standings_json(fold(record)), 3)  # reading the tournament: what any pairing needs
        tables = [t["sides"] for t in pairing.tables]
        drawn, draw_time = random_draw(state.active_entries(), side_size, draw_rng)
        ours = meetings(tables, partners, opponents)
        theirs = meetings(drawn, partners, opponents)
        alone, _ = random_draw(state.active_entries(), side_size, draw_rng)
        whole_random = meetings(alone, random_partners, random_opponents)
        update(alone, random_partners, random_opponents)
        update(tables, partners, opponents)
        per_round.append(
            {
                "round": r,
                "seconds": elapsed,
                "cpu_seconds": cpu,
                "random_draw_seconds": draw_time,
                "standings_fold_seconds": read,
                "repeated_partners": ours[0],
                "repeated_opponents": ours[1],
                "random_draw_repeated_partners": theirs[0],
                "random_draw_repeated_opponents": theirs[1],
                "random_tournament_repeated_partners": whole_random[0],
                "random_tournament_repeated_opponents": whole_random[1],
            }
        )
        results(record, pairing.event(), rng, header.get("hands_per_round") or 4)
    return {
        "bench": name,
        "entries": n,
        "rounds": rounds,
        "per_round": per_round,
        "max_seconds": max(p["seconds"] for p in per_round),
        "max_cpu_seconds": max(p["cpu_seconds"] for p in per_round),
        "last_round_seconds": per_round[-1]["seconds"],
    }


def bench_fold(n: int, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    record = {
        "header": {
            "entrants": "pairs",
            "system": "swiss",
            "scoring": "round_vp",
            "rounds": rounds,
            "seed": seed,
            "tiebreaks": ["difference", "buchholz", "head_to_head", "lots"],
        },
        "events": register(n, "pairs"),
    }
    for _ in range(rounds):
        results(record, propose(fold(record)).event(), rng, 4)
    text = json.dumps(record)
    loads = best(lambda: json.loads(text), 20)
    folding = best(lambda: standings_json(fold(json.loads(text))), 10)
    folding_cpu = best(lambda: standings_json(fold(json.loads(text))), 10, time.process_time)
    return {
        "bench": "standings fold",
        "entries": n,
        "rounds": rounds,
        "events": len(record["events"]),
        "bytes": len(text),
        "seconds": folding,
        "cpu_seconds": folding_cpu,
        "json_loads_seconds": loads,
        "ratio_to_json_loads": folding / loads,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-night",
        action="store_true",
        help="skip the tournament night over the API and the table cards PDF (bench/tournament_night.py)",
    )
    parser.add_argument("--db", help="the night's scratch PostgreSQL database (bench/tournament_night.py --db)")
    args = parser.parse_args()
    swiss = bench_pairing(
        "swiss 200 pairs", 200, 8, {"entrants": "pairs", "system": "swiss", "scoring": "round_vp"}, 1, args.seed
    )
    individual = bench_pairing(
        "individual 40 players",
        40,
        6,
        {"entrants": "individuals", "system": "individual", "scoring": "dtm"},
        2,
        args.seed,
    )
    folded = bench_fold(64, 8, args.seed)
    if args.json:
        print(json.dumps([swiss, individual, folded], indent=2))
        return 0
    s8 = swiss["per_round"][-1]
    print(
        f"== Swiss, 200 pairs, round 8: {s8['seconds']:.3f} s, CPU {s8['cpu_seconds']:.3f} s (target <= 1 s); "
        f"{s8['seconds'] / max(s8['random_draw_seconds'], 1e-9):,.0f}x a random draw's time"
    )
    print(f"   pairing / standings fold of the same record: {s8['seconds'] / s8['standings_fold_seconds']:.1f}x")
    print(
        f"   rematches per round, Swiss vs random draw from the same history: "
        f"{[p['repeated_opponents'] for p in swiss['per_round']]} vs "
        f"{[p['random_draw_repeated_opponents'] for p in swiss['per_round']]}"
    )
    print(f"   slowest round {swiss['max_seconds']:.3f} s, CPU {swiss['max_cpu_seconds']:.3f} s")
    print(
        f"== Individual, 40 players, 6 rounds: slowest round {individual['max_seconds']:.3f} s, "
        f"CPU {individual['max_cpu_seconds']:.3f} s (target <= 1 s)"
    )
    rows = individual["per_round"]
    print(
        f"   pairing / standings fold of the same record, round 6: "
        f"{rows[-1]['seconds'] / rows[-1]['standings_fold_seconds']:.1f}x"
    )
    print(
        f"   repeated partners per round, ours / random draw (same history) / random tournament: "
        f"{[p['repeated_partners'] for p in rows]} / {[p['random_draw_repeated_partners'] for p in rows]} / "
        f"{[p['random_tournament_repeated_partners'] for p in rows]}"
    )
    print(
        f"   repeated opponent pairs per round, ours / random draw / random tournament: "
        f"{[p['repeated_opponents'] for p in rows]} / {[p['random_draw_repeated_opponents'] for p in rows]} / "
        f"{[p['random_tournament_repeated_opponents'] for p in rows]}"
    )
    print(
        f"== Standings fold, 64 pairs x 8 rounds ({folded['events']} events, {folded['bytes']:,} bytes): "
        f"{folded['seconds'] * 1e3:.1f} ms, CPU {folded['cpu_seconds'] * 1e3:.1f} ms (target <= 50 ms); json.loads {folded['json_loads_seconds'] * 1e3:.2f} ms; "
        f"ratio {folded['ratio_to_json_loads']:.1f}x"
    )
    if not args.no_night:
        from bench import tournament_night

        tournament_night.main(["--db", args.db] if args.db else [])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
