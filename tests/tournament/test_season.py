"""A club's season (issue 36, item 1; games.tournament.season): a series of evenings whose table
is a fold of the season's events and of its evenings' own records."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import TournamentError, fold, standings_json
from games.tournament.season import SEASON_EVENT_TYPES, fold_season, season_table
from tests.tournament.play import play_round, tournament, with_events


def _season(events: list[dict], **header) -> dict:
    return {"format": "tichu-season/1", "header": {"name": "2027", **header}, "events": events}


def _added(*tids: int) -> list[dict]:
    return [{"type": "evening_added", "tournament": t} for t in tids]


def _standings(records: dict[int, dict]) -> dict[int, dict]:
    return {tid: standings_json(fold(record)) for tid, record in records.items()}


def _expected_scores(header: dict, standings: dict[int, dict], evenings: list[int]) -> dict[str, float]:
    """The season's definition, said again plainly: each evening's ranked rows score by place, VP
    or the points table; every player of an entry takes its score; the best N count."""
    per_player: dict[str, list[float]] = {}
    for tid in evenings:
        rows = [r for r in standings[tid]["standings"] if r["rank"] is not None]
        for row in rows:
            if header["scoring"] == "place":
                score = len(rows) - row["rank"] + 1
            elif header["scoring"] == "vp":
                score = row["vp"]
            else:
                table = header["points_table"]
                score = table[row["rank"] - 1] if row["rank"] <= len(table) else 0
            for p in row["players"]:
                per_player.setdefault(p, []).append(score)
    best = header.get("best")
    return {p: sum(sorted(s, reverse=True)[:best] if best else s) for p, s in per_player.items()}


def test_a_worked_season_by_place_counts_the_best_two_of_three_evenings():
    evenings = {
        11: tournament(4, rounds=2, seed=1),
        12: tournament(6, rounds=2, seed=2),
        13: tournament(4, rounds=2, seed=3),
    }
    header = {"scoring": "place", "best": 2, "min_evenings": 2}
    table = season_table(fold_season(_season(_added(11, 12, 13), **header)), _standings(evenings))
    rows = {r["player"]: r for r in table["table"]}
    # e4 and e5 (A4, B4, A5, B5) played only evening 12: one evening, under the minimum of two
    assert {p for p, r in rows.items() if r["rank"] is None} == {"A4", "B4", "A5", "B5"}
    expected = _expected_scores(header, _standings(evenings), [11, 12, 13])
    assert {p: r["score"] for p, r in rows.items()} == expected
    a0 = rows["A0"]
    assert a0["evenings_played"] == 3 and sum(e["counts"] for e in a0["evenings"]) == 2
    dropped = next(e for e in a0["evenings"] if not e["counts"])
    assert dropped["score"] == min(e["score"] for e in a0["evenings"])
    ranked = [r for r in table["table"] if r["rank"] is not None]
    assert ranked[0]["rank"] == 1 and [r["score"] for r in ranked] == sorted((r["score"] for r in ranked), reverse=True)


def test_a_correction_on_an_evenings_record_changes_the_season_by_itself():
    """The season keeps no result: a TD's correction of a table on the evening's own record moves
    the season table, and nothing is appended to the season."""
    record = play_round(tournament(4, rounds=1, played=0), random.Random(5), close=False)
    sent = next(e for e in record["events"] if e["type"] == "result_recorded" and e["table"] == 1)
    swapped = [
        {
            "points": list(reversed(line["points"])),
            "double_victory": None if line["double_victory"] is None else 1 - line["double_victory"],
        }
        for line in sent["hands"]
    ]
    corrected = with_events(
        record,
        {"type": "result_corrected", "round": 1, "table": 1, "hands": swapped, "reason": "sides swapped"},
    )
    season = fold_season(_season(_added(21)))
    before = season_table(season, _standings({21: record}))
    after = season_table(season, _standings({21: corrected}))
    assert before["events"] == after["events"] == 1
    assert before["table"] != after["table"]
    assert {r["player"]: r["score"] for r in after["table"]} == _expected_scores(
        {"scoring": "place"}, _standings({21: corrected}), [21]
    )


def test_an_unranked_evening_waits_and_counts_nothing():
    unplayed = tournament(4, rounds=2, played=0)
    table = season_table(fold_season(_season(_added(31))), _standings({31: unplayed}))
    assert table["waiting"] == [31] and table["table"] == []


def test_the_points_table_scores_places_and_a_place_past_its_end_scores_nothing():
    evening = tournament(6, rounds=2, seed=4)
    header = {"scoring": "table", "points_table": [10, 6, 4]}
    standings = _standings({41: evening})
    table = season_table(fold_season(_season(_added(41), **header)), standings)
    by_rank = {r["evenings"][0]["rank"]: r["score"] for r in table["table"]}
    assert all(score == ([10, 6, 4][rank - 1] if rank <= 3 else 0) for rank, score in by_rank.items())


@pytest.mark.parametrize(
    ("events", "code", "rule"),
    [
        (_added(1, 1), "evening_in_season", None),
        ([{"type": "evening_removed", "tournament": 2, "reason": "not a club evening"}], "evening_not_in_season", None),
        (_added(1) + [{"type": "evening_removed", "tournament": 1}], "reason_required", None),
        ([{"type": "evening_added", "tournament": "x"}], "malformed", "season_event"),
        ([{"type": "evening_moved", "tournament": 1}], "malformed", "season_event"),
    ],
)
def test_refused_season_events_leave_the_season_as_it_was(events, code, rule):
    with pytest.raises(TournamentError) as err:
        fold_season(_season(events))
    assert err.value.code == code and err.value.params.get("rule") == rule
    assert err.value.index == len(events) - 1
    state = fold_season(_season(events[:-1]))
    with pytest.raises(TournamentError):
        state.apply(events[-1])
    assert state.events_applied == len(events) - 1 and state.evenings == fold_season(_season(events[:-1])).evenings


@pytest.mark.parametrize(
    ("header", "rule"),
    [
        ({"scoring": "elo"}, "season_header"),
        ({"scoring": "table"}, "season_header"),
        ({"scoring": "place", "points_table": [3, 2, 1]}, "season_header"),
        ({"scoring": "table", "points_table": [1, 2, 3]}, "season_points_table"),
        ({"best": 0}, "season_header"),
        ({"tie_breaks": ["evenings_won", "evenings_won"]}, "season_header"),
        ({"tie_breaks": ["buchholz"]}, "season_header"),
    ],
)
def test_a_bad_header_is_malformed_with_its_rule(header, rule):
    with pytest.raises(TournamentError) as err:
        fold_season(_season([], **header))
    assert err.value.code == "malformed" and err.value.params["rule"] == rule


def test_the_history_keeps_why_an_evening_left():
    events = _added(1, 2) + [{"type": "evening_removed", "tournament": 1, "reason": "played with a short deck"}]
    state = fold_season(_season(events))
    assert state.evenings == [2]
    assert [h["type"] for h in state.history] == list(SEASON_EVENT_TYPES[:1] * 2) + ["evening_removed"]
    assert state.history[-1]["reason"] == "played with a short deck" and state.history[-1]["index"] == 2


_headers = st.one_of(
    st.fixed_dictionaries({"scoring": st.sampled_from(["place", "vp"])}),
    st.fixed_dictionaries(
        {
            "scoring": st.just("table"),
            "points_table": st.lists(st.integers(0, 30), min_size=1, max_size=6).map(lambda t: sorted(t, reverse=True)),
        }
    ),
).flatmap(
    lambda h: st.fixed_dictionaries(
        {
            **{k: st.just(v) for k, v in h.items()},
            "best": st.one_of(st.none(), st.integers(1, 4)),
            "min_evenings": st.integers(0, 3),
            "tie_breaks": st.permutations(["evenings_won", "best_place", "all_evenings", "evenings"]).map(
                lambda t: list(t[:2])
            ),
        }
    )
)
_evenings = st.lists(st.tuples(st.integers(4, 6), st.integers(1, 2), st.integers(0, 10_000)), min_size=1, max_size=3)


@settings(max_examples=20, deadline=None)
@given(header=_headers, evenings=_evenings, removed=st.integers(0, 3), seed=st.integers(0, 100))
def test_a_season_table_is_a_fold_of_its_evenings(header, evenings, removed, seed):
    """Any season: every player of a ranked evening is listed once, their score is the best N of
    their evenings' scores, the ranked part is ordered by score, the unranked are exactly those
    under the minimum, and removing an evening (with its reason) is as if it was never added."""
    records = {100 + i: tournament(n, rounds=r, seed=s) for i, (n, r, s) in enumerate(evenings)}
    order = list(records)
    random.Random(seed).shuffle(order)
    standings = _standings(records)
    table = season_table(fold_season(_season(_added(*order), **header)), standings)
    expected = _expected_scores(header, standings, order)
    assert sorted(r["player"] for r in table["table"]) == sorted(expected)
    assert {r["player"]: r["score"] for r in table["table"]} == pytest.approx(expected)
    ranked = [r for r in table["table"] if r["rank"] is not None]
    assert all(r["evenings_played"] >= header["min_evenings"] for r in ranked)
    assert all(r["evenings_played"] < header["min_evenings"] for r in table["table"] if r["rank"] is None)
    assert [r["score"] for r in ranked] == sorted((r["score"] for r in ranked), reverse=True)
    assert [r["rank"] for r in ranked] == sorted(r["rank"] for r in ranked)
    gone = order[removed % len(order)]
    events = _added(*order) + [{"type": "evening_removed", "tournament": gone, "reason": "not counted"}]
    without = season_table(fold_season(_season(events, **header)), standings)
    never = season_table(fold_season(_season(_added(*[t for t in order if t != gone]), **header)), standings)
    assert without["table"] == never["table"]


def test_the_command_line_appends_to_a_season_and_prints_its_table(tmp_path):
    """The TD's tool: season-append checks by the fold and writes only what it accepts; season
    folds the evenings' own files into the table."""
    from tests.tournament.test_cli import run

    evenings = {51: tournament(4, rounds=1, seed=8), 52: tournament(4, rounds=1, seed=9)}
    for tid, record in evenings.items():
        (tmp_path / f"e{tid}.json").write_text(json.dumps(record))
    season = tmp_path / "season.json"
    season.write_text(json.dumps(_season([], best=1)))
    for tid in evenings:
        code, out = run("season-append", str(season), json.dumps({"type": "evening_added", "tournament": tid}))
        assert code == 0, out
    code, out = run("season-append", str(season), json.dumps({"type": "evening_added", "tournament": 51}))
    assert code == 1 and out["error"]["code"] == "evening_in_season"
    assert len(json.loads(season.read_text())["events"]) == 2
    code, table = run(
        "season", str(season), "--evening", f"51={tmp_path / 'e51.json'}", "--evening", f"52={tmp_path / 'e52.json'}"
    )
    assert code == 0, table
    expected = _expected_scores({"scoring": "place", "best": 1}, _standings(evenings), [51, 52])
    assert {r["player"]: r["score"] for r in table["table"]} == expected
    code, out = run("season", str(season), "--evening", "x.json")
    assert code == 2 and out["error"]["code"] == "malformed"


