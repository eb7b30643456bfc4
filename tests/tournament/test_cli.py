"""``python -m games.tournament``: JSON out, exit 0 / 1 (refused) / 2 (malformed), coded errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.tournament import fold, propose, standings_json

from .play import tournament, with_events

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    result = subprocess.run([sys.executable, "-m", "games.tournament", *args], cwd=ROOT, input=stdin,
                            capture_output=True, text=True)
    return result.returncode, json.loads(result.stdout)


def test_standings_at_n_and_pair(tmp_path):
    record = tournament(5, 3, seed=4, played=2)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    code, out = run("standings", str(path))
    assert code == 0 and out == json.loads(json.dumps(standings_json(fold(record))))
    code, out = run("standings", "-", "--at", "9", stdin=path.read_text())
    assert code == 0 and out == json.loads(json.dumps(standings_json(fold(record, 9))))
    assert out["events"] == 9
    code, out = run("pair", str(path))
    assert code == 0 and out["event"] == json.loads(json.dumps(propose(fold(record)).event()))
    code, out = run("crosstable", str(path))
    assert code == 0 and len(out["crosstable"]) == 5


def test_refused_event_exits_1_with_its_code_and_index(tmp_path):
    record = with_events(tournament(4, 3, played=1), {"type": "result_recorded", "round": 1, "table": 7, "score": [1, 2]})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    code, out = run("standings", str(path))
    assert code == 1
    assert out["ok"] is False and out["index"] == len(record["events"]) - 1
    assert out["error"]["code"] == "table_not_in_round" and out["error"]["params"] == {"round": 1, "table": 7}
    code, out = run("pair", str(path))
    assert code == 1


def test_malformed_exits_2(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("{not json")
    code, out = run("standings", str(path))
    assert code == 2 and out["error"]["code"] == "malformed"
    path.write_text(json.dumps({"header": {"scoring": "nope", "rounds": 2}}))
    code, out = run("standings", str(path))
    assert code == 2 and out["error"]["code"] == "malformed"
    code, out = run("standings", str(tmp_path / "missing.json"))
    assert code == 2


def test_pair_when_the_round_is_open_exits_1(tmp_path):
    record = tournament(4, 3, played=1)
    record["events"].pop()  # the round_closed
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    code, out = run("pair", str(path))
    assert code == 1 and out["error"]["code"] == "round_open"


def test_pairing_is_the_same_in_every_process(tmp_path):
    """Deterministic: no set or hash order leaks into a proposal (PYTHONHASHSEED varies)."""
    import os

    swiss = tournament(41, 5, seed=3, played=3)
    individuals = tournament(14, 5, seed=3, played=3, entrants="individuals", system="individual", scoring="dtm")
    for i, record in enumerate((swiss, individuals)):
        path = tmp_path / f"t{i}.json"
        path.write_text(json.dumps(record))
        outputs = set()
        for hash_seed in ("1", "2", "3"):
            result = subprocess.run([sys.executable, "-m", "games.tournament", "pair", str(path)], cwd=ROOT,
                                    capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED=hash_seed))
            assert result.returncode == 0
            outputs.add(result.stdout)
        assert len(outputs) == 1
