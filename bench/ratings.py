#!/usr/bin/env python
"""Rating bench: the shipped predictive rating against tuned rivals on four histories, and speed.

    .venv/bin/python bench/ratings.py                  # quality + speed; writes docs/ratings.md §6
    .venv/bin/python bench/ratings.py --skip-speed --no-docs --json out.json
    .venv/bin/python bench/ratings.py --tune-shipped   # how config.BASE's values were chosen
    .venv/bin/python bench/ratings.py --diagnose-shipped --skip-speed  # tuning-window diagnostics

Quality (docs/ratings.md §5): every game is predicted from the games before it, then the
ratings are updated on it. Games are split chronologically: burn-in [0, 25%), tuning [25%, 50%),
test [50%, 100%) (reported). The SHIPPED model (games.ratings.config, the parameters the league
runs) is scored as it is: it is never re-tuned to a history. Every rival is tuned on each
history's tuning window with the same budget: a grid of at most BUDGET points plus one fitted
probability slope (log-normal prior, sd PRIOR_LOG_SD, around the rival's own unscaled
forecast). Every system sees the same games and the same game-length ratio
(model.length_ratio). Reported: test log loss, the paired per-game difference shipped - rival
with a 95% bootstrap interval resampled by days (evenings), and the calibration slope.

Histories (games/ratings/synthetic.py, botplay.py, tracker.py; docs/ratings.md §6):
* stationary: synthetic score sheets, fixed skills (synthetic_history);
* drifting: club evenings with drift, late joiners who improve, partner synergy, uneven game
  counts, 30% short games (synthetic.club_history);
* tracker: the real score sheets in ../shared/corpus/tichu-tracker/ (relative to the repo);
* bots: engine bots of different skill playing full games (botplay.bot_history), read from
  bench/data/bot_history.json.gz (--regenerate-bots plays them again: ~30 min).

Speed: the rating loop in games per second for the shipped model, plain Elo and openskill.
"""
from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from games.ratings import config  # noqa: E402
from games.ratings import evaluate as ev  # noqa: E402
from games.ratings.baselines import (  # noqa: E402
    CalibratedElo,
    Constant,
    MarginElo,
    OpenSkill,
    TeamGlicko2,
    TrueSkillTeams,
    calibrated,
)
from games.ratings.candidates import (  # noqa: E402
    DRIFTS,
    FORECAST_SCALE,
    MIX_DRIFTS,
    MIX_SCALES,
    DriftSelectingKalman,
    PoolBayesKalman,
)
from games.ratings.elo import TeamElo  # noqa: E402
from games.ratings.history_io import read_history, write_history  # noqa: E402
from games.ratings.model import MarginKalman, natural_scale, probability  # noqa: E402
from games.ratings.synthetic import club_history, synthetic_history  # noqa: E402
from games.ratings.tracker import load_tracker  # noqa: E402
from games.ratings.types import order_games  # noqa: E402


def _tracker_path() -> Path:
    """../shared/corpus/... from the repository (a worktree under /work/wt/NAME looks further up)."""
    rel = Path("shared") / "corpus" / "tichu-tracker" / "allgames.converted.json"
    for base in REPO.parents:
        if (base / rel).exists():
            return base / rel
    return REPO.parent / rel


TRACKER = _tracker_path()
BOTS = REPO / "bench" / "data" / "bot_history.json.gz"
DOCS = REPO / "docs" / "ratings.md"

BUDGET = 12  # grid points per system (each with its own fitted slope)
PRIOR_LOG_SD = 0.5  # sd of log(slope) around the system's own scale (evaluate.fit_scale)
TS_BETA = 25.0 / 6.0

