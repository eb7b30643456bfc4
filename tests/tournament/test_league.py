"""Leagues (issue 36, item 2; games.tournament.league): entries, matches and legs fixed in advance,
results from hand lines or a paper score, a table with tie-breaks, promotion and relegation."""

from __future__ import annotations

import copy
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import TournamentError, fold_league, league_json, next_season
from games.tournament.league import LEAGUE_EVENT_TYPES, fixtures, parse_league_header, table
from tests.tournament.play import random_result

ROOT = Path(__file__).resolve().parents[2]


def _entries(n: int) -> list[dict]:
    return [{"entry": f"t{i}", "players": [f"A{i}", f"B{i}"], "name": f"Team {i}"} for i in range(n)]


def _league(n: int = 4, events: list[dict] | None = None, **header) -> dict:
    return {"format": "tichu-league/1", "header": {"entries": _entries(n), **header}, "events": events or []}


def _result(match: str, score: list[int], **kw) -> dict:
    return {"type": "match_result", "match": match, "score": score, **kw}


def _refused(record: dict, event: dict) -> TournamentError:
    before = fold_league(record)
    snapshot = copy.deepcopy((before.results, before.scheduled, before.history, before.events_applied))
    with pytest.raises(TournamentError) as err:
        before.apply(event)
    # a refusal changes nothing
    assert (before.results, before.scheduled, before.history, before.events_applied) == snapshot
    with pytest.raises(TournamentError) as folded:
        fold_league({**record, "events": [*record["events"], event]})
    assert folded.value.index == len(record["events"]) and folded.value.code == err.value.code
    return err.value


# --- the fixtures: a fold of the header ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 16), legs=st.sampled_from([1, 2]))
def test_every_pair_meets_once_a_leg_and_the_second_leg_swaps_home_and_away(n, legs):
    header = parse_league_header({"entries": _entries(n), "legs": legs})
    matches = fixtures(header)
    ids = [e["entry"] for e in header["entries"]]
    per_leg = n - 1 if n % 2 == 0 else n
    assert {f.round for f in matches} == set(range(1, per_leg * legs + 1))
    for leg in range(1, legs + 1):
        pairs = [frozenset(f.sides) for f in matches if f.leg == leg]
        assert sorted(pairs, key=sorted) == sorted((frozenset(p) for p in itertools.combinations(ids, 2)), key=sorted)
    for r in {f.round for f in matches}:  # one match an entry a round (an odd field: one sits out)
        playing = [e for f in matches if f.round == r for e in f.sides]
        assert len(playing) == len(set(playing)) == n - n % 2
    if legs == 2:
        first = {frozenset(f.sides): f.sides for f in matches if f.leg == 1}
        for f in matches:
            if f.leg == 2:
                assert f.sides == (first[frozenset(f.sides)][1], first[frozenset(f.sides)][0])
                assert f.round == [g for g in matches if g.sides == (f.sides[1], f.sides[0])][0].round + per_leg
        home = {e: sum(f.sides[0] == e for f in matches) for e in ids}
        assert set(home.values()) == {n - 1}  # over two legs everyone is at home as often as away
    assert len({f.id for f in matches}) == len(matches)


def test_the_fixtures_are_the_cores_berger_tables():
    """The league reuses the round robin's Berger tables: its first round pairs as a round robin
    tournament's round 1 does (pairing numbers in the order of the entries)."""
    from games.tournament import fold, propose
    from tests.tournament.play import header, register

    t = fold({"header": header(system="round_robin", rounds=None), "events": register(6)})
    proposed = [tuple(e for s in tab["sides"] for e in s) for tab in propose(t).tables]
    league = [tuple(f.sides) for f in fixtures(parse_league_header({"entries": _entries(6)})) if f.round == 1]
    assert [tuple(s.replace("e", "t") for s in p) for p in proposed] == league


def test_an_odd_field_sits_one_entry_out_each_round():
    out = league_json(fold_league(_league(5)))
    assert len(out["rounds"]) == 5 and all(len(r["sits_out"]) == 1 and len(r["matches"]) == 2 for r in out["rounds"])
    assert sorted(r["sits_out"][0] for r in out["rounds"]) == [f"t{i}" for i in range(5)]


