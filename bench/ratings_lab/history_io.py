"""GameResults to and from a gzipped JSON file: the bench keeps the engine-bot history in the
repository (bench/data/), because playing 1,000 full games through the engine takes half an hour
on the shared machine and the bench must finish in minutes. `bench/ratings.py --regenerate-bots`
plays it again (bench/ratings_lab/botplay.py, deterministic for a seed) and rewrites the file.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from games.ratings.types import GameResult, HandDetail


def game_to_json(g: GameResult) -> dict:
    return {
        "id": g.game_id,
        "t": g.finished_at,
        "teams": [list(t) for t in g.teams],
        "scores": list(g.scores) if g.scores is not None else None,
        "winner": g.winner,
        "hands": g.hands,
        "variant": g.variant,
        "ranks": list(g.ranks or ()),
        "lines": [
            [list(h.points), [list(x) for x in h.tichu], [list(x) for x in h.grand_tichu], h.double_victory]
            for h in g.hand_details
        ],
    }


def game_from_json(d: dict) -> GameResult:
    return GameResult(
        game_id=d["id"],
        finished_at=d["t"],
        teams=tuple(tuple(t) for t in d["teams"]),
        scores=tuple(d["scores"]) if d["scores"] is not None else None,
        winner=d["winner"],
        hands=d["hands"],
        variant=d["variant"],
        ranks=tuple(d["ranks"]),
        hand_details=tuple(
            HandDetail(tuple(p), tuple((a, b) for a, b in tc), tuple((a, b) for a, b in gt), dv)
            for p, tc, gt, dv in d["lines"]
        ),
    )


def write_history(path: str | Path, skills: dict, games: list[GameResult], meta: dict) -> None:
    doc = {"meta": meta, "skills": {str(k): v for k, v in skills.items()}, "games": [game_to_json(g) for g in games]}
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump(doc, fh, separators=(",", ":"))


def read_history(path: str | Path) -> tuple[dict, dict[int, float], list[GameResult]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        doc = json.load(fh)
    return doc["meta"], {int(k): v for k, v in doc["skills"].items()}, [game_from_json(d) for d in doc["games"]]