# the rivals: (label, factory, grid); every grid has at most BUDGET points
RIVALS = {
    "elo": ("team Elo", CalibratedElo, {"k": [2, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64]}),
    "glicko2": ("Glicko-2 (composite opponent)", TeamGlicko2,
                {"tau": [0.3, 0.75, 1.2], "rd": [200.0, 350.0], "vol": [0.03, 0.06]}),
    "trueskill": ("TrueSkill", TrueSkillTeams,
                  {"beta": [TS_BETA, 2 * TS_BETA, 3 * TS_BETA, 4 * TS_BETA],
                   "tau": [0.0, 25.0 / 300.0, 0.25]}),
    "openskill": ("openskill PlackettLuce", OpenSkill,
                  {"beta": [TS_BETA, 2 * TS_BETA, 4 * TS_BETA], "tau": [0.0, 25.0 / 300.0, 0.25, 0.5]}),
    "margin_elo": ("margin Elo (fixed gain on points)", MarginElo,
                   {"k": [0.004, 0.008, 0.012, 0.016, 0.024, 0.032], "clip": [1.0, 2.0]}),
}
# the shipped model's own grid for --tune-shipped (12 points, scale fitted); its first grid,
# {"tau_day": [0.0, 0.001, 0.002, 0.004], "prior_var": [0.0025, 0.01, 0.04]}, chose prior_var
# 0.01 and tau_day 0.002 (config.py)
MODEL_GRID = {"tau_day": [0.001, 0.002, 0.004], "hand_clip": [1.0, 2.0], "obs_var": [1.0, 2.0]}
for _label, _make, _grid in RIVALS.values():
    assert math.prod(len(v) for v in _grid.values()) <= BUDGET, _label
assert math.prod(len(v) for v in MODEL_GRID.values()) <= BUDGET


def _params_text(params: dict) -> str:
    return ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in params.items())


