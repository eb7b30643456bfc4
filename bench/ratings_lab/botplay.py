"""A generated club history: bots of different skill playing full Nanking games in the engine.

A bot of skill s in [0, 1] takes each decision with the engine's greedy heuristic player with
probability s and with the random legal player otherwise (games.engine.greedy_policy /
random_policy over the engine's legal actions). Calls, shuffles and pushes come from the
engine's seeded bot driver. Every game is folded by the engine and turned into a GameResult
from its score sheet (adapters.result_from_score), exactly as the service does, so the ratings
see real folded scores: hands, calls, double victories.

Seeded and deterministic: the same (n_games, n_players, seed) gives the same history, whether it
is generated in one process or several.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

from games.engine import fold, greedy_policy, random_policy, random_record, score_json
from games.ratings.adapters import result_from_score
from games.ratings.types import GameResult


class SkilledPolicy:
    """Greedy with probability `skill`, random otherwise (picklable)."""

    def __init__(self, skill: float):
        self.skill = skill

    def __call__(self, state, seat, options, rng):
        if rng.random() < self.skill:
            return greedy_policy(state, seat, options, rng)
        return random_policy(state, seat, options, rng)


def schedule(
    n_games: int, n_players: int, seed: int, skill_mean: float = 0.5, skill_sd: float = 0.1
) -> tuple[dict[int, float], list[tuple[int, float, list[int], int]]]:
    """(skills, [(game id, finished_at, four players in seat order, record seed)])."""
    rng = random.Random(seed)
    skills = {p: min(0.95, max(0.05, rng.gauss(skill_mean, skill_sd))) for p in range(n_players)}
    activity = {p: rng.paretovariate(1.5) for p in range(n_players)}
    joins = {p: (0 if p < n_players // 2 else rng.randrange(n_games)) for p in range(n_players)}
    t = 1.6e9
    out = []
    for gid in range(n_games):
        t += rng.uniform(0.2, 3.0) * 86400.0
        pool = [p for p in range(n_players) if joins[p] <= gid]
        chosen: list[int] = []
        while len(chosen) < 4:
            cands = [p for p in pool if p not in chosen]
            chosen.append(rng.choices(cands, [activity[p] for p in cands])[0])
        out.append((gid, t, chosen, rng.randrange(2**31)))
    return skills, out


def play(args: tuple[int, float, list[int], int, list[float]]) -> GameResult:
    gid, t, seats, record_seed, seat_skills = args
    record = random_record(
        record_seed, players=[f"p{p}" for p in seats], policies=[SkilledPolicy(s) for s in seat_skills]
    )
    return result_from_score(gid, t, "nanking", seats, score_json(fold(record)))


def bot_history(
    n_games: int = 1000, n_players: int = 24, seed: int = 1, processes: int = 2, skill_sd: float = 0.1
) -> tuple[dict[int, float], list[GameResult]]:
    skills, plan = schedule(n_games, n_players, seed, skill_sd=skill_sd)
    jobs = [(gid, t, seats, rs, [skills[p] for p in seats]) for gid, t, seats, rs in plan]
    if processes > 1:
        with ProcessPoolExecutor(processes) as ex:
            games = list(ex.map(play, jobs, chunksize=16))
    else:
        games = [play(j) for j in jobs]
    return skills, games