def _rows(*places: tuple[int, list[str]]) -> dict:
    """An evening's standings as standings_json gives them: rank and players per entry."""
    return {"standings": [{"rank": rank, "players": players, "vp": 0} for rank, players in places]}


def test_the_worked_example_of_the_docs_folds_to_its_numbers():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text()
    block = doc.split("## Seasons", 1)[1].split("## Error codes", 1)[0]
    state = fold_season(json.loads(re.search(r"```json\n(.*?)```", block, re.S).group(1)))
    assert state.evenings == [11, 12] and state.history[-1]["reason"] == "played with a short deck"
    standings = {
        11: _rows((1, ["Anna", "Ben"]), (2, ["Cleo", "Dan"]), (3, ["Eva", "Finn"]), (4, ["Gus", "Hal"])),
        12: _rows(
            (1, ["Anna", "Cleo"]),
            (2, ["Ida", "Jon"]),
            (3, ["Ben", "Dan"]),
            (4, ["Eva", "Gus"]),
            (5, ["Finn", "Kim"]),
            (6, ["Hal", "Lea"]),
        ),
        13: _rows((1, ["Gus", "Hal"])),
    }
    rows = {r["player"]: r for r in season_table(state, standings)["table"]}
    assert (rows["Anna"]["score"], rows["Ben"]["score"], rows["Cleo"]["score"]) == (10, 8, 9)
    assert rows["Ida"]["rank"] is None and rows["Ida"]["score"] == 5
    assert rows["Anna"]["rank"] == 1 and rows["Cleo"]["rank"] == 2
    assert all(e["tournament"] != 13 for r in rows.values() for e in r["evenings"])
