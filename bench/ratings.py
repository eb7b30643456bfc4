#!/usr/bin/env python
"""Rating bench: prequential quality on two histories, and speed.

    .venv/bin/python bench/ratings.py                    # everything, markdown to stdout
    .venv/bin/python bench/ratings.py --skip-speed --json out.json

Quality (docs/ratings.md "Evaluation"): every game is predicted from the games before it, then
the ratings are updated on it. Games are split chronologically: burn-in [0, 25%), tuning
[25%, 50%) (grids and calibration scales are chosen by log loss there only), test [50%, 100%)
(reported). Every system sees the same games in the same run.

Histories:
* tracker: the real score-sheet history in ../shared/corpus/tichu-tracker/ (relative to the repo).
* generated: bots of different skill playing full Nanking games through the engine
  (games/ratings/botplay.py) when the engine is importable (--generated bots), else the seeded
  synthetic score-sheet history of games/ratings/synthetic.py (--generated synthetic).

Speed: the rating loop (look up ratings, update, store) in games per second for the chosen
model, plain Elo and openskill's rate(), on the same generated games.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from games.ratings import evaluate as ev  # noqa: E402
from games.ratings.baselines import Constant, OpenSkill, logistic  # noqa: E402
from games.ratings.elo import EloParams, TeamElo  # noqa: E402
from games.ratings.model import MarginKalman, ModelParams, natural_scale, probability  # noqa: E402
from games.ratings.synthetic import synthetic_history  # noqa: E402
from games.ratings.tracker import load_tracker  # noqa: E402
from games.ratings.types import order_games  # noqa: E402

TRACKER = REPO / ".." / "shared" / "corpus" / "tichu-tracker" / "allgames.converted.json"

# the chosen model's tuning grid (the calibration scale is fitted for each point)
MODEL_GRID = {
    "prior_var": [0.001, 0.0025, 0.01, 0.04],
    "tau_day": [0.0, 0.002],
    "hand_clip": [1.0, 2.0],
}
ELO_GRID = {"k": [4, 8, 12, 16, 24, 32, 48]}
# sd of log(scale) in the prior of every fitted probability scale (evaluate.fit_scale): one sd is
# a factor of 1.65 either way from the system's own unfitted scale
PRIOR_LOG_SD = 0.5
# openskill's own predict_win for two sides of well-known players is Phi(diff / sqrt(2 beta^2)),
# beta = 25/6; as a logistic slope on the mu difference: 1.702 / sqrt(2 beta^2)
OPENSKILL_NATURAL_SLOPE = 1.702 / math.sqrt(2.0 * (25.0 / 6.0) ** 2)


def evaluate_history(name: str, games, truth=None, buckets: int = 10, min_n: int = 50) -> dict:
    games = order_games([g for g in games if g.rated])
    tw, sw = ev.windows(len(games))
    # what the model implies for this history's game length, from the games before the test
    mean_hands = statistics.mean(g.hands for g in games[:tw.stop])
    model_prior = (natural_scale(mean_hands, ModelParams().obs_var), PRIOR_LOG_SD)
    rows: dict[str, dict] = {}
    fore: dict[str, list] = {}

    def add(key, label, forecasts, params=None):
        test = ev.select(forecasts, sw)
        fore[key] = test
        rep = ev.report(label, test, buckets, min_n)
        equal_bins = ev.calibration(test, buckets)
        rows[key] = {
            "label": label, "params": params or {}, "log_loss": rep.log_loss,
            "brier": rep.brier, "accuracy": rep.accuracy, "n": rep.n,
            "tune_log_loss": ev.log_loss(ev.select(forecasts, tw)),
            "calibration": [
                {"lo": b.lo, "hi": b.hi, "n": b.n, "mean_p": b.mean_p, "observed": b.observed,
                 "gap_points": b.gap, "se_points": b.se} for b in rep.calibration],
            "max_gap_points": ev.max_gap(rep.calibration),
            "max_gap_points_unmerged": ev.max_gap(equal_bins),
            "buckets_beyond_2se": sum(1 for b in rep.calibration if abs(b.gap) > 2 * b.se),
        }

    t0 = time.perf_counter()
    best = ev.tune(lambda **kw: MarginKalman(ModelParams(**kw)), MODEL_GRID, games,
                   prob=probability, prior=model_prior)
    add("model", "margin-kalman (chosen)", best.forecasts,
        {**best.params, "prob_scale": best.scale, "prior_centre": model_prior[0]})
    add("elo32", "team Elo K=32 (stated baseline)",
        ev.prequential(TeamElo(EloParams(k=32)), games), {"k": 32})
    be = ev.tune(lambda **kw: TeamElo(EloParams(**kw)), ELO_GRID, games)
    add("elo_tuned", f"team Elo K={be.params['k']} (K tuned)", be.forecasts, be.params)
    # openskill is replayed once: its raw forecasts and the two fitted logistics share the ratings
    raw = ev.prequential(OpenSkill(), games)
    tune_raw = ev.select(raw, tw)
    slope = ev.fit_scale(tune_raw, logistic)
    add("openskill_fit", "openskill PL, fitted logistic", ev.rescale(raw, logistic, slope), {"slope": slope})
    slope = ev.fit_scale(tune_raw, logistic, prior=(OPENSKILL_NATURAL_SLOPE, PRIOR_LOG_SD))
    add("openskill_prior", "openskill PL, logistic fitted with the same prior", ev.rescale(raw, logistic, slope),
        {"slope": slope, "prior_centre": OPENSKILL_NATURAL_SLOPE})
    add("openskill_raw", "openskill PL, raw predict_win", raw)
    add("constant", "constant 50%", ev.prequential(Constant(), games))
    if truth is not None:
        fs = []
        for k, g in enumerate(games):
            d = sum(truth[p] for p in g.teams[0]) - sum(truth[p] for p in g.teams[1])
            fs.append(ev.Forecast(k, g.game_id, 0.5, g.pair_score(0, 1), (d,)))
        s = ev.fit_scale(ev.select(fs, tw), logistic)
        add("oracle", "oracle (true strengths, fitted scale)", ev.rescale(fs, logistic, s),
            {"scale": s})
    boot = {}
    for other in ("elo32", "elo_tuned", "openskill_fit", "openskill_prior", "constant"):
        mean, lo, hi = ev.paired_bootstrap(fore["model"], fore[other])
        boot[other] = {"mean": mean, "ci95": [lo, hi]}
    hands = [g.hands for g in games]
    return {
        "history": name, "games": len(games), "calibration_min_n": min_n, "tune_window": [tw.start, tw.stop],
        "test_window": [sw.start, sw.stop], "mean_hands": statistics.mean(hands),
        "players": len({p for g in games for p in g.players}),
        "systems": rows, "model_minus_other_log_loss": boot,
        "seconds": time.perf_counter() - t0,
    }


def speed(games, repeat: int = 5) -> dict:
    """Games per second of each rating loop. The loops take turns (round-robin, `repeat` rounds)
    so that a change in the machine's load hits them alike; median and best are reported."""
    from openskill.models import PlackettLuce

    games = order_games(games)
    bare = [g.__class__(g.game_id, g.finished_at, g.teams, g.scores, g.winner, g.hands, g.variant)
            for g in games]

    def loop(make, data):
        def run():
            sysm = make()
            t = time.perf_counter()
            for g in data:
                sysm.update(g)
            return len(data) / (time.perf_counter() - t)
        return run

    def openskill_run():
        model = PlackettLuce()
        ratings: dict = {}
        t = time.perf_counter()
        for g in games:
            teams = [[ratings.get(p) or model.rating(name=str(p)) for p in team] for team in g.teams]
            new = model.rate(teams, ranks=list(g.ranks))
            for team, nt in zip(g.teams, new):
                for p, r in zip(team, nt):
                    ratings[p] = r
        return len(games) / (time.perf_counter() - t)

    loops = {
        "margin-kalman update (hand lines)": loop(MarginKalman, games),
        "margin-kalman update (final scores only)": loop(MarginKalman, bare),
        "team Elo update": loop(TeamElo, games),
        "openskill PlackettLuce rate()": openskill_run,
    }
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(repeat):
        for k, run in loops.items():
            rates[k].append(run())
    return {k: {"median": statistics.median(v), "best": max(v), "worst": min(v), "runs": len(v)}
            for k, v in rates.items()}


