"""Performance rating per entry for one event (pure; the ratings come from the caller).

An entry's performance rating is the rating R at which its results in the event are exactly what
the Elo expectation predicts against the opponents it met:

    sum over its tables i of E(side_i(R), opp_i) = S,   E(a, b) = 1 / (1 + 10 ** ((b - a) / 400))

where S counts 1 for a table won, 1/2 drawn, 0 lost (won = more VP than the other side, or more
Tichu points under a preset without VP), opp_i is the mean rating of the opposing side's players,
and side_i(R) is R for a pair (the pair's rating is the mean of its players, as the club's Elo
table takes a side's strength) or (R + partner_i) / 2 for an individual with that round's partner.
Byes, missed rounds and tables without a result take no part. E rises with R, so the root is
unique; it is searched by bisection in opp +- 800 (pairs; +- 1600 for individuals, whose R counts
half of the side): a perfect score gets the top of that range and a zero score the bottom (FIDE's
convention that 100 % is worth 800 above the opponents). docs/tournament.md, "Performance rating".

What a tournament shows (`performance`) is that root **bounded as rating tables are**: never more
than 800 from the opponents' mean rating (FIDE's table of dp tops out at +-800 for 100 % / 0 %),
individuals included (their root may reach +-1600, since R is half of the side: one won round
beside a weak partner read 3100), and **only once the entry has played `MIN_TABLES` tables**:
after one round a single won table is +800 whatever happened, which says nothing about the entry.
"""

from __future__ import annotations

from typing import Any

from .state import TournamentState

SPREAD = 800.0  # a perfect score: the opponents' mean + 800 (FIDE's dp for 100 %)
ITERATIONS = 60
BOUND = 800.0  # what a tournament shows: at most this far from the opponents' mean (FIDE's dp range)
MIN_TABLES = 3  # tables with a result an entry plays before its performance is shown


def expected(a: float, b: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((b - a) / 400.0))


def performance_rating(games: list[tuple[float, float | None, float]]) -> float:
    """R with sum E(side(R), opp) = score; games are (opponents' rating, partner's rating or None,
    score 1 / 0.5 / 0). The one formula: the tournament standings use it through `performance`,
    the league's evenings (games.ratings.performance) directly."""
    score = sum(g[2] for g in games)
    opp_mean = sum(g[0] for g in games) / len(games)
    spread = SPREAD * (2 if any(g[1] is not None for g in games) else 1)
    lo, hi = opp_mean - spread, opp_mean + spread

    def side(r: float, partner: float | None) -> float:
        return r if partner is None else (r + partner) / 2

    def total(r: float) -> float:
        return sum(expected(side(r, p), o) for o, p, _s in games)

    if score <= total(lo):
        return lo
    if score >= total(hi):
        return hi
    for _ in range(ITERATIONS):
        mid = (lo + hi) / 2
        if total(mid) < score:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def bounded_performance(games: list[tuple[float, float | None, float]]) -> tuple[float | None, str]:
    """(the performance a tournament shows, "max" / "min" when it is the bound, else ""): None
    before `MIN_TABLES` tables; else the root clamped to the opponents' mean +- `BOUND`."""
    if len(games) < MIN_TABLES:
        return None, ""
    opp_mean = sum(g[0] for g in games) / len(games)
    r = performance_rating(games)
    if r >= opp_mean + BOUND:
        return opp_mean + BOUND, "max"
    if r <= opp_mean - BOUND:
        return opp_mean - BOUND, "min"
    return r, ""


def _outcome(state: TournamentState, table: Any, vps: tuple[float, float]) -> tuple[float, float]:
    a, b = vps
    if state.preset.unit == "none":
        a, b = table.result["score"]
    return (1.0, 0.0) if a > b else (0.0, 1.0) if a < b else (0.5, 0.5)


def performance(
    state: TournamentState,
    ratings: dict[Any, float],
    default: float = 1500.0,
) -> dict[str, dict[str, Any]]:
    """{entry: {"performance": R rounded to 0.1 or None, "bound": "max" / "min" / "", "tables": n,
    "score": S, "opponents": mean opponent rating or None}}: R as `bounded_performance` shows it
    (None before `MIN_TABLES` tables with a result). `ratings` maps a player (as the entries name them) to the
    rating before the event; a player without one counts `default` (a newcomer's start). A table
    is won on its VP (matchpoints in a duplicate event)."""
    from .standings import table_scores

    def rating(entry_id: str) -> float:
        players = state.entries[entry_id].players
        return sum(ratings.get(p, default) for p in players) / len(players)

    games: dict[str, list[tuple[float, float | None, float]]] = {e: [] for e in state.entries}
    for rnd in state.rounds:
        scores = table_scores(state, rnd)
        for table in rnd.tables.values():
            if table.result is None:
                continue
            outcome = _outcome(state, table, scores[table.number])
            for s, side in enumerate(table.sides):
                opp = sum(rating(e) for e in table.sides[1 - s]) / len(table.sides[1 - s])
                for e in side:
                    partners = [p for p in side if p != e]
                    partner = sum(rating(p) for p in partners) / len(partners) if partners else None
                    games[e].append((opp, partner, outcome[s]))
    out = {}
    for e, rows in games.items():
        shown, bound = bounded_performance(rows)
        out[e] = {
            "performance": round(shown, 1) if shown is not None else None,
            "bound": bound,
            "tables": len(rows),
            "score": sum(r[2] for r in rows),
            "opponents": round(sum(r[0] for r in rows) / len(rows), 1) if rows else None,
        }
    return out