# --- results and the table --------------------------------------------------------------------


def test_a_worked_league_with_a_correction_and_promotion_and_relegation():
    record = _league(4, legs=1, promotion=1, relegation=1)
    state = fold_league(record)
    ids = {f.sides: f.id for f in state.fixtures.values()}
    match = {frozenset(k): (v, k) for k, v in ids.items()}

    def score(a: str, b: str, pa: int, pb: int) -> dict:
        mid, sides = match[frozenset((a, b))]
        return _result(mid, [pa, pb] if sides == (a, b) else [pb, pa], date="2027-02-01")

    record["events"] = [
        score("t0", "t1", 510, 490),
        score("t0", "t2", 0, 1000),
        score("t0", "t3", 600, 400),
        score("t1", "t2", 900, 100),
        score("t1", "t3", 900, 100),
        score("t2", "t3", 400, 600),
    ]
    out = league_json(fold_league(record))
    rows = {r["entry"]: r for r in out["table"]}
    # round_vp: 2 a win. t0 and t1 have 4, t2 and t3 have 2; t0 beat t1 and t3 beat t2 (head to
    # head), whatever their differences (t1 +1580, t0 -780)
    assert {e: r["league_points"] for e, r in rows.items()} == {"t0": 4, "t1": 4, "t2": 2, "t3": 2}
    assert (rows["t0"]["difference"], rows["t1"]["difference"]) == (-780, 1580)
    assert [r["entry"] for r in out["table"]] == ["t0", "t1", "t3", "t2"]
    assert [r["rank"] for r in out["table"]] == [1, 2, 3, 4]
    assert out["finished"] and out["promoted"] == ["t0"] and out["relegated"] == ["t2"]
    assert (rows["t0"]["won"], rows["t0"]["drawn"], rows["t0"]["lost"]) == (2, 0, 1)
    # the TD corrects t0 - t1: t1 first; t0, t2, t3 on 2 beat each other in a ring (head to head
    # 2 each), so the difference orders them: t2 0, t3 -800, t0 -820
    mid, sides = match[frozenset(("t0", "t1"))]
    fixed = {"type": "match_corrected", "match": mid, "score": [490, 510], "reason": "sheet read upside down"}
    if sides != ("t0", "t1"):
        fixed["score"] = [510, 490]
    out = league_json(fold_league({**record, "events": [*record["events"], fixed]}))
    assert [r["entry"] for r in out["table"]] == ["t1", "t2", "t3", "t0"]
    assert out["promoted"] == ["t1"] and out["relegated"] == ["t0"]
    corrected = next(m for r in out["rounds"] for m in r["matches"] if m["match"] == mid)
    assert corrected["corrected"] and corrected["reason"] == "sheet read upside down"
    assert corrected["date"] == "2027-02-01"  # the correction gave none: the match's date stays


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 9),
    legs=st.sampled_from([1, 2]),
    scoring=st.sampled_from(["round_vp", "box", "dtm"]),
    three_points=st.booleans(),
    seed=st.integers(0, 10_000),
    share=st.floats(0, 1),
)
def test_the_table_adds_up_what_the_matches_award(n, legs, scoring, three_points, seed, share):
    rng = random.Random(seed)
    header = {"legs": legs, "scoring": scoring}
    if three_points:
        header["match_points"] = {"win": 3, "draw": 1, "loss": 0}
    record = _league(n, **header)
    state = fold_league(record)
    for f in state.fixtures.values():
        if rng.random() < share:
            if scoring == "dtm":
                event = {"type": "match_result", "match": f.id, "hands": random_result(rng, 4, 100)}
            else:
                event = _result(f.id, [rng.randrange(0, 20) * 50, rng.randrange(0, 20) * 50])
            record["events"].append(event)
    state = fold_league(record)
    rows = table(state)
    awarded = sum(sum(p["points"]) for p in state.results.values())
    assert sum(r["league_points"] for r in rows) == awarded
    assert sum(r["played"] for r in rows) == 2 * len(state.results)
    assert sum(r["won"] for r in rows) == sum(r["lost"] for r in rows)
    assert sum(r["difference"] for r in rows) == 0
    for played in state.results.values():
        vp = played["vp"]
        if three_points:
            assert sorted(played["points"]) in ([0, 3], [1, 1])
            assert (played["points"][0] > played["points"][1]) == (vp[0] > vp[1])
        else:
            assert played["points"] == vp
    points = [r["league_points"] for r in rows]
    assert points == sorted(points, reverse=True)
    assert [r["rank"] for r in rows] == list(range(1, n + 1))  # "seed" is the last tie-break: no tie