def db_recompute(n_games: int, seed: int) -> dict:
    """Full recompute of n_games stored games on the database of DATABASE_URL (PostgreSQL for the
    figure in docs/ratings.md): the games are loaded once into a club of their own (not timed),
    then recompute_pool is timed from reading the stored outcomes to the committed tables."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from games.models import Club
    from games.ratings import services
    from games.ratings.fixtures import load_history
    from games.ratings.models import RatingChange

    call_command("migrate", verbosity=0)
    slug = f"ratings-bench-{n_games}-{seed}"
    from games.ratings.models import GameOutcome

    club = Club.objects.filter(slug=slug).first()
    if club is not None and GameOutcome.objects.filter(club=club).count() != n_games:
        club.slug = f"{slug}-incomplete-{club.pk}"  # an interrupted load: set it aside
        club.save(update_fields=["slug"])
        club = None
    t_load = None
    if club is None:
        _, games = synthetic_history(n_games, 1000, seed=seed)
        t = time.perf_counter()
        club = Club.objects.create(name=slug, slug=slug)
        load_history(club, games)
        t_load = time.perf_counter() - t
    def backend_cpu() -> float | None:
        """CPU seconds of this connection's PostgreSQL backend (same machine only)."""
        try:
            with connection.cursor() as cur:
                cur.execute("SELECT pg_backend_pid()")
                pid = cur.fetchone()[0]
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except Exception:
            return None

    runs, cpu, server = [], [], []
    for _ in range(3):
        b0 = backend_cpu() if connection.vendor == "postgresql" else None
        t, c = time.perf_counter(), time.process_time()
        out = services.recompute_pool(club.pk, "nanking")
        runs.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        b1 = backend_cpu() if b0 is not None else None
        server.append(b1 - b0 if b1 is not None else None)
    assert RatingChange.objects.filter(club=club).count() == 4 * n_games
    return {"vendor": connection.vendor, "games": out["games"], "players": out["players"],
            "rating_changes": out["changes"], "seconds": runs, "python_cpu_seconds": cpu, "server_cpu_seconds": server,
            "load_seconds": t_load, "loadavg": os.getloadavg()}


