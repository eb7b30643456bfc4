"""docs/tournament.md stays true: its example record folds, its error table lists every code."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.tournament import CODES, EVENT_TYPES, fold, standings_json

DOC = (Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text()


def test_the_example_record_folds():
    block = DOC.split("## Record format", 1)[1]
    record = json.loads(re.search(r"```json\n(.*?)```", block, re.S).group(1))
    state = fold(record)
    assert state.finished
    rows = {r["entry"]: r for r in standings_json(state)["standings"]}
    # the corrected score 215:405 stands; p2's adjustment of -1 VP from its 2
    assert (rows["p1"]["points"], rows["p2"]["points"]) == (215, 405)
    assert rows["p2"]["vp"] == 1 and rows["p2"]["adjustments"] == {"vp": -1, "points": 0}
    assert rows["p3"]["byes"] == 1 and rows["p3"]["vp"] == 2


def test_every_code_and_event_is_documented():
    for code in CODES:
        assert f"| `{code}` |" in DOC
    for event in EVENT_TYPES:
        assert f"| `{event}` |" in DOC
