"""Games for the fault tests: short score-sheet games (hand_result events) with varied players
and winners, so that the league depends on the order in which games are rated."""

from __future__ import annotations

import random

import psycopg

from tests.api.helpers import grand_double

ROSTER = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
LEVEL = [grand_double(0), grand_double(1), grand_double(0), grand_double(1)]  # 800:800


def players(rng: random.Random) -> list[str]:
    return rng.sample(ROSTER, 4)


def finish(rng: random.Random) -> dict:
    """The hand that ends a levelled game: a Grand Tichu double victory for either team."""
    return grand_double(rng.choice((0, 1)))


def record(rng: random.Random) -> dict:
    return {"format": "tichu-record/1", "variant": "nanking", "players": players(rng), "events": LEVEL + [finish(rng)]}


def rated_games(stack, club: int) -> int:
    """Games of the club with rating changes, read straight from the database (fast polling)."""
    with psycopg.connect(stack.pg.url("tichu"), connect_timeout=2) as conn:
        return conn.execute(
            "SELECT count(DISTINCT game_id) FROM games_ratingchange WHERE club_id = %s", [club]
        ).fetchone()[0]


def import_games(stack, club: int, token: str, n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    ids = []
    for _ in range(n):
        status, body, _ = stack.request("POST", f"/api/games/import/?club={club}", record(rng), token)
        assert status == 201, body
        ids.append(body["id"])
    return ids
