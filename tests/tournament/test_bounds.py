"""The core's bounds (games.tournament.limits, docs/tournament.md "Bounds"): every number an event
brings in is finite and bounded, so any stream the core accepts folds and its standings serialise;
a tournament's entries, rounds and boards are bounded, refused with a coded error naming the bound;
registering entries costs linear time."""

from __future__ import annotations

import json
import math
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import tournament as core
from games.tournament import (
    TournamentError,
    check_incoming,
    crosstable_json,
    new_tournament,
    propose,
    rounds_json,
    standings_json,
)
from tests.tournament.play import random_result


def accepted(state: core.TournamentState, event: dict) -> bool:
    """What the service does with an event coming in: the incoming check, then the fold."""
    try:
        check_incoming(event)
        state.apply(event)
    except TournamentError:
        return False
    return True


def serialised(state: core.TournamentState) -> str:
    """Every read of the state as strict JSON (no NaN, no infinity): what the API, the exports and
    the pages render."""
    body = {"standings": standings_json(state), "crosstable": crosstable_json(state), "rounds": rounds_json(state)}
    return json.dumps(body, allow_nan=False)


def test_two_huge_adjustments_are_refused_and_the_standings_still_serialise():
    """Issue 30 finding 7: two score_adjusted of vp 1e308 were each accepted, and then every
    reading of the tournament overflowed for good."""
    t = new_tournament({"rounds": 2})
    for i in range(4):
        t.apply({"type": "entry_registered", "entry": f"p{i}", "players": [f"A{i}", f"B{i}"]})
    for _ in range(2):
        event = {"type": "score_adjusted", "entry": "p0", "vp": 1e308, "reason": "probe"}
        with pytest.raises(TournamentError) as err:
            check_incoming(event)
        assert err.value.code == "malformed" and err.value.params["rule"] == "number_out_of_range"
        assert err.value.params["field"] == "vp" and err.value.params["limit"] == core.MAX_VP
        assert str(core.MAX_VP) in err.value.message
    assert accepted(t, {"type": "score_adjusted", "entry": "p0", "vp": -core.MAX_VP, "reason": "penalty"})
    assert accepted(t, {"type": "score_adjusted", "entry": "p0", "points": core.MAX_POINTS, "reason": "bonus"})
    serialised(t)


@pytest.mark.parametrize(
    "event, field",
    [
        ({"type": "score_adjusted", "entry": "p0", "points": 10**30, "reason": "r"}, "points"),
        ({"type": "score_adjusted", "entry": "p0", "vp": 10**400, "reason": "r"}, "vp"),
        ({"type": "result_recorded", "round": 1, "table": 1, "hands": [[10**20, 0]]}, "hands"),
        ({"type": "result_recorded", "round": 1, "table": 1, "score": [0, -(10**6)]}, "score"),
        ({"type": "result_recorded", "round": 1, "table": 1, "score": [0, 0], "vp": [1e300, 0]}, "vp"),
        ({"type": "round_closed", "round": 10**12}, "round"),
        ({"type": "result_confirmed", "round": 1, "table": 10**9}, "table"),
        ({"type": "round_paired", "round": 1, "tables": [{"table": 10**9, "sides": [["a"], ["b"]]}]}, "tables"),
        ({"type": "entry_registered", "entry": "x", "players": [2**64, 1]}, "players"),
    ],
)
def test_every_numeric_field_is_bounded(event, field):
    with pytest.raises(TournamentError) as err:
        check_incoming(event)
    assert (err.value.code, err.value.params["rule"], err.value.params["field"]) == (
        "malformed",
        "number_out_of_range",
        field,
    )
    assert len(err.value.message) < 300  # a huge number is named short


@pytest.mark.parametrize(
    "header, rule",
    [
        ({"rounds": core.MAX_ROUNDS + 1}, "integer"),
        ({"rounds": 3, "hands_per_round": core.MAX_HANDS_PER_ROUND + 1}, "integer"),
        ({"rounds": 3, "scoring": "box", "target": core.MAX_TARGET + 1}, "integer"),
        ({"rounds": 3, "seed": 2**64}, "seed"),
        ({"rounds": 3, "policy": {"bye": {"points": 10**9}}}, "bye_points"),
        ({"system": "duplicate", "scoring": "matchpoints", "rounds": 20, "hands_per_round": 30}, "too_many_boards"),
    ],
)
def test_the_header_is_bounded(header, rule):
    with pytest.raises(TournamentError) as err:
        new_tournament(header)
    assert err.value.code == "malformed" and err.value.params["rule"] == rule