def fmt_history(r: dict) -> str:
    lines = [f"### {r['history']}: {r['games']} rated games, {r['players']} players, "
             f"{r['mean_hands']:.1f} hands per game; tuning games {r['tune_window'][0]}.."
             f"{r['tune_window'][1] - 1}, test games {r['test_window'][0]}..{r['test_window'][1] - 1}",
             "", f"| system | log loss | Brier | accuracy | max calib. gap (pts), bins of ≥ {r['calibration_min_n']} | equal bins, unmerged | "
             "buckets > 2 SE | parameters |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for row in r["systems"].values():
        params = ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in row["params"].items())
        lines.append(f"| {row['label']} | {row['log_loss']:.4f} | {row['brier']:.4f} | "
                     f"{100 * row['accuracy']:.1f}% | {row['max_gap_points']:.1f} | "
                     f"{row['max_gap_points_unmerged']:.1f} | {row['buckets_beyond_2se']} | {params} |")
    lines += ["", "Chosen model minus other, per-game log loss on the test games (paired bootstrap "
              "95% CI; negative = chosen model better):", ""]
    for k, b in r["model_minus_other_log_loss"].items():
        lines.append(f"* vs {r['systems'][k]['label']}: {b['mean']:+.4f} "
                     f"[{b['ci95'][0]:+.4f}, {b['ci95'][1]:+.4f}]")
    lines += ["", "Calibration of the chosen model on the test games (each game counted from both "
              f"sides; a bin under {r['calibration_min_n']} forecasts merged into its neighbour towards 50%):", "", "| forecast bin | n | mean forecast | observed | gap (pts) | SE (pts) |",
              "|---|---:|---:|---:|---:|---:|"]
    for b in r["systems"]["model"]["calibration"]:
        lines.append(f"| {b['lo']:.1f}–{b['hi']:.1f} | {b['n']} | {100 * b['mean_p']:.1f}% | "
                     f"{100 * b['observed']:.1f}% | {b['gap_points']:+.1f} | {b['se_points']:.1f} |")
    return "\n".join(lines)


