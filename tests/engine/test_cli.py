"""``python -m games.engine``: the JSON, exit statuses and error codes of record-format.md section 4."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import fold, random_game, score_json, state_json

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    result = subprocess.run(
        [sys.executable, "-m", "games.engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True
    )
    return result.returncode, json.loads(result.stdout)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "game.json"
    record = random_game(5)
    path.write_text(json.dumps(record))
    return path, record


def test_score_prints_the_score_sheet(record_file):
    path, record = record_file
    code, out = run("score", str(path))
    assert code == 0
    assert out == json.loads(json.dumps(score_json(fold(record))))
    assert set(out) >= {"ok", "variant", "hands", "totals", "complete", "winner"}
    assert out["ok"] is True and out["complete"] is True
    assert out["totals"] == [sum(h["points"][i] for h in out["hands"]) for i in range(2)]


def test_state_at_n_and_from_stdin(record_file):
    path, record = record_file
    code, out = run("state", "-", "--at", "40", stdin=path.read_text())
    assert code == 0
    assert out == json.loads(json.dumps(state_json(fold(record, 40))))
    for key in ("phase", "turn", "hands", "trick", "wish", "calls", "out", "totals", "options"):
        assert key in out
    assert out["events"] == 40


def test_a_rejected_event_exits_1_with_its_index():
    record = {
        "format": "tichu-record/1",
        "variant": "nanking",
        "players": ["A", "B", "C", "D"],
        "events": [
            {"type": "shuffle", "seat": 2},
            {"type": "draw", "seat": 2, "card": "Ks"},
            {"type": "draw", "seat": 0, "card": "Kj"},
        ],
    }
    code, out = run("score", "-", stdin=json.dumps(record))
    assert code == 1
    assert out["ok"] is False and out["index"] == 2
    assert out["error"]["code"] == "draw_out_of_order"
    assert "seat 3" in out["error"]["message"]


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"variant": "nanking", "players": "ABCD"}',
        '{"variant": "chess", "players": ["A","B","C","D"], "events": []}',
    ],
)
def test_a_malformed_record_exits_2(text):
    code, out = run("score", "-", stdin=text)
    assert code == 2
    assert out["ok"] is False and out["error"]["code"] == "malformed"


def test_an_unknown_card_is_named():
    record = {
        "variant": "nanking",
        "players": ["A", "B", "C", "D"],
        "events": [{"type": "shuffle", "seat": 0}, {"type": "draw", "seat": 0, "card": "Xx"}],
    }
    code, out = run("score", "-", stdin=json.dumps(record))
    assert code == 1 and out["index"] == 1
    assert out["error"]["code"] == "unknown_card" and "'Xx'" in out["error"]["message"]
