"""Duplicate Tichu wired into the tournament fold: the system `duplicate` pairs each round from the
movement, results are a line per board, standings are matchpoints (AVG adjustments included),
Grand Tichu is off unless the TD turns it on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import (
    TournamentError,
    boards_json,
    engine_options,
    new_tournament,
    parse_header,
    propose,
    standings_json,
)
from games.tournament.duplicate import matchpoints

HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 2}


def field(n: int, **header):
    t = new_tournament({**HEADER, **header})
    for i in range(1, n + 1):
        t.apply({"type": "entry_registered", "entry": f"d{i}", "players": [f"N{i}", f"S{i}"]})
    return t


def test_header_couples_the_system_and_matchpoints_and_grand_tichu_is_off():
    header = parse_header(HEADER)
    assert header["grand_tichu"] is False and header["rounds"] is None
    assert engine_options(header)["grand_tichu"] is False and engine_options(header)["hands"] == 2
    assert engine_options(parse_header({**HEADER, "grand_tichu": True}))["grand_tichu"] is True
    for bad in (
        {**HEADER, "scoring": "round_vp"},
        {**HEADER, "system": "swiss", "rounds": 3},
        {"entrants": "pairs", "system": "swiss", "rounds": 2, "grand_tichu": False},
    ):
        with pytest.raises(TournamentError) as info:
            parse_header(bad)
        assert info.value.code == "malformed"


@pytest.mark.parametrize("n", [4, 5, 7, 12])
def test_rounds_follow_the_movement_and_every_pair_plays_each_board_once(n):
    t = field(n)
    played, met = set(), set()
    while True:
        try:
            pairing = propose(t)
        except TournamentError as err:
            assert err.code == "no_more_rounds"
            break
        t.apply(pairing.event())
        assert pairing.explanation["boards"] == [2 * pairing.round - 1, 2 * pairing.round]
        for table in pairing.tables:
            (ns,), (ew,) = table["sides"]
            assert frozenset((ns, ew)) not in met
            met.add(frozenset((ns, ew)))
            for b in pairing.explanation["boards"]:
                assert (ns, b) not in played and (ew, b) not in played
                played |= {(ns, b), (ew, b)}
            t.apply(
                {
                    "type": "result_recorded",
                    "round": pairing.round,
                    "table": table["table"],
                    "hands": [[60, 40], [30, 70]],
                }
            )
        t.apply({"type": "round_closed", "round": pairing.round})
    assert len(t.rounds) == n - 1 + n % 2 and len(met) == n * (n - 1) // 2


def test_matchpoints_are_the_standings_and_adjustments_count():
    t = field(4)
    t.apply(propose(t).event())
    tables = t.rounds[0].tables
    t.apply({"type": "result_recorded", "round": 1, "table": 1, "hands": [[100, 0], {"adjustment": "AVG+"}]})
    t.apply({"type": "result_recorded", "round": 1, "table": 2, "hands": [[50, 50], [20, 80]]})
    rows = {r["entry"]: r["vp"] for r in standings_json(t)["standings"]}
    (ns1,), (ew1,) = tables[1].sides
    (ns2,), (ew2,) = tables[2].sides
    # board 1: +100 beats 0 (top 1); board 2: AVG+ gives both pairs 60 % of the top, the lone
    # scored result the average
    assert rows[ns1] == pytest.approx(1 + 0.6) and rows[ew1] == pytest.approx(0 + 0.6)
    assert rows[ns2] == pytest.approx(0 + 0.5) and rows[ew2] == pytest.approx(1 + 0.5)
    board = boards_json(t)["rounds"][0]["boards"]
    assert [b["board"] for b in board] == [1, 2] and board[0]["top"] == 1
    assert board[1]["results"][0]["adjustment"] == ["AVG+", "AVG+"]


def test_a_duplicate_result_needs_a_line_per_board_and_adjustments_are_duplicate_only():
    t = field(4)
    t.apply(propose(t).event())
    with pytest.raises(TournamentError) as info:
        t.apply({"type": "result_recorded", "round": 1, "table": 1, "hands": [[100, 0]]})
    assert info.value.code == "result_invalid"
    with pytest.raises(TournamentError) as info:
        t.apply({"type": "result_recorded", "round": 1, "table": 1, "hands": [[1, 0], {"adjustment": "AVG++"}]})
    assert info.value.code == "malformed"
    swiss = new_tournament({"entrants": "pairs", "system": "swiss", "rounds": 1, "hands_per_round": 1})
    for i in range(2):
        swiss.apply({"type": "entry_registered", "entry": f"s{i}", "players": [f"A{i}", f"B{i}"]})
    swiss.apply(propose(swiss).event())
    with pytest.raises(TournamentError) as info:
        swiss.apply({"type": "result_recorded", "round": 1, "table": 1, "hands": [{"adjustment": "AVG"}]})
    assert info.value.code == "result_invalid"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 9), data=st.data())
def test_property_standings_are_the_sum_of_the_boards_matchpoints(n, data):
    t = field(n)
    t.apply(propose(t).event())
    diffs: dict[int, list[int]] = {}
    for number in sorted(t.rounds[0].tables):
        # card points (a multiple of 5 from -25 to 125, the other side the rest of 100) and a Tichu
        # won or lost by side 0: lines a deal can end with
        drawn = [data.draw(st.tuples(st.integers(-5, 25), st.sampled_from([0, 100, -100]))) for _ in range(2)]
        lines = [(a * 5 + bonus, 100 - a * 5) for a, bonus in drawn]
        t.apply({"type": "result_recorded", "round": 1, "table": number, "hands": [list(x) for x in lines]})
        diffs[number] = [a - b for a, b in lines]
    rows = {r["entry"]: r["vp"] for r in standings_json(t)["standings"]}
    expect: dict[str, float] = {}
    order = sorted(diffs)
    for board in range(2):
        for number, (ns, ew) in zip(order, matchpoints([diffs[k][board] for k in order])):
            (a,), (b,) = t.rounds[0].tables[number].sides
            expect[a] = expect.get(a, 0) + float(ns)
            expect[b] = expect.get(b, 0) + float(ew)
    for e, v in expect.items():
        assert rows[e] == pytest.approx(v)
    top = len(diffs) - 1
    assert sum(rows.values()) == pytest.approx(2 * top * len(diffs)), "each board shares out top x tables"
