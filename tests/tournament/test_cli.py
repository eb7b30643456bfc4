"""``python -m games.tournament``: JSON out, exit 0 / 1 (refused) / 2 (malformed), coded errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.tournament import crosstable_json, fold, propose, standings_json

from .play import tournament, with_events

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    result = subprocess.run(
        [sys.executable, "-m", "games.tournament", *args], cwd=ROOT, input=stdin, capture_output=True, text=True
    )
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
    record = with_events(
        tournament(4, 3, played=1), {"type": "result_recorded", "round": 1, "table": 7, "score": [1, 2]}
    )
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
            result = subprocess.run(
                [sys.executable, "-m", "games.tournament", "pair", str(path)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                env=dict(os.environ, PYTHONHASHSEED=hash_seed),
            )
            assert result.returncode == 0
            outputs.add(result.stdout)
        assert len(outputs) == 1


def test_append_checks_the_event_as_the_api_does_and_writes_only_what_it_accepts(tmp_path):
    record = {"header": {"scoring": "dtm", "rounds": 2}, "events": []}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    for i in range(2):
        code, out = run(
            "append",
            str(path),
            json.dumps({"type": "entry_registered", "entry": f"e{i}", "players": [f"A{i}", f"B{i}"]}),
        )
        assert code == 0 and out == {"ok": True, "index": i, "events": i + 1}
    code, out = run(
        "append",
        str(path),
        json.dumps(
            {"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}], "byes": []}
        ),
    )
    assert code == 0
    before = path.read_text()
    # a line only a Grand Tichu makes, under DTM: refused with its rule, the file untouched
    bad = {"type": "result_recorded", "round": 1, "table": 1, "hands": [[250, 50], [100, 0], [0, 100], [50, 50]]}
    code, out = run("append", str(path), json.dumps(bad))
    assert code == 1 and out["index"] == 3 and out["error"]["params"]["rule"] == "line_calls_no_grand"
    assert path.read_text() == before
    code, out = run("append", str(path), json.dumps({**bad, "colour": "red"}))  # a field the API refuses
    assert code == 2 and out["error"]["params"]["rule"] == "unknown_fields" and path.read_text() == before
    code, out = run("append", str(path), "{not json")
    assert code == 2 and path.read_text() == before
    good = {**bad, "hands": [[130, 70], [100, 0], [0, 100], [50, 50]]}
    assert run("append", str(path), json.dumps(good))[0] == 0
    assert json.loads(path.read_text())["events"][-1] == good
    assert fold(json.loads(path.read_text())).rounds[0].tables[1].result["score"] == (280, 220)


def test_hand_turns_a_paper_hand_into_a_line_under_the_records_preset(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"header": {"scoring": "dtm", "rounds": 2}, "events": []}))
    code, out = run("hand", str(path), "--call", "0=tichu", "--out", "0,1,2,3", "--points", "30,70")
    assert code == 0 and out == {"ok": True, "line": {"points": [130, 70], "double_victory": None}}
    code, out = run("hand", str(path), "--call", "1=tichu", "--out", "1,3")  # a DTM double victory is 100
    assert code == 0 and out["line"] == {"points": [0, 200], "double_victory": 1}
    code, out = run("hand", str(path), "--call", "0=grand_tichu", "--out", "0,2")
    assert code == 1 and out["error"]["params"]["rule"] == "no_grand_tichu"
    code, out = run("hand", str(path), "--out", "0,1", "--points", "55,40")
    assert code == 1 and out["error"]["params"]["rule"] == "result_points_sum"
    code, out = run("hand", str(path), "--call", "0=big", "--out", "0,1", "--points", "50,50")
    assert code == 2
    path.write_text(json.dumps({"header": {"scoring": "round_vp", "rounds": 2}, "events": []}))
    code, out = run("hand", str(path), "--call", "0=grand_tichu", "--out", "0,2")
    assert code == 0 and out["line"] == {"points": [400, 0], "double_victory": 0}


def test_standings_and_crosstable_after_round_n(tmp_path):
    record = tournament(4, 3, seed=5, played=2)
    closes = [i for i, e in enumerate(record["events"]) if e["type"] == "round_closed"]
    # a correction of round 1 made during round 2 counts after round 1
    fix = {"type": "result_corrected", "round": 1, "table": 1, "hands": [[125, -25]] * 4, "reason": "sheet"}
    record["events"].insert(closes[0] + 2, fix)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record))
    after_one = {**record, "events": record["events"][: closes[0] + 1] + [fix]}
    code, out = run("standings", str(path), "--after-round", "1")
    assert code == 0 and out == json.loads(json.dumps(standings_json(fold(after_one))))
    assert all(row["played"] <= 1 for row in out["standings"])
    code, out = run("crosstable", str(path), "--after-round", "2")
    assert code == 0 and out == json.loads(json.dumps(crosstable_json(fold(record))))
    code, out = run("standings", str(path), "--after-round", "3")
    assert code == 1 and out["error"]["code"] == "round_open" and out["error"]["params"]["round"] == 3
    code, _out = run("standings", str(path), "--after-round", "0")
    assert code == 2