def test_entries_are_bounded_with_a_coded_error_naming_the_bound():
    t = new_tournament({"rounds": 1, "system": "manual"})
    for i in range(core.MAX_ENTRIES):
        t.apply({"type": "entry_registered", "entry": f"p{i}", "players": [f"A{i}", f"B{i}"]})
    with pytest.raises(TournamentError) as err:
        t.apply({"type": "entry_registered", "entry": "one-more", "players": ["X", "Y"]})
    assert err.value.code == "too_many_entries" and err.value.params["limit"] == core.MAX_ENTRIES
    assert str(core.MAX_ENTRIES) in err.value.message
    assert len(t.entries) == core.MAX_ENTRIES  # the refused event changed nothing


def test_registering_entries_costs_linear_time():
    """The players already taken were rebuilt from every entry at each registration (O(n^2)):
    registering the most entries must cost about what ten times fewer cost, times ten."""

    def cost(n: int) -> float:
        best = math.inf
        for _ in range(3):
            t = new_tournament({"rounds": 1, "system": "manual", "entrants": "individuals"})
            start = time.perf_counter()
            for i in range(n):
                t.apply({"type": "entry_registered", "entry": f"p{i}", "players": [f"P{i}"]})
            best = min(best, time.perf_counter() - start)
        return best

    small, large = cost(core.MAX_ENTRIES // 10), cost(core.MAX_ENTRIES)
    assert large < 10 * small * 3, (small, large)


def test_withdrawal_and_reentry_keep_the_players_taken():
    t = new_tournament({"rounds": 1, "system": "manual"})
    t.apply({"type": "entry_registered", "entry": "a", "players": ["X", "Y"]})
    t.apply({"type": "entry_withdrawn", "entry": "a"})
    t.apply({"type": "entry_registered", "entry": "b", "players": ["X", "Z"]})  # X is free again
    with pytest.raises(TournamentError) as err:
        t.apply({"type": "entry_reentered", "entry": "a"})
    assert err.value.params["rule"] == "player_taken_since"
    t.apply({"type": "entry_withdrawn", "entry": "b"})
    t.apply({"type": "entry_reentered", "entry": "a"})
    with pytest.raises(TournamentError) as err:
        t.apply({"type": "entry_registered", "entry": "c", "players": ["Y", "W"]})
    assert err.value.params["rule"] == "player_taken"


# --- any accepted stream folds and serialises -----------------------------------------------------

NUMBERS = st.one_of(
    st.integers(-(10**25), 10**25),
    st.sampled_from([0, 1, -1, core.MAX_VP, core.MAX_POINTS, -core.MAX_POINTS, 10**308, -(10**308)]),
    st.floats(allow_nan=True, allow_infinity=True),
)


def hostile(draw, state: core.TournamentState, rng: random.Random) -> dict:
    """An event a client might send at this point: mostly sensible, with numbers from anywhere."""
    entries = sorted(state.entries) or ["nobody"]
    rnd = state.current_round
    kind = draw(st.sampled_from(["adjust", "adjust", "result", "result", "pair", "close", "correct"]))
    if kind == "adjust":
        event = {"type": "score_adjusted", "entry": draw(st.sampled_from(entries)), "reason": "r"}
        for field in draw(st.sets(st.sampled_from(["vp", "points"]), min_size=1)):
            event[field] = draw(NUMBERS)
        return event
    if kind == "pair":
        try:
            return propose(state).event()
        except TournamentError:
            return {"type": "tournament_finished"}
    if rnd is None:
        return {"type": "round_closed", "round": 1}
    if kind == "close":
        return {"type": "round_closed", "round": rnd.number}
    table = draw(st.sampled_from(sorted(rnd.tables)))
    hands = state.header["hands_per_round"] or 4
    lines = random_result(rng, hands)
    if draw(st.booleans()):
        lines[0]["points"] = [draw(NUMBERS), draw(NUMBERS)]
    event = {"type": "result_recorded", "round": rnd.number, "table": table, "hands": lines}
    if state.preset.unit == "hand" and draw(st.booleans()):
        event = {
            "type": "result_recorded",
            "round": rnd.number,
            "table": table,
            "score": [draw(NUMBERS), draw(NUMBERS)],
            "vp": [draw(NUMBERS), draw(NUMBERS)],
        }
    if kind == "correct":
        event = {**event, "type": "result_corrected", "reason": "r"}
    return event


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    scoring=st.sampled_from(["dtm", "round_vp", "box", "points"]),
    n=st.integers(2, 7),
    seed=st.integers(0, 10**6),
)
def test_any_accepted_stream_folds_and_its_standings_serialise(data, scoring, n, seed):
    header = {
        "rounds": 3,
        "scoring": scoring,
        "seed": seed,
        "tiebreaks": ["points", "difference", "buchholz", "head_to_head", "lots"],
    }
    state = new_tournament(header)
    events = []
    for i in range(n):
        event = {"type": "entry_registered", "entry": f"p{i}", "players": [f"A{i}", f"B{i}"]}
        assert accepted(state, event)
        events.append(event)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(1, 25))):
        if state.finished:
            break
        event = hostile(data.draw, state, rng)
        if accepted(state, event):
            events.append(event)
    text = serialised(state)
    # the stream as stored folds again to the same standings (what every later read does)
    again = core.fold({"header": header, "events": events})
    assert serialised(again) == text
    for row in standings_json(state)["standings"]:
        assert all(math.isfinite(row[k]) for k in ("vp", "points", "against", "difference"))


