#!/usr/bin/env python
"""Rating bench: the shipped predictive rating against tuned rivals on four histories, and speed.

    .venv/bin/python bench/ratings.py                  # quality + speed; writes docs/ratings.md §6
    .venv/bin/python bench/ratings.py --skip-speed --no-docs --json out.json
    .venv/bin/python bench/ratings.py --tune-shipped   # how config.BASE's values were chosen
    .venv/bin/python bench/ratings.py --diagnose-shipped --skip-speed  # tuning-window diagnostics
    .venv/bin/python bench/ratings.py --seeds 1-5 --jobs 2 --skip-speed  # pooled seeds: §6.2

Quality (docs/ratings.md §5): every game is predicted from the games before it, then the
ratings are updated on it. Games are split chronologically: burn-in [0, 25%), tuning [25%, 50%),
test [50%, 100%) (reported). The SHIPPED model (games.ratings.config, the parameters the league
runs) is scored as it is: it is never re-tuned to a history. Every rival is tuned on each
history's tuning window with the same budget: a grid of at most BUDGET points plus one fitted
probability slope (log-normal prior, sd PRIOR_LOG_SD, around the rival's own unscaled
forecast). Every system sees the same games and the same game-length ratio
(model.length_ratio). Reported: test log loss, the paired per-game difference shipped - rival
with a 95% bootstrap interval resampled by days (evenings), and the calibration slope.

Power: on the generated and bot histories an oracle forecasts from the true skills of each game
(fitted slope); on the real history, whose skills nobody knows, a hindsight fit (skills from
every game, the test games included) stands in for it. The bound's paired interval against each
rival says whether the history is large enough for ANY model to be shown better than that rival;
the generated verdict names the rivals no model can be shown to beat at that size. --seeds pools
several seeds of the generated histories (bootstrap over (seed, day) blocks) to narrow the
intervals.

Histories (bench/ratings_lab/synthetic.py, botplay.py, tracker.py; docs/ratings.md §6):
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

from bench.ratings_lab import evaluate as ev  # noqa: E402
from bench.ratings_lab.baselines import (  # noqa: E402
    CalibratedElo,
    Constant,
    MarginElo,
    OpenSkill,
    TeamGlicko2,
    TrueSkillTeams,
    calibrated,
)
from bench.ratings_lab.candidates import (  # noqa: E402
    DRIFTS,
    FORECAST_SCALE,
    PREVIOUS_SYSTEM,
    DriftSelectingKalman,
    previous_model_for,
)
from bench.ratings_lab.history_io import read_history, write_history  # noqa: E402
from bench.ratings_lab.synthetic import club_history, synthetic_history  # noqa: E402
from bench.ratings_lab.tracker import load_tracker  # noqa: E402
from games.ratings import config  # noqa: E402
from games.ratings.mixture import MIX_DRIFTS, MIX_SCALES  # noqa: E402
from games.ratings.model import MarginKalman, length_ratio, natural_scale, probability  # noqa: E402
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
    "glicko2": (
        "Glicko-2 (composite opponent)",
        TeamGlicko2,
        {"tau": [0.3, 0.75, 1.2], "rd": [200.0, 350.0], "vol": [0.03, 0.06]},
    ),
    "trueskill": (
        "TrueSkill",
        TrueSkillTeams,
        {"beta": [TS_BETA, 2 * TS_BETA, 3 * TS_BETA, 4 * TS_BETA], "tau": [0.0, 25.0 / 300.0, 0.25]},
    ),
    "openskill": (
        "openskill PlackettLuce",
        OpenSkill,
        {"beta": [TS_BETA, 2 * TS_BETA, 4 * TS_BETA], "tau": [0.0, 25.0 / 300.0, 0.25, 0.5]},
    ),
    "margin_elo": (
        "margin Elo (fixed gain on points)",
        MarginElo,
        {"k": [0.004, 0.008, 0.012, 0.016, 0.024, 0.032], "clip": [1.0, 2.0]},
    ),
}
# the shipped model's own grid for --tune-shipped (12 points, scale fitted); its first grid,
# {"tau_day": [0.0, 0.001, 0.002, 0.004], "prior_var": [0.0025, 0.01, 0.04]}, chose prior_var
# 0.01 and tau_day 0.002 (config.py)
MODEL_GRID = {"tau_day": [0.001, 0.002, 0.004], "hand_clip": [1.0, 2.0], "obs_var": [1.0, 2.0]}
for _label, _make, _grid in RIVALS.values():
    assert math.prod(len(v) for v in _grid.values()) <= BUDGET, _label
assert math.prod(len(v) for v in MODEL_GRID.values()) <= BUDGET


def _params_text(params: dict) -> str:
    return ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items())


CANDIDATES = ("candidate", "previous")
STATIONARY = "stationary (synthetic, fixed skills)"
DRIFTING = "drifting (club evenings: drift, improving joiners, synergy, short games)"
LABELS = {
    "constant": "constant 50%",
    "candidate": "candidate: drift chosen per pool (not shipped)",
    "previous": (
        f"previous shipped model ({PREVIOUS_SYSTEM}): one filter, "
        f"drift {config.BASE.tau_day:g}, scale {config.BASE.prob_scale:.2f}"
    ),
    "oracle": "oracle (the game's true skills, fitted slope)",
    "hindsight": "hindsight (skills fitted on every game, the test window included; a bound, not a forecast)",
}


def _label(key: str) -> str:
    if key == "shipped":
        return f"shipped model ({config.SYSTEM})"
    return RIVALS[key][0] if key in RIVALS else LABELS[key]


def oracle_forecasts(games, diffs: dict) -> list:
    """Forecasts from a known strength difference per game ({game id: side 0 - side 1}) with the
    same game-length ratio every system gets; the slope is fitted afterwards like a rival's."""
    p = config.params_for("nanking")
    return [
        ev.Forecast(
            k,
            g.game_id,
            0.5,
            g.pair_score(0, 1),
            (diffs[g.game_id], length_ratio(g, p.target, p.full_hands)),
            int(g.finished_at // 86400),
        )
        for k, g in enumerate(games)
    ]


def hindsight_diffs(games) -> dict:
    """{game id: strength difference} from skills fitted on EVERY game of the history (the
    shipped filter without drift run to the end, its final means): what a rater that had seen
    the test games' results could know. Not a forecast; used where the true skills are unknown
    (the real history) as the bound a model cannot be expected to beat."""
    m = MarginKalman(replace(config.params_for("nanking"), tau_day=0.0))
    for g in games:
        m.update(g)
    mu = {p: st[0] for p, st in m.state.items()}
    return {g.game_id: sum(mu[p] for p in g.teams[0]) - sum(mu[p] for p in g.teams[1]) for g in games}


def history_forecasts(key: str, games, truth: dict | None = None, candidates: bool = True) -> tuple[dict, dict, dict]:
    """(facts about the history, {system: what it was tuned to}, {system: test forecasts}).
    truth: {game id: the true strength difference} when the generator knows it (the oracle);
    without it the bound is the hindsight fit."""
    games = order_games([g for g in games if g.rated])
    tw, sw = ev.windows(len(games))
    fore: dict[str, list] = {}
    info: dict[str, dict] = {}

    def add(k, forecasts, params=None):
        fore[k] = ev.select(forecasts, sw)
        info[k] = {"params": params or {}, "tune_log_loss": ev.log_loss(ev.select(forecasts, tw))}

    add(
        "shipped",
        ev.prequential(config.model_for("nanking"), games),
        {"drifts": "/".join(f"{t:g}" for t in MIX_DRIFTS), "scales": "/".join(f"{a:g}" for a in MIX_SCALES)},
    )
    for k, (_name, make, grid) in RIVALS.items():
        best = ev.tune(make, grid, games, prob=calibrated, prior=(1.0, PRIOR_LOG_SD))
        add(k, best.forecasts, {**best.params, "slope": best.scale})
    add("constant", ev.prequential(Constant(), games))
    if candidates:
        # not rivals: the candidate of docs/ratings.md §3b item 6 (frozen on the tuning windows
        # before its test figures were first computed) and the model shipped before candidate 2
        # of §3c (now "shipped", config.SYSTEM), as it was
        add(
            "candidate",
            ev.prequential(DriftSelectingKalman(config.params_for("nanking")), games),
            {"drifts": "/".join(f"{t:g}" for t in DRIFTS), "scale": FORECAST_SCALE},
        )
        p = config.params_for("nanking")
        add(
            "previous",
            ev.prequential(previous_model_for("nanking"), games),
            {"tau_day": p.tau_day, "scale": p.prob_scale},
        )
    bound = "oracle" if truth is not None else "hindsight"
    fs = oracle_forecasts(games, truth if truth is not None else hindsight_diffs(games))
    s = ev.fit_scale(ev.select(fs, tw), calibrated)
    add(bound, ev.rescale(fs, calibrated, s), {"slope": s})
    hands = [g.hands for g in games]
    counts: dict = {}
    for g in games:
        for p in g.players:
            counts[p] = counts.get(p, 0) + 1
    meta = {
        "key": key,
        "games": len(games),
        "players": len(counts),
        "games_per_player": [min(counts.values()), max(counts.values())],
        "days": len({int(g.finished_at // 86400) for g in games[sw.start :]}),
        "tune_window": [tw.start, tw.stop],
        "test_window": [sw.start, sw.stop],
        "mean_hands": statistics.mean(hands),
        "bound": bound,
    }
    return meta, info, fore


def summarize(meta: dict, info: dict, fore: dict, boot_reps: int = 2000) -> dict:
    """Every system's test figures, the paired intervals shipped - system and bound - rival
    (the bound: the oracle, or the hindsight fit on the real history), and the verdicts."""
    rows: dict[str, dict] = {}
    for k, test in fore.items():
        rows[k] = {
            "label": _label(k),
            "params": info[k]["params"],
            "tune_log_loss": info[k]["tune_log_loss"],
            "log_loss": ev.log_loss(test),
            "brier": ev.brier(test),
            "accuracy": ev.accuracy(test),
            "calibration_slope": ev.calibration_slope(test),
        }
        if k != "shipped":
            mean, lo, hi = ev.paired_bootstrap(fore["shipped"], test, reps=boot_reps)
            rows[k]["shipped_minus"] = {"mean": mean, "ci95": [lo, hi]}
    bound = meta["bound"]
    for k in RIVALS:
        mean, lo, hi = ev.paired_bootstrap(fore[bound], fore[k], reps=boot_reps)
        rows[k]["bound_minus"] = {"mean": mean, "ci95": [lo, hi]}
    rows["shipped"]["slope_ci95"] = list(ev.slope_interval(fore["shipped"]))
    # the candidates against each rival too (not shipped; the same paired bootstrap)
    against: dict[str, dict] = {}
    for c in CANDIDATES:
        if c in fore:
            against[c] = {}
            for k in RIVALS:
                mean, lo, hi = ev.paired_bootstrap(fore[c], fore[k], reps=boot_reps)
                against[c][k] = {"mean": mean, "ci95": [lo, hi], "verdict": ev.verdict(lo, hi)}
    verdicts = {
        k: {
            "shipped": ev.verdict(*rows[k]["shipped_minus"]["ci95"]),
            "bound": ev.verdict(*rows[k]["bound_minus"]["ci95"]),
        }
        for k in RIVALS
    }
    slope = rows["shipped"]["calibration_slope"]
    return {
        **meta,
        "systems": rows,
        "verdicts": verdicts,
        "candidates_against": against,
        "beats_every_rival": all(v["shipped"] == "better" for v in verdicts.values()),
        "unbeatable": [k for k, v in verdicts.items() if v["bound"] != "better"],
        "slope_in_range": 0.9 <= slope <= 1.1,
    }


def evaluate_history(key: str, label: str, games, truth=None, boot_reps: int = 2000, candidates: bool = True) -> dict:
    t0 = time.perf_counter()
    meta, info, fore = history_forecasts(key, games, truth, candidates)
    return {**summarize(meta, info, fore, boot_reps), "history": label, "seconds": time.perf_counter() - t0}


def _seed_task(task: tuple) -> tuple[int, dict, dict, dict]:
    """One generated history of one seed (a worker process of --seeds)."""
    key, seed, n_games, candidates = task
    if key == "stationary":
        skills, games = synthetic_history(n_games, 40, seed=seed)
        truth = {g.game_id: sum(skills[p] for p in g.teams[0]) - sum(skills[p] for p in g.teams[1]) for g in games}
    else:
        truth = {}
        _, games = club_history(n_games, seed=seed, truth=truth)
    return (seed, *history_forecasts(key, games, truth, candidates))


def pooled(
    key: str, label: str, n_games: int, seeds: list[int], jobs: int, boot_reps: int, candidates: bool = True
) -> dict:
    """The generated history `key` with every seed of `seeds`, pooled: each seed's rivals tuned
    on that seed's own tuning window, the test forecasts of all seeds put together and resampled
    by (seed, day) blocks, so the intervals narrow as the seeds add games."""
    t0 = time.perf_counter()
    tasks = [(key, s, n_games, candidates) for s in seeds]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as ex:
            parts = list(ex.map(_seed_task, tasks))
    else:
        parts = [_seed_task(t) for t in tasks]
    fore: dict[str, list] = {}
    info: dict[str, dict] = {}
    for seed, _meta, inf, fs in parts:
        for k, test in fs.items():
            fore.setdefault(k, []).extend(
                ev.Forecast(f.index, (seed, f.game_id), f.p, f.y, f.x, (seed, f.block)) for f in test
            )
            params = info.setdefault(k, {"params": {}, "tune_log_loss": []})
            params["tune_log_loss"].append(inf[k]["tune_log_loss"])
            for name, v in inf[k]["params"].items():
                params["params"].setdefault(name, []).append(v)
    for v in info.values():
        v["tune_log_loss"] = statistics.mean(v["tune_log_loss"])
        v["params"] = {
            name: "/".join(f"{x:.3g}" if isinstance(x, float) else str(x) for x in vs)
            if len(set(map(str, vs))) > 1
            else vs[0]
            for name, vs in v["params"].items()
        }
    metas = [m for _, m, _, _ in parts]
    meta = {
        "key": key,
        "games": sum(m["games"] for m in metas),
        "players": sum(m["players"] for m in metas),
        "games_per_player": [
            min(m["games_per_player"][0] for m in metas),
            max(m["games_per_player"][1] for m in metas),
        ],
        "days": sum(m["days"] for m in metas),
        "tune_window": metas[0]["tune_window"],
        "test_window": metas[0]["test_window"],
        "mean_hands": statistics.mean(m["mean_hands"] for m in metas),
        "bound": metas[0]["bound"],
        "seeds": seeds,
    }
    return {**summarize(meta, info, fore, boot_reps), "history": label, "seconds": time.perf_counter() - t0}


def fmt_history(r: dict) -> str:
    lo, hi = r["games_per_player"]
    bound = r["bound"]
    bname = "oracle" if bound == "oracle" else "hindsight"
    if r.get("seeds"):
        s = r["seeds"]
        head = (
            f"**{r['history']}, seeds {s[0]}–{s[-1]} pooled**: {len(s)} histories of "
            f"{r['games'] // len(s)} rated games (40 players each, {lo}–{hi} games per player), "
            f"{r['mean_hands']:.1f} hands per game; each seed's tuning games "
            f"{r['tune_window'][0]}–{r['tune_window'][1] - 1}, test games "
            f"{r['test_window'][0]}–{r['test_window'][1] - 1}; {r['days']} (seed, day) blocks"
        )
    else:
        head = (
            f"**{r['history']}**: {r['games']} rated games, {r['players']} players ({lo}–{hi} "
            f"games each), {r['mean_hands']:.1f} hands per game; tuning games "
            f"{r['tune_window'][0]}–{r['tune_window'][1] - 1}, test games "
            f"{r['test_window'][0]}–{r['test_window'][1] - 1} on {r['days']} days"
        )
    lines = [
        head,
        "",
        f"| system | test log loss | shipped − system [95% CI] | {bname} − system [95% CI] "
        "| calibration slope | tuned on the tuning window |",
        "|---|---:|---|---|---:|---|",
    ]
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
        o = row.get("bound_minus")
        od = "" if o is None else f"{o['mean']:+.4f} [{o['ci95'][0]:+.4f}, {o['ci95'][1]:+.4f}]"
        lines.append(f"| {name} | {ll} | {d} | {od} | {slope} | {_params_text(row['params'])} |")
    v = r["verdicts"]

    def names(who: str, word: str) -> str:
        ks = [RIVALS[k][0] for k in RIVALS if v[k][who] == word]
        return ", ".join(ks) if ks else "none"

    slope = r["systems"]["shipped"]["calibration_slope"]
    lines += [
        "",
        "Verdict: "
        + (
            "the shipped model beats every tuned rival (every interval below 0)"
            if r["beats_every_rival"]
            else "the shipped model does NOT beat every tuned rival"
        )
        + f". Shown better than: {names('shipped', 'better')}; not separated from: "
        f"{names('shipped', 'level')}; shown worse than: {names('shipped', 'worse')}. "
        f"Calibration slope {slope:.2f}: {'within' if r['slope_in_range'] else 'outside'} 0.9–1.1. "
        "Issue #19 item 2 on this history: "
        + ("**met**." if r["beats_every_rival"] and r["slope_in_range"] else "**not met**."),
    ]
    if bound == "oracle":
        power = (
            f"Power: the oracle (the true skills) is shown better than: {names('bound', 'better')}; "
            f"not shown better than: {names('bound', 'level')}"
            + (f", shown worse than: {names('bound', 'worse')}" if names("bound", "worse") != "none" else "")
        )
    else:
        power = (
            f"Power (no true skills: the bound is the hindsight fit, which has seen the test "
            f"results): shown better than: {names('bound', 'better')}; not shown better than: "
            f"{names('bound', 'level')}"
            + (f", shown worse than: {names('bound', 'worse')}" if names("bound", "worse") != "none" else "")
        )
    if r["unbeatable"]:
        power += (
            f". **At this size no model can be shown to beat "
            f"{', '.join(RIVALS[k][0] for k in r['unbeatable'])} on this history**: even the "
            f"{bname}'s interval against {'it' if len(r['unbeatable']) == 1 else 'each of them'} contains 0."
        )
    else:
        power += ": the history is large enough to show a model better than every rival."
    lines += ["", power]
    if r["candidates_against"]:
        cs = list(r["candidates_against"])
        lines += [
            "",
            "Paired intervals against each rival (system − rival; negative = the system is "
            "better; **bold**: shown better):",
            "",
            "| rival | shipped | " + " | ".join(LABELS[c].split(":")[0] for c in cs) + f" | {bname} |",
            "|---|---|" + "---|" * len(cs) + "---|",
        ]

        def cell(b: dict) -> str:
            t = f"{b['mean']:+.4f} [{b['ci95'][0]:+.4f}, {b['ci95'][1]:+.4f}]"
            return f"**{t}**" if b["ci95"][1] < 0 else t

        for k in RIVALS:
            row = r["systems"][k]
            lines.append(
                f"| {RIVALS[k][0]} | {cell(row['shipped_minus'])} | "
                + " | ".join(cell(r["candidates_against"][c][k]) for c in cs)
                + f" | {cell(row['bound_minus'])} |"
            )
        for c in cs:
            won = [k for k in RIVALS if r["candidates_against"][c][k]["verdict"] == "better"]
            sl = r["systems"][c]["calibration_slope"]
            lines += [
                "",
                f"{LABELS[c]}: shown better than "
                + ("every rival" if len(won) == len(RIVALS) else (", ".join(RIVALS[k][0] for k in won) or "no rival"))
                + f"; calibration slope {sl:.2f} ({'within' if 0.9 <= sl <= 1.1 else 'outside'} 0.9–1.1).",
            ]
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
        out.append(
            {
                **kw,
                "prob_scale": a,
                "tune_log_loss": loss,
                "per_history": {n: ev.log_loss(ev.rescale(f, probability, a)) for n, f in per.items()},
            }
        )
        print(
            f"{kw} a={a:.3f} pooled tuning log loss {loss:.5f} "
            + " ".join(f"{n}={v:.4f}" for n, v in out[-1]["per_history"].items()),
            flush=True,
        )
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
        before_test += gs[: tw.stop]
        out["hand_variance"][name] = ev.hand_margin_variance(gs[: tw.stop], config.BASE.hand_clip)[0]
    measured = ev.hand_margin_variance(before_test, config.BASE.hand_clip)[0]
    out["hand_variance"]["pooled"] = measured
    print(
        "within-game variance of a hand's clipped margin (games before the test window): "
        + ", ".join(f"{k} {v:.3f}" for k, v in out["hand_variance"].items()),
        flush=True,
    )
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
        row = {
            "kw": kw,
            "prob_scale": a,
            "pooled_log_loss": ev.log_loss(ev.rescale(pooled, probability, a)),
            "per_history": {},
        }
        for name, fs in per.items():
            r = ev.rescale(fs, probability, a)
            full = [f for f in fs if f.x[2] == 1.0]
            short = [f for f in fs if f.x[2] < 1.0]
            row["per_history"][name] = {
                "log_loss": ev.log_loss(r),
                "slope": ev.calibration_slope(r),
                "own_scale": ev.fit_scale(fs, probability, prior=prior),
                "own_scale_full": ev.fit_scale(full, probability, prior=prior) if full else None,
                "own_scale_short": ev.fit_scale(short, probability, prior=prior) if short else None,
                "n_full": len(full),
                "n_short": len(short),
            }
        out["variants"][label] = row
        print(
            f"{label}: a={a:.2f} (natural {prior[0]:.2f}), pooled tuning log loss {row['pooled_log_loss']:.4f}",
            flush=True,
        )
        for name, h in row["per_history"].items():
            sf = "" if h["own_scale_full"] is None else f" (full games {h['own_scale_full']:.2f}, n={h['n_full']})"
            ss_ = "" if h["own_scale_short"] is None else f" (short games {h['own_scale_short']:.2f}, n={h['n_short']})"
            print(
                f"  {name}: log loss {h['log_loss']:.4f}, slope {h['slope']:.2f}, "
                f"own scale {h['own_scale']:.2f}{sf}{ss_}",
                flush=True,
            )
    return out


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


SPEED_TARGET = 1.5  # issue 35 item 5: the league's rating loop at least 1.5x openskill's rate()
OPENSKILL = "openskill PlackettLuce rate()"
LEAGUE_LOOP = "the league's rating loop"  # the recompute's: the predictive model and the Elo table


def speed(games, repeat: int = 5) -> dict:
    """Games per CPU second of each rating loop (time.process_time: this process's own CPU, so
    that other work on a shared machine slows the wall clock, not the figure). The loops take
    turns (round-robin, `repeat` rounds) so that what remains of the machine's load (caches,
    frequency) hits them alike; median, best and worst are reported, and each loop's ratio to
    openskill's rate() in the same round (the median of those ratios)."""
    from openskill.models import PlackettLuce

    from games.ratings.elo import ClubElo

    games = order_games(games)
    bare = [g.__class__(g.game_id, g.finished_at, g.teams, g.scores, g.winner, g.hands, g.variant) for g in games]
    clock = time.process_time

    def loop(make, data):
        def run():
            sysm = make()
            t = clock()
            for g in data:
                sysm.update(g)
            return len(data) / (clock() - t)

        return run

    def many(data, elo: bool = False):
        def run():
            sysm = config.model_for("nanking")
            table = ClubElo()
            t = clock()
            if elo:  # services.recompute_pool's loop: both tables from the same games
                for g, _ in sysm.update_many(data):
                    table.update(g)
            else:
                for _ in sysm.update_many(data):
                    pass
            return len(data) / (clock() - t)

        return run

    few = games[:3000]

    def openskill_run():
        model = PlackettLuce()
        ratings: dict = {}
        t = clock()
        for g in games:
            teams = [[ratings.get(p) or model.rating(name=str(p)) for p in team] for team in g.teams]
            new = model.rate(teams, ranks=list(g.ranks))
            for team, nt in zip(g.teams, new):
                for p, r in zip(team, nt):
                    ratings[p] = r
        return len(games) / (clock() - t)

    loops = {
        # the league's recompute loop (services.recompute_pool): the model's update_many and the
        # Elo table's update, game by game
        f"{LEAGUE_LOOP}: {config.SYSTEM} update_many + club Elo (hand lines)": many(games, elo=True),
        # the shipped model's part of it
        f"shipped {config.SYSTEM} update_many (hand lines)": many(games),
        f"shipped {config.SYSTEM} update_many (final scores only)": many(bare),
        # its incremental path (one finished game: services._sync_game), on the first games only
        f"shipped {config.SYSTEM} update, one game at a time (first {len(few):,})": loop(
            lambda: config.model_for("nanking"), few
        ),
        "margin-kalman/2 update, the previous shipped model (hand lines)": loop(MarginKalman, games),
        "club Elo update (the Elo table alone)": loop(ClubElo, games),
        OPENSKILL: openskill_run,
    }
    rates: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(repeat):
        for k, run in loops.items():
            rates[k].append(run())
    out = {}
    for k, v in rates.items():
        ratios = [a / b for a, b in zip(v, rates[OPENSKILL])]
        out[k] = {
            "median": statistics.median(v),
            "best": max(v),
            "worst": min(v),
            "runs": len(v),
            "ratio_to_openskill": statistics.median(ratios),
            "ratio_worst": min(ratios),
        }
    return out


def db_recompute(n_games: int, seed: int) -> dict:
    """Full recompute of n_games stored games on the database of DATABASE_URL (PostgreSQL for the
    figure in docs/ratings.md): the games are loaded once into a club of their own (not timed),
    then recompute_pool is timed from reading the stored outcomes to the committed tables."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tichu_site.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.ratings_lab.fixtures import load_history
    from games.models import Club
    from games.ratings import services
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
    return {
        "vendor": connection.vendor,
        "games": out["games"],
        "players": out["players"],
        "rating_changes": out["changes"],
        "seconds": runs,
        "python_cpu_seconds": cpu,
        "server_cpu_seconds": server,
        "load_seconds": t_load,
        "loadavg": os.getloadavg(),
    }


BOT_PLAN = {"n_games": 1000, "n_players": 24, "seed": 1, "prefix": 600}


def bot_games(path: Path, regenerate: bool) -> tuple[dict, list]:
    """The engine-bot history: the first `prefix` games of botplay's 1,000-game schedule (seed 1,
    24 bots), played by the engine and stored in bench/data/ (regenerating takes ~30 minutes)."""
    if regenerate or not path.exists():
        from bench.ratings_lab.botplay import play, schedule

        skills, plan = schedule(BOT_PLAN["n_games"], BOT_PLAN["n_players"], BOT_PLAN["seed"])
        jobs = [(gid, t, seats, rs, [skills[p] for p in seats]) for gid, t, seats, rs in plan[: BOT_PLAN["prefix"]]]
        games = [play(j) for j in jobs]
        path.parent.mkdir(parents=True, exist_ok=True)
        write_history(path, skills, games, {"generator": "bench.ratings_lab.botplay.schedule + play", **BOT_PLAN})
    _, skills, games = read_history(path)
    return skills, games


def _diffs(games, skills: dict) -> dict:
    """{game id: true strength difference side 0 - side 1} from fixed per-player skills."""
    return {g.game_id: sum(skills[p] for p in g.teams[0]) - sum(skills[p] for p in g.teams[1]) for g in games}


def load_histories(args) -> list[tuple[str, str, list, dict | None]]:
    """(key, label, games, {game id: true strength difference} or None when unknown)."""
    out = []
    skills, games = synthetic_history(args.games, 40, seed=args.seed)
    out.append(("stationary", STATIONARY, games, _diffs(games, skills)))
    truth: dict = {}
    _, games = club_history(args.drift_games, seed=args.seed, truth=truth)
    out.append(("drifting", DRIFTING, games, truth))
    if Path(args.tracker).exists():
        _, games = load_tracker(args.tracker)
        out.append(("tracker", "tracker (real score sheets)", games, None))
    else:
        print(f"(tracker history not found at {args.tracker})", file=sys.stderr)
    skills, games = bot_games(Path(args.bots), args.regenerate_bots)
    out.append(("bots", "bots (engine bots of different skill, full games)", games, _diffs(games, skills)))
    return out


def write_docs(text: str, path: Path = DOCS, block: str = "ratings") -> None:
    """Replace the block between the bench markers in docs/ratings.md (`block`: "ratings" for
    §6.1, "ratings-pooled" for the pooled seeds of §6.2)."""
    start, end = f"<!-- bench:{block}:start -->", f"<!-- bench:{block}:end -->"
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
    ap.add_argument(
        "--seeds",
        help="pool the generated histories of these seeds, e.g. 1-5 "
        "(bootstrap over (seed, day) blocks; writes docs/ratings.md §6.2)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="processes for --seeds")
    ap.add_argument("--no-candidates", action="store_true", help="leave out the candidate rows")
    ap.add_argument("--boot-reps", type=int, default=2000)
    ap.add_argument("--speed-games", type=int, default=100_000)
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--no-docs", action="store_true", help="do not rewrite docs/ratings.md §6.1")
    ap.add_argument("--tune-shipped", action="store_true")
    ap.add_argument(
        "--diagnose-shipped",
        action="store_true",
        help="tuning-window diagnostics of the shipped model (docs/ratings.md §3b)",
    )
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument(
        "--db-recompute",
        type=int,
        metavar="N",
        help="time a full recompute of N stored games on DATABASE_URL (e.g. 100000)",
    )
    args = ap.parse_args(argv)

    t_start = time.perf_counter()
    results: dict = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "system": config.SYSTEM,
        "shipped": config.BASE.__dict__,
    }
    if args.diagnose_shipped:
        hs = load_histories(args)
        results["diagnose_shipped"] = diagnose_shipped([(k, g) for k, _, g, _ in hs])
    elif args.tune_shipped:
        hs = load_histories(args)
        results["tune_shipped"] = tune_shipped([(k, g) for k, _, g, _ in hs])
    elif args.seeds:
        lo, _, hi = args.seeds.partition("-")
        seeds = list(range(int(lo), int(hi or lo) + 1))
        histories = [
            pooled(k, label, n, seeds, args.jobs, args.boot_reps, not args.no_candidates)
            for k, label, n in (("stationary", STATIONARY, args.games), ("drifting", DRIFTING, args.drift_games))
        ]
        results["histories"] = histories
        uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        text = (
            f"Measured {datetime.date.today().isoformat()} by `.venv/bin/python bench/ratings.py "
            f"--seeds {args.seeds} --jobs {args.jobs} --skip-speed` ({time.perf_counter() - t_start:.0f} s; "
            f"`uptime`: {uptime}). Shipped: `{config.SYSTEM}` as in §6.1. The tracker and bot "
            f"histories do not depend on the seed (§6.1 has them).\n\n" + "\n\n".join(fmt_history(h) for h in histories)
        )
        print(text)
        if not args.no_docs:
            write_docs(text, block="ratings-pooled")
    elif not args.skip_quality:
        histories = [
            evaluate_history(k, label, g, truth, args.boot_reps, not args.no_candidates)
            for k, label, g, truth in load_histories(args)
        ]
        results["histories"] = histories
        uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        seeds = f"seed {args.seed}"
        text = "\n\n".join(fmt_history(h) for h in histories)
        p = config.params_for("nanking")
        stamp = (
            f"Measured {datetime.date.today().isoformat()} by `.venv/bin/python bench/ratings.py` "
            f"({seeds}; {time.perf_counter() - t_start:.0f} s; `uptime`: {uptime}). Shipped: "
            f"`{config.SYSTEM}` ({len(MIX_DRIFTS)} filters, day drifts {'/'.join(f'{t:g}' for t in MIX_DRIFTS)}, "
            f"prior_var={p.prior_var}, full-game scales {'/'.join(f'{a:g}' for a in MIX_SCALES)} "
            f"for a full game of {p.full_hands:g} hands, weighted per pool by their earlier games), "
            f"scaled by √(hands/{p.full_hands:g}) for a game stopped before {p.target:g}. "
            f"Previous shipped model: `{PREVIOUS_SYSTEM}`, tau_day={p.tau_day}, "
            f"prob_scale={p.prob_scale}."
        )
        text = stamp + "\n\n" + text
        print(text)
        print()
        if not args.no_docs:
            write_docs(text)
    if not args.skip_speed:
        _, games = synthetic_history(args.speed_games, 1000, seed=args.seed + 1)
        sp = speed(games)
        results["speed"] = {"games": len(games), **sp}
        print(
            f"### Rating loop speed, {len(games)} generated 2v2 games (games per CPU second; `uptime`: {_uptime()})\n"
        )
        print(
            "| loop | median | best | worst | runs | × openskill (median of rounds) | worst round |\n"
            "|---|---:|---:|---:|---:|---:|---:|"
        )
        for k, v in sp.items():
            print(
                f"| {k} | {v['median']:,.0f} | {v['best']:,.0f} | {v['worst']:,.0f} | {v['runs']} | "
                f"{v['ratio_to_openskill']:.2f}× | {v['ratio_worst']:.2f}× |"
            )
        league = next(v for k, v in sp.items() if k.startswith(LEAGUE_LOOP))
        met = league["ratio_to_openskill"] >= SPEED_TARGET
        print(
            f"\n{LEAGUE_LOOP} against openskill's rate(): {league['ratio_to_openskill']:.2f}× by the median of "
            f"{league['runs']} rounds (worst round {league['ratio_worst']:.2f}×); target {SPEED_TARGET:.1f}× "
            f"(issue 35 item 5): **{'met' if met else 'not met'}**."
        )
    if args.db_recompute:
        r = db_recompute(args.db_recompute, args.seed + 2)
        results["db_recompute"] = r
        print(
            f"\n### Full recompute from the database ({r['vendor']}): {r['games']} games, "
            f"{r['players']} players, {r['rating_changes']} rating-change rows written\n"
        )
        print(
            "runs, wall (s): "
            + ", ".join(f"{x:.1f}" for x in r["seconds"])
            + "; Python CPU of the same runs (s): "
            + ", ".join(f"{x:.1f}" for x in r["python_cpu_seconds"])
            + "; PostgreSQL backend CPU (s): "
            + ", ".join("?" if x is None else f"{x:.1f}" for x in r["server_cpu_seconds"])
            + f"; load average {r['loadavg'][0]:.1f}"
            + (f"; loading the games (not timed): {r['load_seconds']:.0f} s" if r["load_seconds"] else "")
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