@settings(max_examples=30, deadline=None)
@given(
    sizes=st.lists(st.integers(4, 8), min_size=1, max_size=4),
    places=st.integers(0, 2),
    seed=st.integers(0, 10_000),
)
def test_next_season_carries_every_entry_once_and_keeps_the_groups_sizes(sizes, places, seed):
    rng = random.Random(seed)
    groups, count = [], 0
    for size in sizes:
        entries = [{"entry": f"g{count + i}", "players": [f"P{count + i}"]} for i in range(size)]
        count += size
        record = {"header": {"entries": entries, "promotion": places, "relegation": places}, "events": []}
        for f in fold_league(record).fixtures.values():
            record["events"].append(_result(f.id, [rng.randrange(0, 40) * 25, rng.randrange(0, 40) * 25]))
        groups.append(fold_league(record))
    after = next_season(groups)
    assert sorted(e for g in after for e in g) == sorted(f"g{i}" for i in range(count))
    assert [len(g) for g in after] == sizes  # as many go up as come down between two groups
    if len(sizes) > 1:
        assert set(after[0]) != {e["entry"] for e in groups[0].header["entries"]} or places == 0
    for i, state in enumerate(groups):
        out = league_json(state)
        if i > 0:
            assert set(out["promoted"]) <= set(after[i - 1])
        if i < len(groups) - 1:
            assert set(out["relegated"]) <= set(after[i + 1])


def test_next_season_refuses_an_unfinished_group_or_a_tie_on_a_line():
    record = _league(4, promotion=1)
    with pytest.raises(TournamentError) as err:
        next_season([fold_league(record)])
    assert err.value.code == "league_unfinished" and err.value.params["group"] == 1
    # every match drawn, no tie-break but the points: all four share rank 1, across the line
    drawn = _league(4, promotion=1, tie_breaks=["difference"])
    for f in fold_league(drawn).fixtures.values():
        drawn["events"].append(_result(f.id, [500, 500]))
    out = league_json(fold_league(drawn))
    assert out["finished"] and out["undecided"] == ["t0", "t1", "t2", "t3"] and out["promoted"] == []
    assert {r["rank"] for r in out["table"]} == {1}
    with pytest.raises(TournamentError) as err:
        next_season([fold_league(drawn)])
    assert err.value.code == "league_unfinished"


def test_hand_lines_are_checked_and_dtm_counts_vp_per_hand_with_three_points_a_win():
    record = _league(2, scoring="dtm", hands=2, match_points={"win": 3, "draw": 1, "loss": 0})
    mid = next(iter(fold_league(record).fixtures))
    win = {"points": [100, 0], "double_victory": 0}
    lines = [win, {"points": [40, 60], "double_victory": None}]
    out = league_json(fold_league({**record, "events": [{"type": "match_result", "match": mid, "hands": lines}]}))
    m = out["rounds"][0]["matches"][0]
    assert m["vp"] == [3, 2] and m["points"] == [3, 0] and m["score"] == [140, 60]
    bad = {"type": "match_result", "match": mid, "hands": [win, {"points": [45, 60], "double_victory": None}]}
    assert _refused(record, bad).params["rule"] == "line_sum"
    short = {"type": "match_result", "match": mid, "hands": [win]}
    assert _refused(record, short).params["rule"] == "hand_count"
    wrong_vp = {"type": "match_result", "match": mid, "hands": lines, "vp": [2, 3]}
    assert _refused(record, wrong_vp).params["rule"] == "vp_mismatch"


