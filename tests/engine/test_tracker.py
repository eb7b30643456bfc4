"""The Tichu-Tracker importer (games/engine/tracker.py) against the shared score-sheet history."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.engine.tracker import TrackerFormatError, convert_tracker, hand_event, main_from_tracker
from tests.corpus import CORPUS as CORPUS_ROOT
from tests.corpus import needs_corpus

FILE = CORPUS_ROOT / "tichu-tracker" / "allgames.converted.json"

pytestmark = needs_corpus


@pytest.fixture(scope="module")
def data():
    return json.loads(FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def recs(data):
    return convert_tracker(data)


def book_score(event):
    """By-the-book score of one hand_result (rules.md): for checking the mapping without the engine."""
    first = event["out"][0]
    pts = list(event.get("points") or ([200, 0] if first % 2 == 0 else [0, 200]))
    for seat, call in event["calls"].items():
        value = 100 if call == "tichu" else 200
        pts[int(seat) % 2] += value if int(seat) == first else -value
    return pts


def test_shape(recs, data):
    assert len(recs) == 150
    assert sum(len(r["events"]) for r in recs) == 810
    for rec, game in zip(recs, data["games"]):
        assert rec["format"] == "tichu-record/1" and rec["variant"] == "nanking"
        assert rec["options"] == {"preset": "rio", "target_score": 1000}
        assert all(e["type"] == "hand_result" for e in rec["events"])
        assert rec["meta"]["game_id"] == game["id"]
        assert rec["meta"]["game_over"] == game["gameOver"]
        assert rec["meta"]["creation_datetime"] == game["creationDateTime"]
    assert sum(r["meta"]["game_over"] for r in recs) == 18
    assert recs[0]["players"] == ["Simon", "Brian", "Bruce", "Grant"]
    assert recs[0]["meta"]["created_at"] == "2012-01-11T00:41:57.543000Z"


def test_first_hands(recs):
    ev = recs[0]["events"]
    # GT by seat 1, double victory of team 0 with seat 0 out first
    assert ev[0] == {"type": "hand_result", "calls": {"1": "grand_tichu"}, "out": [0, 2]}
    assert ev[1] == {"type": "hand_result", "calls": {"1": "tichu", "2": "tichu"}, "out": [2], "points": [50, 50]}


def test_double_victories_and_inferred_out(recs):
    dv = [e for r in recs for e in r["events"] if "points" not in e]
    assert len(dv) == 188
    assert all(len(e["out"]) == 2 and (e["out"][0] - e["out"][1]) % 4 == 2 for e in dv)
    inferred = {r["meta"]["game_id"]: r["meta"]["out_inferred"] for r in recs if "out_inferred" in r["meta"]}
    assert inferred == {10: [3], 59: [5], 89: [2]}  # outFirst 0 stored for a 0/200 hand without calls
    assert recs[10]["events"][3] == {"type": "hand_result", "calls": {}, "out": [1, 3]}


def test_calls_counts(recs, data):
    calls = Counter(c for r in recs for e in r["events"] for c in e["calls"].values())
    raw = Counter()
    for g in data["games"]:
        for h in g["hands"]:
            for s in range(4):
                raw["tichu"] += h[f"tichuCall{s}"]
                raw["grand_tichu"] += h[f"grandTichuCall{s}"]
    assert calls == raw


def test_points_valid(recs):
    for r in recs:
        for e in r["events"]:
            if "points" in e:
                a, b = e["points"]
                assert a + b == 100 and a % 5 == 0 and -25 <= a <= 125


def test_book_scores_equal_the_apps(recs, data):
    """Every hand's by-the-book score equals the app's totalScore, and game totals equal
    team1Score/team2Score for all 150 games (the mapping loses nothing the score needs)."""
    for rec, game in zip(recs, data["games"]):
        totals = [0, 0]
        for e, h in zip(rec["events"], game["hands"]):
            pts = book_score(e)
            assert pts == [h["totalScore0"], h["totalScore1"]]
            totals = [totals[0] + pts[0], totals[1] + pts[1]]
        assert totals == [game["team1Score"], game["team2Score"]]


def test_anonymise(data):
    recs = convert_tracker(data, anonymise=True)
    assert recs[0]["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert "Simon" not in json.dumps(recs)


def test_bad_input():
    with pytest.raises(TrackerFormatError):
        convert_tracker({"nope": 1})
    with pytest.raises(TrackerFormatError):
        hand_event({"outFirst": 0})


@pytest.mark.parametrize(
    "players",
    [[{"name": "Anna"}], [{"id": "x", "name": "Anna"}], [{"id": 1}], ["Anna"], {"id": 1}],
    ids=["no id", "id not a number", "no name", "not an object", "not a list"],
)
def test_a_bad_player_row_is_a_format_error_not_a_crash(players):
    with pytest.raises(TrackerFormatError, match="player|players"):
        convert_tracker({"games": [], "players": players})


def test_cli(capsys):
    assert main_from_tracker([str(FILE)]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 150


# ------------------------------------------------------------------ against the rules engine


def test_engine_totals_equal_the_apps_for_all_games(recs, data):
    from games.engine import EngineError, fold, score_json

    for rec, game in zip(recs, data["games"]):
        try:
            score = score_json(fold(rec))
        except EngineError as err:
            pytest.fail(
                f"game {game['id']}: engine rejects event {err.index} {rec['events'][err.index]}: "
                f"{err.code}: {err.message}"
            )
        assert list(score["totals"]) == [game["team1Score"], game["team2Score"]], game["id"]
        assert [list(h["points"]) for h in score["hands"]] == rec["meta"]["hand_totals"], game["id"]
        # the app's gameOver also marks 4 games abandoned below 1000; the engine's "complete" is
        # the rule (a team at or above the target, no tie)
        totals = score["totals"]
        assert score["complete"] is (max(totals) >= 1000 and totals[0] != totals[1])
        if game["gameOver"] and not score["complete"]:
            assert game["id"] in (6, 18, 46, 52)


def test_stopped_games_end_where_they_stopped_when_asked(data, recs):
    from games.engine import fold, score_json

    ended = convert_tracker(data, stopped_games_end=True)
    assert len(ended) == len(recs)
    for plain, rec in zip(recs, ended):
        assert rec["events"] == plain["events"]
        before, after = fold(plain), fold(rec)
        assert score_json(after)["totals"] == score_json(before)["totals"]  # the same sheet
        if before.is_over or not plain["events"]:
            assert rec == plain  # finished by the rules, or nothing played: untouched
            continue
        assert rec["meta"]["stopped_early"] is True
        assert rec["options"] == {"preset": "rio", "hands": len(plain["events"])}
        assert after.is_over
        a, b = score_json(after)["totals"]
        assert after.winner == (0 if a > b else 1 if b > a else None)
    assert sum(1 for r in ended if r["meta"].get("stopped_early")) == sum(
        1 for r in recs if r["events"] and not fold(r).is_over
    )