def evaluate_history(key: str, label: str, games, truth=None, boot_reps: int = 2000) -> dict:
    games = order_games([g for g in games if g.rated])
    tw, sw = ev.windows(len(games))
    t0 = time.perf_counter()
    rows: dict[str, dict] = {}
    fore: dict[str, list] = {}

    def add(k, name, forecasts, params=None):
        test = ev.select(forecasts, sw)
        fore[k] = test
        rows[k] = {"label": name, "params": params or {}, "log_loss": ev.log_loss(test),
                   "brier": ev.brier(test), "accuracy": ev.accuracy(test),
                   "tune_log_loss": ev.log_loss(ev.select(forecasts, tw)),
                   "calibration_slope": ev.calibration_slope(test)}

    add("shipped", f"shipped model ({config.SYSTEM})",
        ev.prequential(config.model_for("nanking"), games))
    for k, (name, make, grid) in RIVALS.items():
        best = ev.tune(make, grid, games, prob=calibrated, prior=(1.0, PRIOR_LOG_SD))
        add(k, name, best.forecasts, {**best.params, "slope": best.scale})
    add("constant", "constant 50%", ev.prequential(Constant(), games))
    # not a rival and not shipped: the candidate of docs/ratings.md §3b item 6, frozen on the
    # tuning windows before this row was first computed
    add("candidate", "candidate: drift chosen per pool (not shipped)",
        ev.prequential(DriftSelectingKalman(config.params_for("nanking")), games),
        {"drifts": "/".join(f"{t:g}" for t in DRIFTS), "scale": FORECAST_SCALE})
    # candidate 2 (docs/ratings.md §3c): drift and forecast scale learned per pool, frozen
    # before its first test-window figures
    add("candidate2", "candidate 2: drift and scale learned per pool (not shipped)",
        ev.prequential(PoolBayesKalman(config.params_for("nanking")), games),
        {"drifts": "/".join(f"{t:g}" for t in MIX_DRIFTS),
         "scales": "/".join(f"{a:g}" for a in MIX_SCALES)})
    if truth is not None:
        fs = []
        for k, g in enumerate(games):
            d = sum(truth[p] for p in g.teams[0]) - sum(truth[p] for p in g.teams[1])
            fs.append(ev.Forecast(k, g.game_id, 0.5, g.pair_score(0, 1), (d,),
                                  int(g.finished_at // 86400)))
        s = ev.fit_scale(ev.select(fs, tw), calibrated)
        add("oracle", "oracle (true skills, fitted slope)", ev.rescale(fs, calibrated, s),
            {"slope": s})
    for k, row in rows.items():
        if k == "shipped":
            continue
        mean, lo, hi = ev.paired_bootstrap(fore["shipped"], fore[k], reps=boot_reps)
        row["shipped_minus"] = {"mean": mean, "ci95": [lo, hi]}
    rows["shipped"]["slope_ci95"] = list(ev.slope_interval(fore["shipped"]))
    rivals = [k for k in RIVALS]
    hands = [g.hands for g in games]
    counts: dict = {}
    for g in games:
        for p in g.players:
            counts[p] = counts.get(p, 0) + 1
    return {
        "key": key, "history": label, "games": len(games), "players": len(counts),
        "games_per_player": [min(counts.values()), max(counts.values())],
        "days": len({int(g.finished_at // 86400) for g in games[sw.start:]}),
        "tune_window": [tw.start, tw.stop], "test_window": [sw.start, sw.stop],
        "mean_hands": statistics.mean(hands), "systems": rows,
        "beats_every_rival": all(rows[k]["shipped_minus"]["ci95"][1] < 0 for k in rivals),
        "seconds": time.perf_counter() - t0,
    }


def fmt_history(r: dict) -> str:
    lo, hi = r["games_per_player"]
    lines = [f"**{r['history']}**: {r['games']} rated games, {r['players']} players ({lo}–{hi} "
             f"games each), {r['mean_hands']:.1f} hands per game; tuning games "
             f"{r['tune_window'][0]}–{r['tune_window'][1] - 1}, test games "
             f"{r['test_window'][0]}–{r['test_window'][1] - 1} on {r['days']} days",
             "", "| system | test log loss | shipped − system [95% CI] | calibration slope | tuned on the tuning window |",
             "|---|---:|---|---:|---|"]
    for k, row in r["systems"].items():
        if k == "shipped":
            lo_s, hi_s = row["slope_ci95"]
            d = "—"
            slope = f"**{row['calibration_slope']:.2f}** [{lo_s:.2f}, {hi_s:.2f}]"
            name = f"**{row['label']}**"
            ll = f"**{row['log_loss']:.4f}**"
        else:
            b = row["shipped_minus"]
            d = f"{b['mean']:+.4f} [{b['ci95'][0]:+.4f}, {b['ci95'][1]:+.4f}]"
            slope = f"{row['calibration_slope']:.2f}" if k != "constant" else "—"
            name, ll = row["label"], f"{row['log_loss']:.4f}"
        lines.append(f"| {name} | {ll} | {d} | {slope} | {_params_text(row['params'])} |")
    verdict = ("the shipped model beats every tuned rival (every interval below 0)"
               if r["beats_every_rival"] else
               "the shipped model does NOT beat every tuned rival (some interval reaches 0 or above)")
    lines += ["", f"Verdict: {verdict}."]
    return "\n".join(lines)


def tune_shipped(histories: list[tuple[str, list]]) -> dict:
    """How config.BASE's drift, prior and scale were chosen: every point of MODEL_GRID replayed
    on all four histories; one full-game scale fitted on the pooled tuning windows (prior centred
    on the model's own scale for a full game); the point with the lowest pooled tuning-window
    log loss wins. Test windows are never read."""
    out = []
    prior = (natural_scale(config.BASE.full_hands, config.BASE.obs_var), PRIOR_LOG_SD)
    keys = list(MODEL_GRID)
    ordered = [(name, order_games([g for g in gs if g.rated])) for name, gs in histories]
    for values in itertools.product(*(MODEL_GRID[k] for k in keys)):
        kw = dict(zip(keys, values))
        pooled = []
        per = {}
        for name, gs in ordered:
            tw, _ = ev.windows(len(gs))
            params = replace(config.params_for("nanking"), **kw)
            fs = ev.select(ev.prequential(MarginKalman(params), gs), tw)
            per[name] = fs
            pooled += fs
        a = ev.fit_scale(pooled, probability, prior=prior)
        loss = ev.log_loss(ev.rescale(pooled, probability, a))
        out.append({**kw, "prob_scale": a, "tune_log_loss": loss,
                    "per_history": {n: ev.log_loss(ev.rescale(f, probability, a))
                                    for n, f in per.items()}})
        print(f"{kw} a={a:.3f} pooled tuning log loss {loss:.5f} "
              + " ".join(f"{n}={v:.4f}" for n, v in out[-1]["per_history"].items()), flush=True)
    best = min(out, key=lambda r: r["tune_log_loss"])
    print(f"chosen: {best}")
    return {"grid": out, "chosen": best}


def diagnose_shipped(histories: list[tuple[str, list]]) -> dict:
    """Why the shipped model does what it does, read on the TUNING windows only (and, for the
    hands' spread, the games before the test window): docs/ratings.md §3b quotes this output.

    1. the within-game variance of the clipped hand margins (what obs_var = 1 stands for);
    2. the shipped configuration on each tuning window: log loss, calibration slope, and the
       full-game scale each history alone would prefer (same log-normal prior as --tune-shipped),
       split into full and short games;
    3. the same with the day drift switched off (tau_day = 0), with obs_var set to the measured
       variance, and with both, each with one scale fitted on the pooled tuning windows."""
    ordered = [(name, order_games([g for g in gs if g.rated])) for name, gs in histories]
    out: dict = {"hand_variance": {}, "variants": {}}
    before_test = []
    for name, gs in ordered:
        tw, _ = ev.windows(len(gs))
        before_test += gs[:tw.stop]
        out["hand_variance"][name] = ev.hand_margin_variance(gs[:tw.stop], config.BASE.hand_clip)[0]
    measured = ev.hand_margin_variance(before_test, config.BASE.hand_clip)[0]
    out["hand_variance"]["pooled"] = measured
    print("within-game variance of a hand's clipped margin (games before the test window): "
          + ", ".join(f"{k} {v:.3f}" for k, v in out["hand_variance"].items()), flush=True)
    base = config.params_for("nanking")
    variants = {
        "shipped": {},
        "no day drift": {"tau_day": 0.0},
        f"obs_var {measured:.3f} (measured)": {"obs_var": round(measured, 3)},
        f"obs_var {measured:.3f}, no day drift": {"obs_var": round(measured, 3), "tau_day": 0.0},
    }
    for label, kw in variants.items():
        params = replace(base, **kw)
        prior = (natural_scale(params.full_hands, params.obs_var), PRIOR_LOG_SD)
        per = {}
        for name, gs in ordered:
            tw, _ = ev.windows(len(gs))
            per[name] = ev.select(ev.prequential(MarginKalman(params), gs), tw)
        pooled = [f for fs in per.values() for f in fs]
        a = params.prob_scale if not kw else ev.fit_scale(pooled, probability, prior=prior)
        row = {"kw": kw, "prob_scale": a,
               "pooled_log_loss": ev.log_loss(ev.rescale(pooled, probability, a)), "per_history": {}}
        for name, fs in per.items():
            r = ev.rescale(fs, probability, a)
            full = [f for f in fs if f.x[2] == 1.0]
            short = [f for f in fs if f.x[2] < 1.0]
            row["per_history"][name] = {
                "log_loss": ev.log_loss(r), "slope": ev.calibration_slope(r),
                "own_scale": ev.fit_scale(fs, probability, prior=prior),
                "own_scale_full": ev.fit_scale(full, probability, prior=prior) if full else None,
                "own_scale_short": ev.fit_scale(short, probability, prior=prior) if short else None,
                "n_full": len(full), "n_short": len(short)}
        out["variants"][label] = row
        print(f"{label}: a={a:.2f} (natural {prior[0]:.2f}), pooled tuning log loss "
              f"{row['pooled_log_loss']:.4f}", flush=True)
        for name, h in row["per_history"].items():
            sf = "" if h["own_scale_full"] is None else f" (full games {h['own_scale_full']:.2f}, n={h['n_full']})"
            ss_ = "" if h["own_scale_short"] is None else f" (short games {h['own_scale_short']:.2f}, n={h['n_short']})"
            print(f"  {name}: log loss {h['log_loss']:.4f}, slope {h['slope']:.2f}, "
                  f"own scale {h['own_scale']:.2f}{sf}{ss_}", flush=True)
    return out


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


BOT_PLAN = {"n_games": 1000, "n_players": 24, "seed": 1, "prefix": 600}


def bot_games(path: Path, regenerate: bool) -> tuple[dict, list]:
    """The engine-bot history: the first `prefix` games of botplay's 1,000-game schedule (seed 1,
    24 bots), played by the engine and stored in bench/data/ (regenerating takes ~30 minutes)."""
    if regenerate or not path.exists():
        from games.ratings.botplay import play, schedule

        skills, plan = schedule(BOT_PLAN["n_games"], BOT_PLAN["n_players"], BOT_PLAN["seed"])
        jobs = [(gid, t, seats, rs, [skills[p] for p in seats])
                for gid, t, seats, rs in plan[:BOT_PLAN["prefix"]]]
        games = [play(j) for j in jobs]
        path.parent.mkdir(parents=True, exist_ok=True)
        write_history(path, skills, games, {"generator": "games.ratings.botplay.schedule + play",
                                            **BOT_PLAN})
    _, skills, games = read_history(path)
    return skills, games


def load_histories(args) -> list[tuple[str, str, list, dict | None]]:
    out = []
    skills, games = synthetic_history(args.games, 40, seed=args.seed)
    out.append(("stationary", "stationary (synthetic, fixed skills)", games, skills))
    _, games = club_history(args.drift_games, seed=args.seed)
    out.append(("drifting", "drifting (club evenings: drift, improving joiners, synergy, short games)",
                games, None))
    if Path(args.tracker).exists():
        _, games = load_tracker(args.tracker)
        out.append(("tracker", "tracker (real score sheets)", games, None))
    else:
        print(f"(tracker history not found at {args.tracker})", file=sys.stderr)
    skills, games = bot_games(Path(args.bots), args.regenerate_bots)
    out.append(("bots", "bots (engine bots of different skill, full games)", games, skills))
    return out


def write_docs(text: str, path: Path = DOCS) -> None:
    """Replace the block between the bench markers in docs/ratings.md."""
    start, end = "<!-- bench:ratings:start -->", "<!-- bench:ratings:end -->"
    doc = path.read_text(encoding="utf-8")
    if start not in doc or end not in doc:
        print(f"(no bench markers in {path}; not written)", file=sys.stderr)
        return
    pre, rest = doc.split(start, 1)
    _, post = rest.split(end, 1)
    path.write_text(pre + start + "\n" + text + "\n" + end + post, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tracker", default=str(TRACKER))
    ap.add_argument("--bots", default=str(BOTS))
    ap.add_argument("--regenerate-bots", action="store_true")
    ap.add_argument("--games", type=int, default=2000, help="games in the stationary history")
    ap.add_argument("--drift-games", type=int, default=3000, help="games in the drifting history")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boot-reps", type=int, default=2000)
    ap.add_argument("--speed-games", type=int, default=100_000)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--no-docs", action="store_true", help="do not rewrite docs/ratings.md §6.1")
    ap.add_argument("--tune-shipped", action="store_true")
    ap.add_argument("--diagnose-shipped", action="store_true",
                    help="tuning-window diagnostics of the shipped model (docs/ratings.md §3b)")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--db-recompute", type=int, metavar="N",
                    help="time a full recompute of N stored games on DATABASE_URL (e.g. 100000)")
    args = ap.parse_args(argv)

    t_start = time.perf_counter()
    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count(),
                     "system": config.SYSTEM, "shipped": config.BASE.__dict__}
    if args.diagnose_shipped:
        hs = load_histories(args)
        results["diagnose_shipped"] = diagnose_shipped([(k, g) for k, _, g, _ in hs])
    elif args.tune_shipped:
        hs = load_histories(args)
        results["tune_shipped"] = tune_shipped([(k, g) for k, _, g, _ in hs])
    elif not args.skip_quality:
        histories = [evaluate_history(k, label, g, truth, args.boot_reps)
                     for k, label, g, truth in load_histories(args)]
        results["histories"] = histories
        uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        seeds = f"seed {args.seed}"
        text = "\n\n".join(fmt_history(h) for h in histories)
        p = config.params_for("nanking")
        stamp = (f"Measured {datetime.date.today().isoformat()} by `.venv/bin/python bench/ratings.py` "
                 f"({seeds}; {time.perf_counter() - t_start:.0f} s; `uptime`: {uptime}). Shipped: "
                 f"`{config.SYSTEM}`, tau_day={p.tau_day}, prior_var={p.prior_var}, "
                 f"prob_scale={p.prob_scale} for a full game of {p.full_hands:g} hands, "
                 f"scaled by √(hands/{p.full_hands:g}) for a game stopped before {p.target:g}.")
        text = stamp + "\n\n" + text
        print(text)
        print()
        if not args.no_docs:
            write_docs(text)
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
