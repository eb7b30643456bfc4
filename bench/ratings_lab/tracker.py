"""Parse the Tichu-Tracker score-sheet export (tichu_schema.json) into GameResults.

Seats 0..3 in `players`; partners are seats 0+2 (team 0) and 1+3 (team 1). A game that was
abandoned with no hand played is kept (so ids line up) but has hands = 0 and is not rated.
The winner of an unfinished game (most stop before 1000: casual lunch games) is the side ahead
when the sheet stopped.
"""

from __future__ import annotations

import json
from pathlib import Path

from games.ratings.types import GameResult, HandDetail


def parse_tracker(data: dict) -> tuple[dict[int, str], list[GameResult]]:
    names = {int(p["id"]): p["name"] for p in data.get("players", [])}
    out = []
    for g in data["games"]:
        seats = [int(x) for x in g["players"]]
        teams = ((seats[0], seats[2]), (seats[1], seats[3]))
        a, b = float(g["team1Score"]), float(g["team2Score"])
        details = []
        for h in g.get("hands", []):
            first = h.get("outFirst")
            tichu = tuple((seats[s], first == s) for s in range(4) if h.get(f"tichuCall{s}"))
            grand = tuple((seats[s], first == s) for s in range(4) if h.get(f"grandTichuCall{s}"))
            dv = None
            if h.get("cardScore0") == 200 and h.get("cardScore1") == 0:
                dv = 0
            elif h.get("cardScore1") == 200 and h.get("cardScore0") == 0:
                dv = 1
            details.append(HandDetail((float(h["totalScore0"]), float(h["totalScore1"])), tichu, grand, dv))
        winner = 0 if a > b else 1 if b > a else None
        out.append(
            GameResult(
                game_id=int(g["id"]),
                finished_at=float(g["creationDateTime"]),
                teams=teams,
                scores=(a, b),
                winner=winner,
                hands=len(details),
                variant="nanking",
                hand_details=tuple(details),
            )
        )
    return names, out


def load_tracker(path: str | Path) -> tuple[dict[int, str], list[GameResult]]:
    with open(path, encoding="utf-8") as fh:
        return parse_tracker(json.load(fh))
