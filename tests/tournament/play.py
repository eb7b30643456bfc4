"""Helpers: play a tournament through its events with seeded random results."""

from __future__ import annotations

import copy
import random
from typing import Any

from games.tournament import engine_options, fold, propose


def header(**kw: Any) -> dict[str, Any]:
    base = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 4, "seed": 7}
    base.update(kw)
    return base


def register(n: int, entrants: str = "pairs") -> list[dict[str, Any]]:
    if entrants == "pairs":
        return [{"type": "entry_registered", "entry": f"e{i}", "players": [f"A{i}", f"B{i}"]} for i in range(n)]
    return [{"type": "entry_registered", "entry": f"e{i}", "players": [f"P{i}"]} for i in range(n)]


def random_result(rng: random.Random, hands: int, double_victory: int = 200) -> list[dict[str, Any]]:
    """Hand lines a deal can end with: card points with a Tichu won or lost, or a double victory
    worth ``double_victory`` (the tournament's engine option)."""
    lines = []
    for _ in range(hands):
        if rng.random() < 0.08:
            side = rng.randrange(2)
            pts = [double_victory, 0] if side == 0 else [0, double_victory]
            lines.append({"points": pts, "double_victory": side})
        else:
            a = rng.randrange(-25, 126, 5)
            bonus = rng.choice([0, 0, 0, 100, -100])
            lines.append({"points": [a + bonus, 100 - a], "double_victory": None})
    return lines


def play_round(record: dict[str, Any], rng: random.Random, close: bool = True) -> dict[str, Any]:
    """Append the proposed pairing of the next round, a result for every table, and the close."""
    state = fold(record)
    pairing = propose(state)
    record["events"].append(pairing.event())
    hands = state.header["hands_per_round"] or 4
    worth = engine_options(state.header).get("double_victory_points") or 200
    for t in pairing.tables:
        record["events"].append(
            {
                "type": "result_recorded",
                "round": pairing.round,
                "table": t["table"],
                "hands": random_result(rng, hands, worth),
            }
        )
    if close:
        record["events"].append({"type": "round_closed", "round": pairing.round})
    return record


def tournament(n: int, rounds: int, seed: int = 0, played: int | None = None, **kw: Any) -> dict[str, Any]:
    """``n`` entries, ``rounds`` announced, the first ``played`` (all by default) paired, played, closed."""
    h = header(rounds=rounds, **kw)
    record = {"header": h, "events": register(n, h.get("entrants", "pairs"))}
    rng = random.Random(seed)
    for _ in range(rounds if played is None else played):
        play_round(record, rng)
    return record


def with_events(record: dict[str, Any], *events: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["events"].extend(events)
    return out
