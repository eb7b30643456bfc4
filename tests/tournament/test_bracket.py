"""Knockout brackets in the pure core (issue 36, item 3): seeding, byes, best of N, walkovers,
corrections, the consolation bracket, coded refusals, the command line; and the properties: a
bracket of any size seeds every entry once and ends with one winner, byes fall in the first round
only and to the top seeds."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import (
    CODES,
    TournamentError,
    bracket_json,
    fold_bracket,
    new_bracket,
    seed_order,
)
from games.tournament.bracket import slot_order

ROOT = Path(__file__).resolve().parents[2]


def entries(n: int) -> list[dict]:
    return [{"entry": f"p{i}", "players": [f"A{i}", f"B{i}"]} for i in range(1, n + 1)]


def seeded(n: int, **header) -> dict:
    return {
        "format": "tichu-bracket/1",
        "header": header,
        "events": [{"type": "bracket_seeded", "by": "hand", "entries": entries(n)}],
    }


def won(side: int, best_of: int = 1) -> list[list[int]]:
    """The shortest match side `side` wins: each game 1000 to 400."""
    game = [1000, 400] if side == 0 else [400, 1000]
    return [game] * (best_of // 2 + 1)


def play_out(record: dict, rng: random.Random, best_of: int = 1) -> dict:
    """Every playable match given a result (a random side wins), until none is left."""
    state, events = fold_bracket(record), list(record["events"])
    while True:
        open_ = [m for m in state.matches().values() if m.winner is None and None not in m.sides]
        if not open_:
            return {**record, "events": events}
        m = rng.choice(open_)
        event = {"type": "match_result", "match": m.id, "games": won(rng.randrange(2), best_of)}
        state.apply(event)
        events.append(event)


def refusal(record: dict, event: dict) -> TournamentError:
    with pytest.raises(TournamentError) as err:
        fold_bracket({**record, "events": [*record["events"], event]})
    return err.value


def test_slot_order_keeps_the_top_seeds_apart_until_the_end():
    assert slot_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 16, 64):
        order = slot_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2]))  # 1 meets size, 2 size-1...
        half = size // 2
        assert 1 in order[:half] and 2 in order[half:]  # seeds 1 and 2 meet in the final only


def test_six_entries_get_two_byes_to_the_top_seeds_and_play_to_one_winner():
    state = fold_bracket(seeded(6, best_of=3))
    first = [m for m in state.matches().values() if m.round == 1]
    assert [(m.id, m.sides, m.bye) for m in first] == [
        ("W1-1", ["p1", None], True),
        ("W1-2", ["p4", "p5"], False),
        ("W1-3", ["p2", None], True),
        ("W1-4", ["p3", "p6"], False),
    ]
    record = seeded(6, best_of=3)
    record["events"] += [
        {"type": "match_result", "match": "W1-2", "games": [[600, 400], [300, 1010], [1000, 200]]},
        {"type": "match_result", "match": "W1-4", "games": [[600, 1400], [300, 1010]]},
        {"type": "match_result", "match": "W2-1", "walkover": "p4", "reason": "p1 cannot come"},
        {"type": "match_result", "match": "W2-2", "games": won(0, 3)},
        {"type": "match_result", "match": "W3-1", "games": [[1000, 0], [0, 1000], [5, 0]]},
    ]
    out = bracket_json(fold_bracket(record))
    assert out["winner"] == "p4" and out["finished"] is True
    assert [m["sides"] for m in out["brackets"]["main"][1]] == [["p1", "p4"], ["p2", "p6"]]
    assert out["brackets"]["main"][1][0]["reason"] == "p1 cannot come"
    assert [s["entry"] for s in out["seeding"]["seeds"]] == [f"p{i}" for i in range(1, 7)]
    assert json.loads(json.dumps(out)) == out


def test_the_consolation_bracket_is_the_first_rounds_losers_in_seed_order():
    record = seeded(8, consolation=True)
    state = fold_bracket(record)
    assert not any(m.bracket == "C" for m in state.matches().values())  # not before round 1 is done
    for k, side in ((1, 1), (2, 0), (3, 1), (4, 0)):  # 8 beats 1, 4 beats 5, 7 beats 2, 3 beats 6
        record["events"].append({"type": "match_result", "match": f"W1-{k}", "games": won(side)})
    out = bracket_json(fold_bracket(record))
    assert [m["sides"] for m in out["brackets"]["consolation"][0]] == [["p1", "p6"], ["p2", "p5"]]
    assert out["finished"] is False
    done = play_out(record, random.Random(3))
    final = bracket_json(fold_bracket(done))
    assert final["finished"] and final["winner"] in {"p8", "p4", "p7", "p3"}
    assert final["consolation_winner"] in {"p1", "p2", "p5", "p6"}


def test_a_correction_moves_the_winner_on_unless_the_next_match_was_played():
    record = seeded(4)
    record["events"] += [
        {"type": "match_result", "match": "W1-1", "games": won(0)},
        {"type": "match_result", "match": "W1-2", "games": won(0)},
    ]
    fixed = {
        **record,
        "events": [
            *record["events"],
            {"type": "match_corrected", "match": "W1-1", "games": won(1), "reason": "sheet added up wrong"},
        ],
    }
    assert fold_bracket(fixed).matches()["W2-1"].sides == ["p4", "p2"]
    assert bracket_json(fold_bracket(fixed))["brackets"]["main"][0][0]["reason"] == "sheet added up wrong"
    played = {**record, "events": [*record["events"], {"type": "match_result", "match": "W2-1", "games": won(0)}]}
    err = refusal(played, {"type": "match_corrected", "match": "W1-1", "games": won(1), "reason": "late sheet"})
    assert (err.code, err.params["match"], err.index) == ("match_played_on", "W2-1", 4)
    assert refusal(record, {"type": "match_corrected", "match": "W1-1", "games": won(1)}).code == "reason_required"


@pytest.mark.parametrize(
    ("event", "code", "rule"),
    [
        ({"type": "bracket_seeded", "by": "hand", "entries": entries(3)}, "already_seeded", None),
        ({"type": "match_result", "match": "W9-1", "games": won(0)}, "unknown_match", None),
        ({"type": "match_result", "match": "W1-1", "games": won(0)}, "unknown_match", None),  # a bye
        ({"type": "match_result", "match": "W2-1", "games": won(0)}, "match_not_ready", None),
        ({"type": "match_result", "match": "W1-2", "games": [[500, 500]]}, "result_invalid", "game_drawn"),
        ({"type": "match_result", "match": "W1-2", "games": [[600, 400]]}, "result_invalid", "match_undecided"),
        (
            {"type": "match_result", "match": "W1-2", "games": won(0, 3) + [[1, 0]]},
            "result_invalid",
            "match_overplayed",
        ),
        ({"type": "match_result", "match": "W1-2", "walkover": "p1", "reason": "r"}, "result_invalid", "walkover_side"),
        ({"type": "match_result", "match": "W1-2", "walkover": "p3"}, "reason_required", None),
        ({"type": "match_corrected", "match": "W1-2", "games": won(0, 3), "reason": "r"}, "no_result", "match"),
        ({"type": "match_result", "match": "W1-2"}, "malformed", "bracket_result"),
        ({"type": "match_result", "match": "W1-2", "games": won(0, 3), "note": "x"}, "malformed", "bracket_event"),
        ({"type": "round_closed", "round": 1}, "malformed", "bracket_event"),
    ],
)
def test_refusals_are_coded_and_leave_the_bracket_as_it_was(event, code, rule):
    record = seeded(3, best_of=3)
    err = refusal(record, event)
    assert (err.code, err.params.get("rule"), err.index) == (code, rule, 1)
    assert err.code in CODES
    state = fold_bracket(record)
    before = bracket_json(state)
    with pytest.raises(TournamentError):
        state.apply(event)
    assert bracket_json(state) == {**before, "events": before["events"]}


def test_seeding_refusals_and_the_header():
    blank = {"format": "tichu-bracket/1", "header": {}, "events": []}
    assert refusal(blank, {"type": "match_result", "match": "W1-1", "games": won(0)}).code == "not_seeded"
    one = refusal(blank, {"type": "bracket_seeded", "by": "hand", "entries": entries(1)})
    assert (one.code, one.params["rule"]) == ("pairing_impossible", "bracket")
    twice = refusal(blank, {"type": "bracket_seeded", "by": "hand", "entries": entries(2) + entries(1)})
    assert (twice.code, twice.params["rule"]) == ("entry_exists", "seeded_twice")
    assert (
        refusal(blank, {"type": "bracket_seeded", "by": "coin", "entries": entries(2)}).params["rule"]
        == "bracket_entries"
    )
    shared = entries(3)
    shared[2]["players"] = ["A3", "A1"]
    taken = refusal(blank, {"type": "bracket_seeded", "by": "hand", "entries": shared})
    assert (taken.code, taken.params) == ("entry_exists", {"entry": "p1", "player": "A1", "rule": "player_taken"})
    for header in ({"best_of": 2}, {"best_of": 11}, {"hands": 4, "target": 500}, {"consolation": "yes"}, {"x": 1}):
        with pytest.raises(TournamentError) as err:
            new_bracket(header)
        assert err.value.params["rule"] == "bracket_header"
    assert new_bracket({}).header["target"] == 1000 and new_bracket({"hands": 4}).header["target"] is None


def test_seed_order_by_rating_by_a_previous_stage_and_by_hand():
    ids = ["a", "b", "c", "d"]
    assert seed_order(ids, "rating", ratings={"a": 1400, "b": 1650, "c": 1500, "d": 1650}) == ["b", "d", "c", "a"]
    assert seed_order(ids, "previous_stage", standings=["c", "a"]) == ["c", "a", "b", "d"]
    assert seed_order(ids, "hand") == ids


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=40),
    best_of=st.sampled_from([1, 3, 5]),
    consolation=st.booleans(),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_any_bracket_seeds_every_entry_once_and_ends_with_one_winner(n, best_of, consolation, seed):
    record = seeded(n, best_of=best_of, consolation=consolation)
    state = fold_bracket(record)
    size = 1 << (n - 1).bit_length()
    first = [m for m in state.matches().values() if m.round == 1 and m.bracket == "W"]
    placed = [s for m in first for s in m.sides if s is not None]
    assert sorted(placed) == sorted(f"p{i}" for i in range(1, n + 1))  # every entry once
    # byes: only in round 1, exactly size - n of them, to seeds 1 .. size - n
    byes = [m for m in state.matches().values() if m.bye]
    assert all(m.round == 1 for m in byes) and len(byes) == size - n
    assert sorted(int(m.winner[1:]) for m in byes) == list(range(1, size - n + 1))
    done = fold_bracket(play_out(record, random.Random(seed), best_of))
    out = bracket_json(done)
    assert out["finished"]
    main = [m for m in done.matches().values() if m.bracket == "W"]
    assert len(main) == size - 1  # a knockout of size slots has size - 1 matches, byes included
    assert out["winner"] is not None
    beaten = {s for m in main for s in m.sides if s is not None and s != m.winner}
    assert beaten | {out["winner"]} == set(placed) and out["winner"] not in beaten  # one winner, all others out


def run(*args):
    result = subprocess.run([sys.executable, "-m", "games.tournament", *args], cwd=ROOT, capture_output=True, text=True)
    return result.returncode, json.loads(result.stdout)


def test_the_command_line_seeds_appends_and_shows_a_bracket(tmp_path):
    (tmp_path / "entries.json").write_text(json.dumps(entries(3)))
    (tmp_path / "ratings.json").write_text(json.dumps({"p1": 1500, "p2": 1700, "p3": 1600}))
    code, out = run(
        "bracket-seed", str(tmp_path / "entries.json"), "--by", "rating", "--ratings", str(tmp_path / "ratings.json")
    )
    assert code == 0 and [e["entry"] for e in out["event"]["entries"]] == ["p2", "p3", "p1"]
    path = tmp_path / "cup.json"
    path.write_text(json.dumps({"format": "tichu-bracket/1", "header": {"best_of": 1}, "events": [out["event"]]}))
    code, out = run(
        "bracket-append", str(path), json.dumps({"type": "match_result", "match": "W1-2", "games": [[300, 1000]]})
    )
    assert (code, out) == (0, {"ok": True, "index": 1, "events": 2})
    before = path.read_text()
    code, out = run(
        "bracket-append", str(path), json.dumps({"type": "match_result", "match": "W1-2", "games": [[1000, 300]]})
    )
    assert code == 1 and out["error"]["code"] == "result_exists" and path.read_text() == before
    code, out = run("bracket", str(path))
    assert code == 0 and out["brackets"]["main"][1][0]["sides"] == ["p2", "p1"]
    code, out = run("bracket", str(path), "--at", "1")
    assert code == 0 and out["brackets"]["main"][1][0]["sides"] == ["p2", None]
    code, out = run("bracket-append", str(path), json.dumps({"type": "match_result", "match": "W2-1"}))
    assert code == 2 and out["error"]["code"] == "malformed"


def test_the_command_line_seeds_a_bracket_from_a_previous_stages_standings(tmp_path):
    from games.tournament import fold, ranking

    from .play import tournament

    stage = tournament(6, 3, seed=5, played=3)
    order = [e for tied in ranking(fold(stage)) for e in tied]
    (tmp_path / "swiss.json").write_text(json.dumps(stage))
    (tmp_path / "entries.json").write_text(
        json.dumps([{"entry": f"e{i}", "players": [f"A{i}", f"B{i}"]} for i in range(6)])
    )
    code, out = run(
        "bracket-seed",
        str(tmp_path / "entries.json"),
        "--by",
        "previous_stage",
        "--stage",
        str(tmp_path / "swiss.json"),
    )
    assert code == 0 and out["event"]["by"] == "previous_stage"
    assert [e["entry"] for e in out["event"]["entries"]] == order
    code, out = run("bracket-seed", str(tmp_path / "entries.json"), "--by", "rating")
    assert code == 2 and out["error"]["code"] == "malformed"


def test_the_worked_example_of_docs_tournament_md_folds_as_it_says():
    doc = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
    block = doc.split("## Knockout brackets", 1)[1]
    import re

    record = json.loads(re.search(r"```json\n(.*?)```", block, re.S).group(1))
    out = bracket_json(fold_bracket(record))
    assert (out["winner"], out["consolation_winner"], out["finished"]) == ("gus-hal", "eva-finn", True)
    assert [m["sides"] for m in out["brackets"]["main"][0]] == [
        ["anna-ben", None],
        ["gus-hal", "ida-jon"],
        ["cleo-dan", None],
        ["eva-finn", "kim-lea"],
    ]
    swapped = {
        "type": "match_corrected",
        "match": "W1-2",
        "games": [[740, 1020], [1005, 880], [960, 1010]],
        "reason": "swapped",
    }
    before_w2 = {**record, "events": record["events"][:3]}  # before C1-1 and W2-1 were played
    assert fold_bracket({**before_w2, "events": [*before_w2["events"], swapped]}).matches()["W2-1"].sides == [
        "anna-ben",
        "ida-jon",
    ]
    err = refusal(record, swapped)
    assert (err.code, err.params["match"]) == ("match_played_on", "C1-1")  # ida-jon played it as a loser