def test_refusals_have_their_codes():
    record = _league(4, events=[_result("R1-1", [600, 400])])
    state = fold_league(record)
    home, away = state.fixtures["R1-1"].sides
    assert _refused(record, _result("R9-1", [1, 2])).code == "unknown_match"
    assert _refused(record, _result("R1-1", [1, 2])).code == "result_exists"
    assert _refused(record, {"type": "match_corrected", "match": "R1-2", "score": [1, 2], "reason": "x"}).code == (
        "no_result"
    )
    assert _refused(record, {"type": "match_corrected", "match": "R1-1", "score": [1, 2]}).code == "reason_required"
    wrong = _refused(record, _result("R1-2", [600, 400], sides=[away, state.fixtures["R1-2"].sides[0]]))
    assert (wrong.code, wrong.params["rule"]) == ("result_invalid", "league_sides")
    swapped = state.fixtures["R1-2"].sides
    assert _refused(record, _result("R1-2", [1, 2], sides=[swapped[1], swapped[0]])).params["rule"] == "league_sides"
    assert _refused(record, _result("R1-2", [1, 2], date="2027-02-30")).params["rule"] == "league_date"
    assert _refused(record, _result("R1-2", [1, 2], vp=[2, 0])).params["rule"] == "vp_computed"
    assert _refused(record, {"type": "match_result", "match": "R1-2"}).params["rule"] == "hands_or_score"
    assert _refused(record, {"type": "match_played", "match": "R1-2"}).params["rule"] == "league_event"
    assert _refused(record, _result("R1-2", [1, 2], reason=["x"])).params["rule"] == "league_event"
    huge = _refused(record, _result("R1-2", [10**30, 0]))
    assert (huge.code, huge.params["rule"], huge.params["field"]) == ("malformed", "number_out_of_range", "score")
    assert _refused(record, {"type": "match_scheduled", "match": "R1-1", "date": "2027-03-01"}).code == "result_exists"
    # the sides as written, the right way round, are taken
    ok = fold_league({**record, "events": [*record["events"], _result("R1-2", [1, 2], sides=list(swapped))]})
    assert ok.results["R1-2"]["score"] == [1, 2]
    assert {home, away} <= {r["entry"] for r in table(ok)}


@pytest.mark.parametrize(
    ("header", "code", "rule"),
    [
        ({"entries": _entries(1)}, "malformed", "league_entries"),
        ({"entries": _entries(3), "legs": 3}, "malformed", "league_header"),
        ({"entries": _entries(3), "scoring": "matchpoints"}, "malformed", "league_header"),
        ({"entries": _entries(3), "promotion": 2, "relegation": 2}, "places_invalid", "league_places"),
        ({"entries": [*_entries(3), _entries(1)[0]]}, "entry_exists", "league_twice"),
        ({"entries": [*_entries(2), {"entry": "x", "players": ["A0"]}]}, "entry_exists", "league_player_taken"),
        ({"entries": _entries(41)}, "too_many_entries", "league"),
        ({"entries": _entries(4), "dates": ["2027-01-01"]}, "malformed", "league_dates"),
        ({"entries": _entries(4), "scoring": "dtm", "target": 1000}, "malformed", "league_dtm_hands"),
        ({"entries": _entries(4), "match_points": {"win": 3, "draw": 1}}, "malformed", "league_header"),
    ],
)
def test_a_header_the_league_refuses(header, code, rule):
    with pytest.raises(TournamentError) as err:
        parse_league_header(header)
    assert (err.value.code, err.value.params.get("rule")) == (code, rule)


def test_dates_an_evening_a_round_and_the_teams_own_date():
    dates = ["2027-01-11", "2027-01-18", "2027-01-25"]
    record = _league(4, dates=dates)
    moved = {"type": "match_scheduled", "match": "R2-1", "date": "2027-01-20", "reason": "t1 away that week"}
    record["events"] = [moved, _result("R1-1", [500, 400], date="2027-01-12")]
    state = fold_league(record)
    assert state.date_of("R1-1") == "2027-01-12" and state.date_of("R1-2") == "2027-01-11"
    assert state.date_of("R2-1") == "2027-01-20" and state.date_of("R3-2") == "2027-01-25"
    assert [h["type"] for h in state.history] == ["match_scheduled", "match_result"]


def test_the_league_event_types():
    assert LEAGUE_EVENT_TYPES == ("match_result", "match_corrected", "match_scheduled")


# --- the command line -------------------------------------------------------------------------


