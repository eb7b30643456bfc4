"""Import benchmark: BSW logs converted, validated (engine fold) and scored, per second.

    .venv/bin/python bench/import.py [LOG.tch ...] [--seconds 3] [--json] [--check]

Default input: every ``*.tch`` of the shared corpus (``$TICHU_CORPUS/bsw-tich_me``, default
``/work/shared/corpus``). Stages, run round-robin until each has had at least ``--seconds``
(figures: the best run, median beside it):

- ``convert``: ``parse_bsw`` on the raw text (no engine);
- ``pipeline``: ``parse_bsw`` + ``fold`` (every event validated by the rules engine) + ``score_json``;
- ``fold_score``: ``fold`` + ``score_json`` of already converted records (the engine alone);
- ``json.loads`` baseline: parsing the JSON text of the very same records, measured in the same run,
  so the figures can be compared across machines as a ratio (``x json.loads``: how many times slower
  than merely decoding the records from JSON).

Hands per second count every hand header of the logs (truncated hands included); events per second
count the record events produced. ``--check`` exits 1 when the pipeline is below the target
(1,200 hands per second, and 10x frohlfing/tichu when it runs) or when a hand's engine score
differs from its ``Ergebnis``.

Side by side with frohlfing/tichu (GPL-3.0, github.com/frohlfing/tichu: ``src/lib/bsw/parse.py``
``parse_logfile`` + ``src/lib/bsw/validate.py`` ``validate_bswlog``) on the same logs, in the same
run, when it is installed: its code needs Python 3.13 (``typing.Generator`` with one argument), so
it runs in a child process of that Python, round for round with this project's pipeline.
Install (nothing of it is committed here)::

    git clone https://github.com/frohlfing/tichu /opt/frohlfing-tichu
    python3.13 -m venv /opt/frohlfing-venv && /opt/frohlfing-venv/bin/pip install tqdm
    FROHLFING_TICHU=/opt/frohlfing-tichu FROHLFING_PYTHON=/opt/frohlfing-venv/bin/python \
        .venv/bin/python bench/import.py

(or ``--frohlfing DIR --frohlfing-python PY``). It prints its hands per second and the ratio
``pipeline / frohlfing`` (target: at least 10x, issue #35; 5x before); without it, the bench says so and how to install.
frohlfing drops a truncated last hand, so its hands are counted as it parses them.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_HANDS_PER_SECOND = 1200
TARGET_X_FROHLFING = 10.0

#: run in frohlfing/tichu's Python: times parse_logfile + validate_bswlog on the logs (paths on
#: stdin, one per line), one round per line read from stdin after them, answering its seconds
FROHLFING_CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from src.lib.bsw.parse import parse_logfile
from src.lib.bsw.validate import validate_bswlog
paths = sys.argv[2:]
texts = [open(p, encoding="utf-8", errors="replace").read() for p in paths]
hands = sum(len(parse_logfile(k, 2000, 1, t) or []) for k, t in enumerate(texts))
print(hands, flush=True)
for line in sys.stdin:
    t0 = time.process_time()
    for k, t in enumerate(texts):
        validate_bswlog(parse_logfile(k, 2000, 1, t))
    print(time.process_time() - t0, flush=True)
"""


#: run with another checkout of this project first on the path (``--baseline-tree``): its own
#: pipeline (convert + fold + score) on the same logs, same protocol as FROHLFING_CHILD
BASELINE_CHILD = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from games.engine import fold, parse_bsw, score_json
texts = [open(p, encoding="utf-8", errors="replace").read() for p in sys.argv[2:]]
print(sum(len(r["meta"]["bsw_results"]) for t in texts for r in parse_bsw(t, bsw_scoring=True)), flush=True)
for line in sys.stdin:
    t0 = time.process_time()
    for t in texts:
        for r in parse_bsw(t, bsw_scoring=True):
            score_json(fold(r))
    print(time.process_time() - t0, flush=True)
