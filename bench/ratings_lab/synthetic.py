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

from games import engine
from games.ratings.types import GameResult, HandDetail

#: the score that ends a Tichu game (the engine's), where the synthetic games stop
TARGET = engine.game_info("nanking").target or 0


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


def synthetic_history(
    n_games: int = 3000,
    n_players: int = 40,
    seed: int = 1,
    skill_sd: float = 0.15,
    target: int = TARGET,
    drift_sd: float = 0.0,
    start: float = 1.6e9,
) -> tuple[dict[int, float], list[GameResult]]:
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
        games.append(
            GameResult(
                game_id=gid,
                finished_at=t,
                teams=((chosen[0], chosen[2]), (chosen[1], chosen[3])),
                scores=tuple(totals),
                winner=0 if totals[0] > totals[1] else 1,
                hands=len(hands),
                variant="nanking",
                hand_details=tuple(hands),
            )
        )
    return skills, games


def club_history(
    n_games: int = 3000,
    n_players: int = 40,
    seed: int = 1,
    skill_sd: float = 0.15,
    day_drift_sd: float = 0.006,
    late_share: float = 0.4,
    learn_gap: float = 0.3,
    learn_games: float = 60.0,
    synergy_share: float = 0.3,
    synergy_sd: float = 0.12,
    stop_share: float = 0.3,
    stop_hands: tuple[int, int] = (3, 8),
    target: int = TARGET,
    start: float = 1.6e9,
    truth: dict | None = None,
) -> tuple[dict[int, float], list[GameResult]]:
    """A drifting club history: what the review (issue #19) tested the ratings on.

    * Evenings: a club night every 1-6 days (two a week on average); 4 to 8 players come, each
      with their own attendance rate (a heavy-tailed spread, so a regular plays hundreds of games
      and an occasional guest a handful), and play 2-5 games with rotating partners (each game
      seats the four who have played least tonight, partnered in the pairing used least tonight).
    * Newcomers: the first 60% of the players are there from the start, the others (late_share)
      join at a random evening in the first 90% of the history and come to every evening until
      they have 5 games (no player has fewer than 5).
    * Drift: every player's skill takes a random walk, N(0, day_drift_sd^2) per elapsed day.
    * Late joiners improve: a late joiner's skill is their eventual skill minus
      learn_gap * exp(-games / learn_games): they start weaker and catch up over ~100 games.
    * Partner synergy: a share of all pairs (synergy_share) plays better or worse together than
      apart: their side's skill gets a bonus N(0, synergy_sd^2) whenever they are partners.
    * Short games: a share of games (stop_share) stops after 3 to 8 hands (uniform), before the
      target, as a lunch game or a late evening does; the rest are played to the target.

    Skills are in the units of play_hand (logit-like; 0.15 is a clear but not dominant gap).
    Returns (skills at the end, games); deterministic for a seed. `truth`, when given a dict, is
    filled with {game id: the true strength difference side 0 - side 1 of that game} (each
    side's current skills, the late joiners' learning and the pair's synergy included: the
    difference play_hand played with), for the bench's oracle; it draws no random number, so the
    games are the same with or without it.
    """
    rng = random.Random(seed)
    base = {p: rng.gauss(0.0, skill_sd) for p in range(n_players)}
    attend = {p: min(0.95, 0.02 + 0.9 * rng.random() ** 3) for p in range(n_players)}
    n_late = int(round(late_share * n_players))
    n_evenings_guess = max(1, int(n_games / 3.5))  # 2-5 games an evening
    joins = {p: 0 if p < n_players - n_late else rng.randrange(int(0.9 * n_evenings_guess)) for p in range(n_players)}
    synergy: dict[tuple[int, int], float] = {}
    for a in range(n_players):
        for b in range(a + 1, n_players):
            if rng.random() < synergy_share:
                synergy[(a, b)] = rng.gauss(0.0, synergy_sd)
    late = {p for p in range(n_players) if joins[p] > 0}
    played = {p: 0 for p in range(n_players)}
    drift = {p: 0.0 for p in range(n_players)}

    def skill(p: int) -> float:
        s = base[p] + drift[p]
        if p in late:
            s -= learn_gap * math.exp(-played[p] / learn_games)
        return s

    games: list[GameResult] = []
    day = 0
    evening = 0
    while len(games) < n_games:
        gap = rng.randint(1, 6)
        day += gap
        for p in drift:
            drift[p] += rng.gauss(0.0, day_drift_sd * math.sqrt(gap))
        present = [p for p in range(n_players) if joins[p] <= evening]
        keen = [p for p in present if played[p] < 5]
        came = [p for p in present if p not in keen and rng.random() < attend[p]]
        rng.shuffle(came)
        tonight = (keen + came)[:8]
        while len(tonight) < 4:  # too few came: the keenest of the others are phoned
            rest = [p for p in present if p not in tonight]
            tonight.append(max(rest, key=lambda p: (attend[p], -p)))
        evening += 1
        seen_pairs: dict[tuple[int, int], int] = {}
        tonight_games = {p: 0 for p in tonight}
        for k in range(rng.randint(2, 5)):
            if len(games) >= n_games:
                break
            four = sorted(tonight, key=lambda p: (tonight_games[p], rng.random()))[:4]
            a, b, c, d = four
            options = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
            rng.shuffle(options)
            t0, t1 = min(
                options, key=lambda o: seen_pairs.get(tuple(sorted(o[0])), 0) + seen_pairs.get(tuple(sorted(o[1])), 0)
            )
            for pair in (t0, t1):
                key = (min(pair), max(pair))
                seen_pairs[key] = seen_pairs.get(key, 0) + 1
            seats = [t0[0], t1[0], t0[1], t1[1]]
            sk = [skill(p) for p in seats]
            for team, pair in ((0, t0), (1, t1)):
                bonus = synergy.get((min(pair), max(pair)), 0.0) / 2.0
                sk[team] += bonus
                sk[team + 2] += bonus
            if truth is not None:
                truth[len(games)] = sk[0] + sk[2] - sk[1] - sk[3]
            stop_after = rng.randint(*stop_hands) if rng.random() < stop_share else None
            totals = [0.0, 0.0]
            hands = []
            while True:
                h = play_hand(rng, sk, seats)
                hands.append(h)
                totals[0] += h.points[0]
                totals[1] += h.points[1]
                if max(totals) >= target and totals[0] != totals[1]:
                    break
                if stop_after is not None and len(hands) >= stop_after and max(totals) < target:
                    break
            for p in seats:
                played[p] += 1
                tonight_games[p] += 1
            t = start + day * 86400.0 + 19 * 3600.0 + k * 2400.0
            winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None
            games.append(
                GameResult(
                    game_id=len(games),
                    finished_at=t,
                    teams=(t0, t1),
                    scores=tuple(totals),
                    winner=winner,
                    hands=len(hands),
                    variant="nanking",
                    hand_details=tuple(hands),
                )
            )
    return {p: skill(p) for p in range(n_players)}, games
