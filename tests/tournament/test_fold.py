"""The tournament as a fold: events checked one by one, refusals coded, standings at any event."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import TournamentError, crosstable_json, fold, propose, ranking, standings_json
from games.tournament.state import TournamentState

from .play import header, register, tournament, with_events


def state_snapshot(state: TournamentState):
    return (
        standings_json(state),
        crosstable_json(state),
        state.events_applied,
        state.finished,
        [
            (r.number, r.closed, sorted((t.number, str(t.sides), str(t.result)) for t in r.tables.values()), r.byes)
            for r in state.rounds
        ],
        {e.id: e.active for e in state.entries.values()},
    )


def refused(record, event, code):
    """Apply ``event`` after ``record``: refused with ``code``, the state exactly as before."""
    state = fold(record)
    before = state_snapshot(state)
    with pytest.raises(TournamentError) as info:
        state.apply(event)
    assert info.value.code == code, info.value
    assert state_snapshot(state) == before
    with pytest.raises(TournamentError) as info2:
        fold(with_events(record, event))
    assert info2.value.code == code and info2.value.index == len(record["events"])
    return info.value


@pytest.fixture
def open_round():
    """Six pairs, round 1 paired, one result in."""
    record = {"header": header(rounds=3), "events": register(6)}
    state = fold(record)
    record["events"].append(propose(state).event())
    record["events"].append({"type": "result_recorded", "round": 1, "table": 1, "score": [300, 100]})
    return record


def test_unknown_entry_refused(open_round):
    err = refused(open_round, {"type": "entry_withdrawn", "entry": "nobody"}, "unknown_entry")
    assert err.params == {"entry": "nobody"}
    refused(open_round, {"type": "score_adjusted", "entry": "zz", "vp": 1, "reason": "x"}, "unknown_entry")


def test_result_for_a_table_not_in_the_round_refused(open_round):
    err = refused(
        open_round, {"type": "result_recorded", "round": 1, "table": 9, "score": [1, 2]}, "table_not_in_round"
    )
    assert err.params == {"round": 1, "table": 9}
    refused(open_round, {"type": "result_recorded", "round": 2, "table": 1, "score": [1, 2]}, "round_not_found")


def test_second_pairing_of_a_closed_round_refused(open_round):
    state = fold(open_round)
    events = [
        {"type": "result_recorded", "round": 1, "table": t, "score": [200, 200]}
        for t in state.rounds[0].tables
        if t != 1
    ]
    closed = with_events(open_round, *events, {"type": "round_closed", "round": 1})
    again = dict(open_round["events"][6], round=1)
    refused(closed, again, "round_closed")
    refused(closed, {"type": "result_recorded", "round": 1, "table": 1, "score": [1, 2]}, "round_closed")
    refused(
        closed,
        {"type": "pairing_overridden", "round": 1, "tables": again["tables"], "byes": [], "reason": "late"},
        "round_closed",
    )


def test_other_refusals(open_round):
    refused(open_round, {"type": "round_closed", "round": 1}, "results_missing")
    refused(open_round, {"type": "result_recorded", "round": 1, "table": 1, "score": [1, 2]}, "result_exists")
    refused(
        open_round, {"type": "result_corrected", "round": 1, "table": 2, "score": [1, 2], "reason": "x"}, "no_result"
    )
    refused(open_round, {"type": "result_corrected", "round": 1, "table": 1, "score": [1, 2]}, "reason_required")
    refused(open_round, {"type": "entry_registered", "entry": "e1", "players": ["X", "Y"]}, "entry_exists")
    refused(open_round, {"type": "entry_registered", "entry": "e9", "players": ["A1", "Y"]}, "entry_exists")
    refused(open_round, {"type": "entry_reentered", "entry": "e1"}, "entry_active")
    refused(open_round, {"type": "round_paired", "round": 2, "tables": [], "byes": []}, "round_open")
    refused(open_round, {"type": "round_paired", "round": 1, "tables": [], "byes": []}, "round_out_of_order")
    refused(open_round, {"type": "tournament_finished"}, "round_open")
    refused(open_round, {"type": "lots_drawn", "order": ["e1"]}, "lots_invalid")
    refused(
        open_round,
        {"type": "result_recorded", "round": 1, "table": 2, "hands": [[100, 0]], "score": [0, 100]},
        "result_invalid",
    )
    refused(open_round, {"type": "result_recorded", "round": 1, "table": 2, "hands": [[1, 2]] * 5}, "result_invalid")
    tables = open_round["events"][6]["tables"]
    refused(
        open_round,
        {"type": "pairing_overridden", "round": 1, "tables": tables[1:], "byes": [], "reason": "x"},
        "entry_missing",
    )
    swapped = [
        dict(tables[0], sides=[tables[0]["sides"][0], tables[1]["sides"][0]]),
        dict(tables[1], sides=[tables[0]["sides"][1], tables[1]["sides"][1]]),
        tables[2],
    ]
    refused(
        open_round,
        {"type": "pairing_overridden", "round": 1, "tables": swapped, "byes": [], "reason": "x"},
        "result_exists",
    )
    refused(
        open_round,
        {"type": "pairing_overridden", "round": 1, "tables": tables, "byes": ["e0"], "reason": "x"},
        "entry_twice",
    )


@pytest.mark.parametrize(
    "event",
    [
        {"type": "nonsense"},
        {"type": "entry_registered", "entry": "", "players": ["a", "b"]},
        {"type": "entry_registered", "entry": "x", "players": ["a"]},
        {"type": "result_recorded", "round": 1, "table": "1", "score": [1, 2]},
        {"type": "result_recorded", "round": 1, "table": 2},
        {"type": "result_recorded", "round": 1, "table": 2, "score": [1, "2"]},
        {"type": "score_adjusted", "entry": "e1", "vp": True, "reason": "x"},
    ],
)
def test_malformed_events(open_round, event):
    refused(open_round, event, "malformed")


def test_finished_tournament_takes_no_more_events():
    record = with_events(tournament(4, 2), {"type": "tournament_finished"})
    refused(record, {"type": "entry_registered", "entry": "new", "players": ["N", "M"]}, "tournament_finished")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 9))
def test_standings_after_n_events_are_the_fold_of_the_first_n(seed, n):
    record = tournament(n, 3, seed=seed, tiebreaks=["buchholz", "head_to_head", "points", "lots"])
    state = TournamentState(fold({"header": record["header"]}).header)
    for i, event in enumerate(record["events"]):
        assert standings_json(state) == standings_json(fold(record, i))
        state.apply(copy.deepcopy(event))
    assert standings_json(state) == standings_json(fold(record))


def test_a_correction_changes_exactly_its_table():
    record = tournament(6, 2, seed=3)
    before = fold(record)
    table = before.rounds[0].tables[1]
    a, b = table.sides[0][0], table.sides[1][0]
    old = table.result["score"]
    new_score = [old[0] + 50, old[1] - 50]
    after = fold(
        with_events(
            record,
            {"type": "result_corrected", "round": 1, "table": 1, "score": new_score, "reason": "sheet added up wrong"},
        )
    )
    rows_before = {r["entry"]: r for r in standings_json(before)["standings"]}
    rows_after = {r["entry"]: r for r in standings_json(after)["standings"]}
    for e in rows_before:
        if e in (a, b):
            continue
        for key in ("vp", "points", "against", "played", "byes"):
            assert rows_after[e][key] == rows_before[e][key]
    assert rows_after[a]["points"] == rows_before[a]["points"] - old[0] + new_score[0]
    assert rows_after[b]["against"] == rows_before[b]["against"] - old[0] + new_score[0]
    assert rows_after[a]["difference"] == rows_before[a]["difference"] + 100
    # the correction is history: the result as first entered stays in the stream and in table.history
    assert after.rounds[0].tables[1].history[0] == before.rounds[0].tables[1].history[0]
    assert len(after.rounds[0].tables[1].history) == 2


def test_adjustment_and_bye_and_late_entry_policies():
    h = header(rounds=3, policy={"bye": {"result": "win", "points": 150}, "late_entry": "half"})
    record = {"header": h, "events": register(5)}
    rng = random.Random(1)
    from .play import play_round

    play_round(record, rng)
    record["events"].append({"type": "entry_registered", "entry": "late", "players": ["L1", "L2"]})
    play_round(record, rng)
    record["events"].append({"type": "score_adjusted", "entry": "e0", "vp": -1, "points": -20, "reason": "slow play"})
    state = fold(record)
    rows = {r["entry"]: r for r in standings_json(state)["standings"]}
    late_rounds = [c for c in next(r for r in crosstable_json(state)["crosstable"] if r["entry"] == "late")["rounds"]]
    assert late_rounds[0] == {"round": 1, "kind": "late", "vp": 1, "points": 0, "against": 0}
    bye_entry = state.rounds[0].byes[0]
    r0 = next(
        c
        for c in next(r for r in crosstable_json(state)["crosstable"] if r["entry"] == bye_entry)["rounds"]
        if c["round"] == 1
    )
    assert r0 == {"round": 1, "kind": "bye", "vp": 2, "points": 150, "against": 0}
    assert rows["e0"]["adjustments"] == {"vp": -1, "points": -20}
    unadjusted = {r["entry"]: r for r in standings_json(fold(record, len(record["events"]) - 1))["standings"]}
    assert rows["e0"]["vp"] == unadjusted["e0"]["vp"] - 1
    assert rows["e0"]["points"] == unadjusted["e0"]["points"] - 20


def test_withdrawn_entry_is_not_paired_and_can_reenter():
    record = tournament(6, 3, seed=2, played=1)
    record["events"].append({"type": "entry_withdrawn", "entry": "e3"})
    state = fold(record)
    pairing = propose(state)
    assert "e3" not in {e for t in pairing.tables for s in t["sides"] for e in s} | set(pairing.byes)
    record["events"].append({"type": "entry_reentered", "entry": "e3"})
    pairing = propose(fold(record))
    assert "e3" in {e for t in pairing.tables for s in t["sides"] for e in s} | set(pairing.byes)
    refused(
        with_events(record, {"type": "entry_withdrawn", "entry": "e3"}),
        {"type": "entry_withdrawn", "entry": "e3"},
        "entry_withdrawn",
    )


def test_lots_recorded_break_the_last_tie():
    record = {"header": header(rounds=1, tiebreaks=["lots"]), "events": register(4)}
    order = ["e2", "e0", "e3", "e1"]
    record["events"].append({"type": "lots_drawn", "order": order})
    assert [g for g in ranking(fold(record))] == [[e] for e in order]
    seeded = [e for g in ranking(fold(record, 4)) for e in g]
    assert sorted(seeded) == sorted(order)
    other_seed = {"header": dict(record["header"], seed=8), "events": record["events"][:4]}
    assert ranking(fold(record, 4)) == ranking(fold(record, 4))  # deterministic
    assert [len(g) for g in ranking(fold(other_seed))] == [1, 1, 1, 1]


def test_without_lots_ties_share_a_rank():
    record = {"header": header(rounds=1, tiebreaks=["points"]), "events": register(4)}
    assert [sorted(g) for g in ranking(fold(record))] == [["e0", "e1", "e2", "e3"]]
    record["events"] += [
        {
            "type": "round_paired",
            "round": 1,
            "byes": [],
            "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
        },
        {"type": "result_recorded", "round": 1, "table": 1, "score": [50, 50]},
        {"type": "result_recorded", "round": 1, "table": 2, "score": [50, 50]},
    ]
    assert [r["rank"] for r in standings_json(fold(record))["standings"]] == [1, 1, 1, 1]


def test_no_rank_before_the_first_result():
    """Before any play the standings ranked everybody 1-8 by drawing lots: a ranking no play made.
    Until a table has a result nobody has a rank, and the entries stand in registration order."""
    record = {"header": header(rounds=2, tiebreaks=["lots"]), "events": register(4)}
    record["events"].append({"type": "lots_drawn", "order": ["e2", "e0", "e3", "e1"]})
    rows = standings_json(fold(record))["standings"]
    assert [r["rank"] for r in rows] == [None] * 4 and [r["entry"] for r in rows] == ["e0", "e1", "e2", "e3"]
    record["events"].append(
        {
            "type": "round_paired",
            "round": 1,
            "byes": [],
            "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
        }
    )
    assert [r["rank"] for r in standings_json(fold(record))["standings"]] == [None] * 4, "paired is not played"
    assert [r["entry"] for r in crosstable_json(fold(record))["crosstable"]] == ["e0", "e1", "e2", "e3"]
    record["events"].append({"type": "result_recorded", "round": 1, "table": 2, "score": [40, 60]})
    rows = standings_json(fold(record))["standings"]
    assert [(r["entry"], r["rank"]) for r in rows][0] == ("e3", 1), "the first result ranks everyone"
    assert all(isinstance(r["rank"], int) for r in rows)


@given(st.integers(2, 9), st.integers(0, 2**31))
def test_property_ranks_exactly_when_a_table_has_a_result(n, seed):
    record = {"header": header(rounds=1, seed=seed), "events": register(n)}
    state = fold(record)
    assert all(r["rank"] is None for r in standings_json(state)["standings"])
    record["events"].append(propose(state).event())
    assert all(r["rank"] is None for r in standings_json(fold(record))["standings"])
    record["events"].append({"type": "result_recorded", "round": 1, "table": 1, "score": [60, 40]})
    ranks = [r["rank"] for r in standings_json(fold(record))["standings"]]
    assert all(isinstance(r, int) for r in ranks) and ranks == sorted(ranks) and ranks[0] == 1


def test_rounds_json_shows_status_results_and_corrections(open_round):
    from games.tournament import rounds_json

    record = with_events(
        open_round,
        {"type": "result_corrected", "round": 1, "table": 1, "score": [250, 150], "game": 77, "reason": "typo"},
    )
    out = rounds_json(fold(record))["rounds"][0]
    assert out["closed"] is False and len(out["tables"]) == 3
    first = out["tables"][0]
    assert first["status"] == "result" and first["corrections"] == 1
    assert first["result"]["score"] == [250, 150] and first["result"]["vp"] == [2, 0] and first["result"]["game"] == 77
    assert first["result"]["events"] == [7, 8]
    assert [t["status"] for t in out["tables"][1:]] == ["waiting", "waiting"]
    cells = {row["entry"]: row["rounds"][0] for row in crosstable_json(fold(record))["crosstable"]}
    assert cells[first["sides"][0][0]]["game"] == 77


@pytest.mark.parametrize("policy,rank", [("ranked", int), ("unranked", type(None))])
def test_withdrawal_policy(policy, rank):
    record = tournament(4, 3, seed=5, played=1, policy={"withdrawal": policy})
    record["events"].append({"type": "entry_withdrawn", "entry": "e2"})
    rows = standings_json(fold(record))["standings"]
    row = next(r for r in rows if r["entry"] == "e2")
    assert row["status"] == "withdrawn" and isinstance(row["rank"], rank)
    if policy == "unranked":
        assert rows[-1] is row and [r["rank"] for r in rows[:-1]] == sorted(r["rank"] for r in rows[:-1])


def test_late_entry_scored_as_a_bye_by_policy():
    h = header(rounds=3, policy={"bye": {"result": "draw", "points": 40}, "late_entry": "bye"})
    record = {"header": h, "events": register(4)}
    from .play import play_round

    play_round(record, random.Random(3))
    record["events"].append({"type": "entry_registered", "entry": "late", "players": ["L1", "L2"]})
    row = next(r for r in crosstable_json(fold(record))["crosstable"] if r["entry"] == "late")
    assert row["rounds"] == [{"round": 1, "kind": "late", "vp": 1, "points": 40, "against": 0}]
