"""A DTM evening end to end with real games: 8 individuals, 3 rounds of 4 hands, every table a
game played by the engine's bot under the preset's options, its score sheet turned into the
result; standings checked against the hands."""

from __future__ import annotations

from collections import Counter

from games.engine import fold as fold_game
from games.engine import random_game, score_json
from games.tournament import engine_options, fold, hand_lines, propose, standings_json

from .play import register


def test_dtm_evening_with_engine_games():
    header = {"entrants": "individuals", "system": "individual", "scoring": "dtm", "rounds": 3, "seed": 11}
    record = {"header": header, "events": register(8, "individuals")}
    options = engine_options(fold(record).header)
    expected_vp, expected_points = Counter(), Counter()
    doubles = 0
    game_id = 100
    for r in range(1, 4):
        pairing = propose(fold(record))
        record["events"].append(pairing.event())
        for t in pairing.tables:
            (a, c), (b, d) = t["sides"]
            game_id += 1
            game = random_game(game_id, options=options, players=[a, b, c, d])  # seats 0, 2 are side 0
            score = score_json(fold_game(game))
            assert score["complete"] and len(score["hands"]) == 4
            assert all("grand_tichu" not in h["calls"].values() for h in score["hands"])
            lines = hand_lines(score)
            record["events"].append(
                {"type": "result_recorded", "round": r, "table": t["table"], "game": game_id, "hands": lines}
            )
            for hand, line in zip(score["hands"], lines):
                p0, p1 = line["points"]
                if line["double_victory"] is not None:
                    doubles += 1
                    winner = line["double_victory"]
                    assert hand["card_points"][winner] == 100, "a double victory is worth 100"
                    vp = (3, 0) if winner == 0 else (0, 3)
                else:
                    vp = (2, 0) if p0 > p1 else (0, 2) if p1 > p0 else (1, 1)
                for side, players in enumerate(((a, c), (b, d))):
                    for p in players:
                        expected_vp[p] += vp[side]
                        expected_points[p] += line["points"][side]
        record["events"].append({"type": "round_closed", "round": r})
    assert doubles > 0, "the seed gives at least one double victory"
    rows = standings_json(fold(record))["standings"]
    assert {row["entry"]: row["vp"] for row in rows} == dict(expected_vp)
    assert {row["entry"]: row["points"] for row in rows} == dict(expected_points)
    ordered = [(row["vp"], row["points"]) for row in rows]
    assert ordered == sorted(ordered, reverse=True), "VP first, then Tichu points"
    partners = Counter(frozenset(s) for rnd in fold(record).rounds for t in rnd.tables.values() for s in t.sides)
    assert max(partners.values()) == 1, "a new partner each round (Wh(8))"
