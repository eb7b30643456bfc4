"""A synthetic club history with known player strengths (seeded, deterministic).

Used by the bench and the tests where the engine's bot games would be too slow. Score-sheet
arithmetic follows Nanking: each hand either a double victory (200 to one side) or card points
summing to 100, plus +-100 per Tichu and +-200 per Grand Tichu call; the game ends at the end of
a hand once a side is at 1000 or more and ahead. A player's hidden strength shifts the card
points, the chance of a double victory and the chance that their calls succeed. None of these
shapes is Gaussian (double victories and failed Grand Tichus make heavy tails), so the margin
model is not flattered by its own assumptions.
"""
from __future__ import annotations

import math
import random

from .types import GameResult, HandDetail


def _sig(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def play_hand(rng: random.Random, skills: list[float], seats: list[int]) -> HandDetail:
    """One hand between seats (0,2) and (1,3); skills indexed by seat (logit units)."""
    diff = skills[0] + skills[2] - skills[1] - skills[3]
    pts = [0.0, 0.0]
    first_team = 0 if rng.random() < _sig(1.2 * diff) else 1
    dv = None
    if rng.random() < 0.2:
        dv = first_team
        pts[dv] += 200
    else:
        a = 50 + 20 * diff + rng.gauss(0, 28)
        a = max(-25, min(125, 5 * round(a / 5)))
        pts[0] += a
        pts[1] += 100 - a
    # the first player out is one of the first team's players, the stronger more often
    pa, pb = (0, 2) if first_team == 0 else (1, 3)
    first_seat = pa if rng.random() < _sig(2.0 * (skills[pa] - skills[pb])) else pb
    tichu, grand = [], []
    for s in range(4):
        team = s % 2
        if rng.random() < 0.04:
            made = first_seat == s
            pts[team] += 200 if made else -200
            grand.append((seats[s], made))
        elif rng.random() < 0.3 and (first_seat == s or rng.random() < 0.45):
            made = first_seat == s
            pts[team] += 100 if made else -100
            tichu.append((seats[s], made))
    return HandDetail((pts[0], pts[1]), tuple(tichu), tuple(grand), dv)


def synthetic_history(n_games: int = 3000, n_players: int = 40, seed: int = 1,
                      skill_sd: float = 0.15, target: int = 1000, drift_sd: float = 0.0,
                      start: float = 1.6e9) -> tuple[dict[int, float], list[GameResult]]:
    """(true skills, games). Players have uneven activity (some regulars, some newcomers who
    join later), so the history mixes provisional and established ratings."""
    rng = random.Random(seed)
    skills = {p: rng.gauss(0.0, skill_sd) for p in range(n_players)}
    activity = {p: rng.paretovariate(1.5) for p in range(n_players)}
    joins = {p: (0 if p < max(4, n_players // 2) else rng.randrange(n_games)) for p in range(n_players)}
    games = []
    t = start
    by_join = sorted(range(n_players), key=lambda p: (joins[p], p))
    pool: list[int] = []
    cum: list[float] = []
    nxt = 0
    for gid in range(n_games):
        t += rng.uniform(0.2, 3.0) * 86400.0
        while nxt < n_players and joins[by_join[nxt]] <= gid:  # players who have joined by now
            p = by_join[nxt]
            pool.append(p)
            cum.append((cum[-1] if cum else 0.0) + activity[p])
            nxt += 1
        chosen: list[int] = []
        while len(chosen) < 4:  # activity-weighted, without repeating a player
            p = rng.choices(pool, cum_weights=cum)[0]
            if p not in chosen:
                chosen.append(p)
        sk = [skills[p] for p in chosen]
        totals = [0.0, 0.0]
        hands = []
        while True:
            h = play_hand(rng, sk, chosen)
            hands.append(h)
            totals[0] += h.points[0]
            totals[1] += h.points[1]
            if max(totals) >= target and totals[0] != totals[1]:
                break
        if drift_sd:
            for p in skills:
                skills[p] += rng.gauss(0.0, drift_sd)
        games.append(GameResult(
            game_id=gid, finished_at=t, teams=((chosen[0], chosen[2]), (chosen[1], chosen[3])),
            scores=tuple(totals), winner=0 if totals[0] > totals[1] else 1, hands=len(hands),
            variant="nanking", hand_details=tuple(hands)))
    return skills, games