"""


class Frohlfing:
    """frohlfing/tichu's parse + validate (or, with ``child=BASELINE_CHILD``, another checkout's
    pipeline) in a child process, one corpus round per call."""

    def __init__(self, checkout: str, python: str, paths: list[str], child: str = FROHLFING_CHILD) -> None:
        import subprocess

        self.proc = subprocess.Popen(
            [python, "-c", child, checkout, *paths],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError(self.proc.stderr.read().strip().splitlines()[-1:] or "no output")
        self.hands = int(first)
        self.seconds: list[float] = []

    def __call__(self) -> None:
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        self.seconds.append(float(self.proc.stdout.readline()))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def frohlfing_runner(args, paths: list[str]) -> tuple[Frohlfing | None, str]:
    """The child process, or None and why not (printed by the bench)."""
    import shutil

    checkout = args.frohlfing or os.environ.get("FROHLFING_TICHU")
    python = args.frohlfing_python or os.environ.get("FROHLFING_PYTHON") or shutil.which("python3.13")
    if not checkout or not Path(checkout, "src", "lib", "bsw", "validate.py").is_file():
        return None, (
            "frohlfing/tichu not installed (set FROHLFING_TICHU to a checkout: see this file's "
            "docstring or docs/importers.md)"
        )
    if not python:
        return None, "frohlfing/tichu needs Python 3.13: none found (set FROHLFING_PYTHON)"
    try:
        return Frohlfing(checkout, python, paths), ""
    except Exception as exc:  # its import failed: say why, measure the rest
        return None, f"frohlfing/tichu could not run with {python}: {exc}"


def measure(stages: dict, min_seconds: float, min_rounds: int = 5, min_run: float = 0.02) -> dict[str, list[float]]:
    """Run the stages round-robin (one run of each per round): other load on a shared machine then
    hits all stages alike. A fast stage repeats the corpus within a run so that a run lasts at least
    ``min_run`` seconds (its figure is per corpus). The rounds go on until every stage has had
    ``min_rounds`` runs and the rounds have taken ``min_seconds`` per stage in all (a fast stage no
    longer holds the slow ones to thousands of rounds). Returns each stage's seconds per corpus,
    one per run, in CPU time of the process (``time.process_time``: on a shared machine the wall
    clock also counts the waits for a core). The best run is the figure of record (as ``timeit`` advises: slower runs measure
    the machine, not the code); the median is shown beside."""
    reps: dict[str, int] = {}
    for name, fn in stages.items():
        t0 = time.perf_counter()
        fn()  # warm-up, and how long one corpus takes
        reps[name] = max(1, math.ceil(min_run / max(time.perf_counter() - t0, 1e-6)))
    times: dict[str, list[float]] = {name: [] for name in stages}
    start = time.perf_counter()
    while True:
        for name, fn in stages.items():
            k = reps[name]
            t0 = time.process_time()
            for _ in range(k):
                fn()
            times[name].append((time.process_time() - t0) / k)
        if all(len(t) >= min_rounds for t in times.values()) and time.perf_counter() - start >= min_seconds * len(
            stages
        ):
            return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="*", help="BSW .tch files (default: the shared corpus)")
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum time per stage (on average)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit 1 below {TARGET_HANDS_PER_SECOND} hands/s, below {TARGET_X_FROHLFING:g}x "
        "frohlfing/tichu (when it runs) or on a score mismatch",
    )
    parser.add_argument("--frohlfing", default=None, help="a checkout of frohlfing/tichu (default $FROHLFING_TICHU)")
    parser.add_argument(
        "--baseline-tree",
        default=None,
        help="another checkout of this project (e.g. main before a change): its pipeline runs "
        "round for round in a child process and the bench prints pipeline / baseline",
    )
    parser.add_argument(
        "--frohlfing-python",
        default=None,
        help="a Python 3.13 that can import it (default $FROHLFING_PYTHON, else python3.13)",
    )
    args = parser.parse_args(argv)

    from games.engine import fold, parse_bsw, score_json

    paths = args.logs or sorted(
        glob.glob(os.path.join(os.environ.get("TICHU_CORPUS", "/work/shared/corpus"), "bsw-tich_me", "*.tch"))
    )
    if not paths:
        print("no logs found", file=sys.stderr)
        return 2
    texts = [Path(p).read_text(encoding="utf-8", errors="replace") for p in paths]

    records = [r for t in texts for r in parse_bsw(t, bsw_scoring=True)]
    hands = sum(len(r["meta"]["bsw_results"]) for r in records)
    events = sum(len(r["events"]) for r in records)
    blob = [json.dumps(r) for r in records]

    # correctness, once: every complete hand scored as BSW did
    mismatches = []
    for k, r in enumerate(records):
        got = score_json(fold(r))["hands"]
        for h, expected in enumerate(r["meta"]["bsw_results"]):
            if expected is not None and (h >= len(got) or list(got[h]["points"]) != expected):
                mismatches.append((k, h, expected, got[h]["points"] if h < len(got) else None))

    def convert():
        for t in texts:
            parse_bsw(t, bsw_scoring=True)

    def pipeline():
        for t in texts:
            for r in parse_bsw(t, bsw_scoring=True):
                score_json(fold(r))

    def validate_only():
        for r in records:
            score_json(fold(r))

    def baseline():
        for b in blob:
            json.loads(b)

    stages = {"json_loads": baseline, "convert": convert, "fold_score": validate_only, "pipeline": pipeline}
    frohlfing, frohlfing_missing = frohlfing_runner(args, paths)
    if frohlfing is not None:
        stages["frohlfing"] = frohlfing
    baseline_tree = Frohlfing(args.baseline_tree, sys.executable, paths, BASELINE_CHILD) if args.baseline_tree else None
    if baseline_tree is not None:
        stages["baseline_tree"] = baseline_tree
    figures = {}
    try:
        measured = measure(stages, args.seconds)
    finally:
        if frohlfing is not None:
            frohlfing.close()
        if baseline_tree is not None:
            baseline_tree.close()
    if frohlfing is not None:  # its own clock: the child's seconds, not the pipe's round trip
        measured["frohlfing"] = frohlfing.seconds[1:]  # [0] is measure()'s warm-up
    if baseline_tree is not None:
        measured["baseline_tree"] = baseline_tree.seconds[1:]
    for name, runs in measured.items():
        best, median = min(runs), statistics.median(runs)
        figures[name] = {
            "runs": len(runs),
            "seconds_per_corpus": best,
            "median_seconds_per_corpus": median,
            "hands_per_second": hands / best,
            "median_hands_per_second": hands / median,
            "events_per_second": events / best,
        }
    base = figures["json_loads"]["seconds_per_corpus"]
    for name in ("convert", "fold_score", "pipeline"):
        figures[name]["x_json_loads"] = figures[name]["seconds_per_corpus"] / base
    x_frohlfing = None
    if frohlfing is not None:
        f = figures["frohlfing"]
        f["hands"] = frohlfing.hands
        f["hands_per_second"] = frohlfing.hands / f["seconds_per_corpus"]
        f["median_hands_per_second"] = frohlfing.hands / f["median_seconds_per_corpus"]
        f.pop("events_per_second")
        x_frohlfing = figures["pipeline"]["hands_per_second"] / f["hands_per_second"]
    x_baseline = None
    if baseline_tree is not None:  # the same hands (the same reader's count), per corpus
        x_baseline = figures["baseline_tree"]["seconds_per_corpus"] / figures["pipeline"]["seconds_per_corpus"]
        figures["baseline_tree"]["tree"] = args.baseline_tree

    report = {
        "logs": len(paths),
        "games": len(records),
        "hands": hands,
        "events": events,
        "score_mismatches": mismatches,
        "target_hands_per_second": TARGET_HANDS_PER_SECOND,
        "meets_target": figures["pipeline"]["hands_per_second"] >= TARGET_HANDS_PER_SECOND,
        "stages": figures,
        "x_frohlfing": x_frohlfing,
        "target_x_frohlfing": TARGET_X_FROHLFING,
        "frohlfing_missing": frohlfing_missing or None,
        "x_baseline_tree": x_baseline,
        "python": sys.version.split()[0],
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"corpus: {len(paths)} logs, {len(records)} games, {hands} hands, {events} events")
        print(f"{'stage':<12}{'hands/s':>12}{'(median)':>12}{'events/s':>14}{'x json.loads':>15}")
        for name in ("json_loads", "convert", "fold_score", "pipeline"):
            f = figures[name]
            ratio = f.get("x_json_loads", 1.0)
            print(
                f"{name:<12}{f['hands_per_second']:>12,.0f}{f['median_hands_per_second']:>12,.0f}"
                f"{f['events_per_second']:>14,.0f}{ratio:>15.1f}"
            )
        verdict = "meets" if report["meets_target"] else "BELOW"
        print(
            f"pipeline (convert + fold + score): {figures['pipeline']['hands_per_second']:,.0f} hands/s, "
            f"{verdict} the target of {TARGET_HANDS_PER_SECOND:,} hands/s"
        )
        if x_frohlfing is not None:
            f = figures["frohlfing"]
            verdict = "meets" if x_frohlfing >= TARGET_X_FROHLFING else "BELOW"
            print(
                f"frohlfing/tichu parse + validate: {f['hands_per_second']:,.0f} hands/s "
                f"(median {f['median_hands_per_second']:,.0f}; {f['hands']} hands, it drops a truncated one); "
                f"pipeline / frohlfing = {x_frohlfing:.1f}x, {verdict} the target of {TARGET_X_FROHLFING:.0f}x"
            )
        else:
            print(frohlfing_missing)
        if x_baseline is not None:
            f = figures["baseline_tree"]
            print(
                f"baseline tree {args.baseline_tree}: {f['hands_per_second']:,.0f} hands/s "
                f"(median {f['median_hands_per_second']:,.0f}); pipeline / baseline = {x_baseline:.2f}x"
            )
        print(f"score mismatches against Ergebnis: {len(mismatches)}" + (f" {mismatches}" if mismatches else ""))
    below_frohlfing = x_frohlfing is not None and x_frohlfing < TARGET_X_FROHLFING
    if args.check and (mismatches or not report["meets_target"] or below_frohlfing):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