def generated_history(kind: str, n: int, seed: int, cache: str | None = None):
    if cache and Path(cache).exists():
        import pickle

        with open(cache, "rb") as fh:
            return pickle.load(fh)
    out = _generated_history(kind, n, seed)
    if cache:
        import pickle

        with open(cache, "wb") as fh:
            pickle.dump(out, fh)
    return out


def _generated_history(kind: str, n: int, seed: int):
    if kind == "bots":
        try:
            from games.ratings.botplay import bot_history
        except ImportError as exc:  # the engine is not there yet
            print(f"(engine bots unavailable: {exc}; using the synthetic history)", file=sys.stderr)
        else:
            return "generated: engine bots of different skill", *bot_history(n, seed=seed)
    skills, games = synthetic_history(n, 40, seed=seed)
    return "generated: synthetic score sheets, 40 players of known strength", skills, games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tracker", default=str(TRACKER))
    ap.add_argument("--generated", choices=["bots", "synthetic"], default="bots")
    ap.add_argument("--games", type=int, default=2000, help="games in the generated history")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", help="pickle file to keep the generated history between runs")
    ap.add_argument("--speed-games", type=int, default=100_000)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--db-recompute", type=int, metavar="N",
                    help="time a full recompute of N stored games on DATABASE_URL (e.g. 100000)")
    args = ap.parse_args(argv)

    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    if not args.skip_quality:
        histories = []
        if Path(args.tracker).exists():
            _, tracker = load_tracker(args.tracker)
            histories.append(evaluate_history("tracker (real score sheets)", tracker))
        else:
            print(f"(tracker history not found at {args.tracker})", file=sys.stderr)
        label, skills, games = generated_history(args.generated, args.games, args.seed, args.cache)
        histories.append(evaluate_history(label, games, truth=skills))
        results["histories"] = histories
        for h in histories:
            print(fmt_history(h))
            print()
    if not args.skip_speed:
        _, games = synthetic_history(args.speed_games, 1000, seed=args.seed + 1)
        sp = speed(games)
        results["speed"] = {"games": len(games), **sp}
        print(f"### Rating loop speed, {len(games)} generated 2v2 games (games per second)\n")
        print("| loop | median | best | worst | runs |\n|---|---:|---:|---:|---:|")
        for k, v in sp.items():
            print(f"| {k} | {v['median']:,.0f} | {v.get('best', float('nan')):,.0f} | "
                  f"{v.get('worst', float('nan')):,.0f} | {v['runs']} |")
    if args.db_recompute:
        r = db_recompute(args.db_recompute, args.seed + 2)
        results["db_recompute"] = r
        print(f"\n### Full recompute from the database ({r['vendor']}): {r['games']} games, "
              f"{r['players']} players, {r['rating_changes']} rating-change rows written\n")
        print("runs, wall (s): " + ", ".join(f"{x:.1f}" for x in r["seconds"])
              + "; Python CPU of the same runs (s): " + ", ".join(f"{x:.1f}" for x in r["python_cpu_seconds"])
              + "; PostgreSQL backend CPU (s): " + ", ".join("?" if x is None else f"{x:.1f}"
                                                          for x in r["server_cpu_seconds"])
              + f"; load average {r['loadavg'][0]:.1f}"
              + (f"; loading the games (not timed): {r['load_seconds']:.0f} s" if r["load_seconds"] else ""))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