def pairwise_matchpoints(results: list) -> list:
    """The definition, compared pair by pair (O(n^2)): what matchpoints() computes by sorting."""
    from fractions import Fraction

    from games.tournament.duplicate import ADJUSTMENTS

    scored = [r for r in results if isinstance(r, int)]
    top = Fraction(max(len(results) - 1, 0))
    out = []
    for r in results:
        if not isinstance(r, int):
            out.append((top * ADJUSTMENTS[r], top * ADJUSTMENTS[r]))
            continue
        others = list(scored)
        others.remove(r)
        raw = sum((Fraction(1) if r > o else Fraction(1, 2) if r == o else Fraction(0)) for o in others)
        ns = raw if len(others) == top else (raw * top / len(others) if others else top / 2)
        out.append((ns, top - ns))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(-40, 40), st.sampled_from(["AVG", "AVG+", "AVG-"])), max_size=30))
def test_matchpoints_by_sorting_equal_the_pairwise_definition(results):
    """A board at the bounds has 250 results: matchpoints are counted on the sorted results
    (O(n log n)), which must give exactly the pairwise count."""
    from games.tournament.duplicate import matchpoints

    assert matchpoints(results) == pairwise_matchpoints(results)


def test_a_pairing_leaving_out_many_entries_lists_ten_of_them():
    """An error's size does not grow with the field: the entries left out are counted, ten named."""
    t = new_tournament({"rounds": 1, "system": "manual"})
    for i in range(core.MAX_ENTRIES):
        t.apply({"type": "entry_registered", "entry": f"entry-{i}-" + "x" * 150, "players": [f"A{i}", f"B{i}"]})
    first = sorted(t.entries)[:2]
    with pytest.raises(TournamentError) as err:
        t.apply({"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": [[first[0]], [first[1]]]}]})
    assert err.value.code == "entry_missing" and err.value.params["count"] == core.MAX_ENTRIES - 2
    assert len(err.value.params["entries"]) == 10 and len(json.dumps(err.value.as_dict())) < 5000


def test_the_command_line_reads_a_files_events_as_coming_in(tmp_path, capsys):
    """A file with a 1e308 adjustment: exit 2 (malformed) naming the event, not an overflow."""
    from games.tournament.cli import main

    events = [{"type": "entry_registered", "entry": f"p{i}", "players": [f"A{i}", f"B{i}"]} for i in range(4)]
    events += [{"type": "score_adjusted", "entry": "p0", "vp": 1e308, "reason": "x"}] * 2
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"header": {"rounds": 2}, "events": events}))
    assert main(["standings", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["index"] == 4 and out["error"]["params"]["rule"] == "number_out_of_range"