def run(*args):
    result = subprocess.run(
        [sys.executable, "-m", "games.tournament", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return result.returncode, json.loads(result.stdout)


def test_the_command_line_appends_folds_and_carries_to_next_season(tmp_path):
    top, bottom = tmp_path / "top.json", tmp_path / "bottom.json"
    top.write_text(json.dumps(_league(3, relegation=1)))
    entries = [{"entry": f"u{i}", "players": [f"U{i}"]} for i in range(3)]
    bottom.write_text(json.dumps({"header": {"entries": entries, "promotion": 1}, "events": []}))
    for path in (top, bottom):
        for f in fold_league(json.loads(path.read_text())).fixtures.values():
            code, out = run("league-append", str(path), json.dumps(_result(f.id, [300 + len(f.id), 200])))
            assert code == 0 and out["ok"]
    code, out = run("league", str(top))
    assert code == 0 and out == json.loads(json.dumps(league_json(fold_league(json.loads(top.read_text())))))
    assert out["finished"] and len(out["relegated"]) == 1
    code, out = run("league", str(top), "--at", "1")
    assert code == 0 and out["played"] == 1
    code, out = run("league-next", str(top), str(bottom))
    assert code == 0 and sorted(map(len, out["groups"])) == [3, 3]
    before = top.read_text()
    code, out = run("league-append", str(top), json.dumps(_result("R1-1", [1, 2])))
    assert code == 1 and out["error"]["code"] == "result_exists" and out["index"] == 3
    assert top.read_text() == before  # a refused event leaves the file as it was
    code, out = run("league-append", str(top), json.dumps({"type": "match_result"}))
    assert code == 2 and out["error"]["code"] == "malformed"


# --- docs/tournament.md, "Leagues" ------------------------------------------------------------

DOC = (ROOT / "docs" / "tournament.md").read_text()
SECTION = DOC[DOC.index("## Leagues") : DOC.index("## Error codes")]


def test_the_documented_league_folds_as_the_document_says():
    record = json.loads(SECTION.split("```json\n", 1)[1].split("```", 1)[0])
    for event_type in LEAGUE_EVENT_TYPES:
        assert f"| `{event_type}` |" in SECTION
    early = league_json(fold_league(record, 12))
    assert [(r["entry"], r["league_points"]) for r in early["table"]] == [
        ("hares", 12),
        ("foxes", 9),
        ("owls", 9),
        ("bears", 3),
    ]
    assert (early["table"][1]["difference"], early["table"][2]["difference"]) == (895, 50)
    assert early["finished"] is False and early["promoted"] is None
    state = fold_league(record)
    out = league_json(state)
    assert [(r["entry"], r["league_points"], r["difference"]) for r in out["table"]] == [
        ("foxes", 12, 1095),
        ("hares", 12, 315),
        ("owls", 9, 50),
        ("bears", 3, -1460),
    ]
    assert out["promoted"] == ["foxes"] and out["relegated"] == ["bears"]
    assert state.date_of("R4-1") == "2027-03-02" and state.date_of("R4-2") == "2027-02-23"
    fixtures_line = "round 4 (2027-02-23): R4-1 Bears - Hares, R4-2 Foxes - Owls"
    assert fixtures_line in SECTION
    r4 = out["rounds"][3]["matches"]
    assert [(m["home"], m["away"]) for m in r4] == [("bears", "hares"), ("foxes", "owls")]
    south = {
        "header": {
            "entries": [
                {"entry": "crows", "players": ["Ida", "Jon"]},
                {"entry": "moles", "players": ["Kim", "Lea"]},
                {"entry": "seals", "players": ["Max", "Nia"]},
            ],
            "scoring": "box",
            "promotion": 1,
        },
        "events": [_result("R1-1", [1000, 400]), _result("R2-1", [1010, 900]), _result("R3-1", [300, 1000])],
    }
    groups = next_season([state, fold_league(south)])
    assert groups == [["foxes", "hares", "owls", "seals"], ["bears", "crows", "moles"]]
    assert json.dumps(groups) in SECTION.replace("\n  ", " ")
    with pytest.raises(TournamentError) as err:
        next_season([fold_league(record, 12), fold_league(south)])
    assert err.value.code == "league_unfinished" and err.value.params["group"] == 1


_EVENT = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["match_result", "match_corrected", "match_scheduled", "match_played"]),
        "match": st.sampled_from(["R1-1", "R1-2", "R2-1", "R3-2", "R9-1", 3]),
    },
    optional={
        "score": st.lists(st.integers(-100, 1500), min_size=2, max_size=2),
        "reason": st.sampled_from(["", "sheet", 7]),
        "date": st.sampled_from(["2027-01-12", "2027-02-30", "soon"]),
        "sides": st.sampled_from([["t0", "t1"], ["t1", "t0"], ["t3", "t2"]]),
    },
)


@settings(max_examples=60, deadline=None)
@given(events=st.lists(_EVENT, max_size=12))
def test_a_refused_event_changes_nothing_and_the_accepted_ones_fold_alike(events):
    """Any event, well formed or not: either it is applied, or it raises a coded refusal and the
    league is as it was; the accepted events, folded again as a record, give the same league."""
    state = fold_league(_league(4))
    accepted = []
    for event in events:
        before = copy.deepcopy((state.results, state.scheduled, state.history, state.events_applied))
        try:
            state.apply(event)
        except TournamentError as err:
            assert err.code in core_codes()
            assert (state.results, state.scheduled, state.history, state.events_applied) == before
        else:
            accepted.append(event)
    again = fold_league(_league(4, events=accepted))
    assert league_json(again) == league_json(state)


def core_codes() -> set[str]:
    from games.tournament import CODES

    return set(CODES)


# --- a match from its game: the game's lines now, never a second score ---------------------------

_LINES = st.lists(
    st.tuples(st.integers(-25, 125).map(lambda a: a - a % 5), st.sampled_from([None, 0, 1])).map(
        lambda t: {"points": [0, 0] if t[1] is not None else [t[0], 100 - t[0]], "double_victory": t[1]}
    ),
    min_size=4,
    max_size=4,
)


@settings(max_examples=60, deadline=None)
@given(lines=_LINES, stale=_LINES)
def test_a_linked_match_is_its_games_lines_now_whatever_the_event_carries(lines, stale):
    """A result naming game 7 counts as game 7's lines given to the fold, never as the lines the
    event itself carries (a copy an older site stored); the same lines typed on paper give the
    same match."""
    header = {"scoring": "round_vp", "hands": 4}
    linked = fold_league(
        _league(4, [{"type": "match_result", "match": "R1-1", "game": 7, "hands": stale}], **header),
        game_lines={7: lines},
    )
    paper = fold_league(_league(4, [{"type": "match_result", "match": "R1-1", "hands": lines}], **header))
    got, want = linked.results["R1-1"], paper.results["R1-1"]
    assert got["from_game"] and {k: got[k] for k in ("score", "vp", "points", "hands")} == {
        k: want[k] for k in ("score", "vp", "points", "hands")
    }
    assert table(linked) == table(paper)


def test_a_match_whose_game_gives_no_result_now_counts_nowhere():
    """Not over, held back or reopened (None), or lines the preset cannot take (five hands in a
    four-hand match): shown as game_open with its game, no score, nothing in the table, and the
    league not finished; its correction is still a correction."""
    header = {"scoring": "round_vp", "hands": 4}
    four = [{"points": [50, 50], "double_victory": None}] * 4
    for lines in (None, four + four[:1]):
        state = fold_league(
            _league(2, [{"type": "match_result", "match": "R1-1", "game": 7}], **header), game_lines={7: lines}
        )
        match = league_json(state)["rounds"][0]["matches"][0]
        assert match["game_open"] and match["game"] == 7 and "score" not in match
        assert league_json(state)["played"] == 0 and not state.finished
        assert all(row["played"] == 0 and row["league_points"] == 0 for row in table(state))
        with pytest.raises(TournamentError) as err:
            state.apply({"type": "match_result", "match": "R1-1", "score": [1, 2]})
        assert err.value.code == "result_exists"
    done = fold_league(
        _league(2, [{"type": "match_result", "match": "R1-1", "game": 7}], **header), game_lines={7: four}
    )
    assert done.finished and league_json(done)["played"] == 1
