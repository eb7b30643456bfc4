"""Scoring presets and the worked examples of ../shared/guides/tournaments.md (section 2)."""

from __future__ import annotations

import pytest

from games.tournament import TournamentError, engine_options, fold, hand_vp, parse_header, standings_json

from .play import header, register


def one_table(scoring, result, n_entrants="pairs", **kw):
    """Two pairs (or four individuals) at one table, round 1, with ``result``."""
    entrants = n_entrants
    n = 2 if entrants == "pairs" else 4
    sides = [["e0"], ["e1"]] if entrants == "pairs" else [["e0", "e2"], ["e1", "e3"]]
    system = "swiss" if entrants == "pairs" else "individual"
    record = {
        "header": header(scoring=scoring, entrants=entrants, system=system, rounds=1, **kw),
        "events": register(n, entrants)
        + [
            {"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": sides}], "byes": []},
            dict({"type": "result_recorded", "round": 1, "table": 1}, **result),
        ],
    }
    return {r["entry"]: r for r in standings_json(fold(record))["standings"]}


def test_dtm_worked_example_30_70_with_a_made_tichu_is_130_70_and_2_vp():
    # ATP rules: "30:70 trick points + successful Tichu -> 130:70 -> 2 VP"
    assert hand_vp(30 + 100, 70, None) == (2, 0)
    rows = one_table("dtm", {"hands": [{"points": [130, 70]}]}, hands_per_round=1)
    assert (rows["e0"]["vp"], rows["e0"]["points"], rows["e1"]["vp"], rows["e1"]["points"]) == (2, 130, 0, 70)


@pytest.mark.parametrize(
    "line,vp",
    [
        ([70, 30], (2, 0)),
        ([55, 45], (2, 0)),
        ([50, 50], (1, 1)),
        ([100, 100], (1, 1)),
        ([0, 0], (1, 1)),
        ([45, 55], (0, 2)),
        ([-100, 0], (0, 2)),
    ],
)
def test_dtm_hand_vp(line, vp):
    assert hand_vp(*line, None) == vp


def test_dtm_double_victory_is_3_vp_and_worth_100():
    assert hand_vp(100, 0, 0) == (3, 0)
    assert hand_vp(0, 100, 1) == (0, 3)
    rows = one_table(
        "dtm",
        {
            "hands": [
                {"points": [100, 0], "double_victory": 0},
                {"points": [30, 70]},
                {"points": [50, 50]},
                {"points": [0, 200], "double_victory": 1},
            ]
        },
    )
    assert rows["e0"]["vp"] == 3 + 0 + 1 + 0 and rows["e1"]["vp"] == 0 + 2 + 1 + 3
    assert rows["e0"]["points"] == 180 and rows["e1"]["points"] == 320


def test_dtm_for_individuals_every_player_takes_the_side_score():
    rows = one_table("dtm", {"hands": [[130, 70], [20, 80]]}, n_entrants="individuals", hands_per_round=2)
    assert rows["e0"]["vp"] == rows["e2"]["vp"] == 2 and rows["e1"]["vp"] == rows["e3"]["vp"] == 2
    assert rows["e0"]["points"] == rows["e2"]["points"] == 150


def test_dtm_paper_sheet_vp_are_counted_from_its_hands_never_taken():
    hands = [[130, 70], [0, 100], [50, 50], {"points": [0, 200], "double_victory": 1}]
    rows = one_table("dtm", {"hands": hands, "vp": [3, 6]})
    assert rows["e0"]["vp"] == 2 + 0 + 1 + 0 and rows["e1"]["vp"] == 0 + 2 + 1 + 3
    with pytest.raises(TournamentError) as info:  # 20:0 typed from 4 hands: not what the lines give
        one_table("dtm", {"hands": hands, "vp": [5, 3]})
    assert info.value.code == "result_invalid" and info.value.params == {
        "written": "5:3",
        "counted": "3:6",
        "rule": "vp_mismatch",
    }
    with pytest.raises(TournamentError) as info:  # VP alone are not a result: nothing to count them from
        one_table("dtm", {"score": [330, 470], "vp": [3, 5]})
    assert info.value.params["rule"] == "dtm_lines"


def test_dtm_refuses_a_score_line_without_hands_or_vp():
    with pytest.raises(TournamentError) as info:
        one_table("dtm", {"score": [330, 470]})
    assert info.value.code == "result_invalid"


def test_dtm_ties_on_vp_broken_by_tichu_points():
    rows = one_table("dtm", {"hands": [[125, 75], [0, 100]]}, hands_per_round=2)
    assert rows["e0"]["vp"] == rows["e1"]["vp"] == 2
    assert (rows["e0"]["points"], rows["e1"]["points"]) == (125, 175)
    assert rows["e1"]["rank"] == 1 and rows["e0"]["rank"] == 2
    assert parse_header({"scoring": "dtm", "rounds": 6})["tiebreaks"][0] == "points"


@pytest.mark.parametrize("score,vp", [([400, 350], (2, 0)), ([300, 300], (1, 1)), ([-50, 20], (0, 2))])
def test_round_vp(score, vp):
    rows = one_table("round_vp", {"score": score})
    assert (rows["e0"]["vp"], rows["e1"]["vp"]) == vp
    assert rows["e0"]["difference"] == score[0] - score[1]


def test_round_vp_ties_by_point_difference():
    assert parse_header({"scoring": "round_vp", "rounds": 3})["tiebreaks"][0] == "difference"


@pytest.mark.parametrize("score,vp", [([1020, 640], (2, 0)), ([900, 1005], (0, 2))])
def test_box_game_to_target(score, vp):
    rows = one_table("box", {"score": score})
    assert (rows["e0"]["vp"], rows["e1"]["vp"]) == vp
    assert parse_header({"scoring": "box", "rounds": 3})["target"] == 1000


def test_points_preset_ranks_by_tichu_points():
    rows = one_table("points", {"score": [280, 320]})
    assert rows["e0"]["vp"] == rows["e1"]["vp"] == 0
    assert rows["e1"]["rank"] == 1 and rows["e0"]["rank"] == 2


def test_vp_only_for_dtm():
    with pytest.raises(TournamentError) as info:
        one_table("round_vp", {"score": [1, 2], "vp": [0, 2]})
    assert info.value.code == "result_invalid"


def test_engine_options_of_the_presets():
    dtm = engine_options(parse_header({"scoring": "dtm", "rounds": 6}))
    assert dtm == {"hands": 4, "grand_tichu": False, "double_victory_points": 100, "keep_last_dragon_trick": True}
    assert engine_options(parse_header({"scoring": "box", "rounds": 3})) == {"target_score": 1000}
    assert engine_options(parse_header({"scoring": "round_vp", "rounds": 3, "hands_per_round": 8})) == {"hands": 8}


def test_buchholz_counts_opponents_and_a_virtual_opponent_for_the_bye():
    h = header(rounds=2, tiebreaks=["buchholz"], policy={"bye": {"result": "win", "points": 0}})
    record = {
        "header": h,
        "events": register(3)
        + [
            {"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}], "byes": ["e2"]},
            {"type": "result_recorded", "round": 1, "table": 1, "score": [300, 100]},
            {"type": "round_closed", "round": 1},
            {"type": "round_paired", "round": 2, "tables": [{"table": 1, "sides": [["e2"], ["e0"]]}], "byes": ["e1"]},
            {"type": "result_recorded", "round": 2, "table": 1, "score": [200, 250]},
            {"type": "round_closed", "round": 2},
        ],
    }
    rows = {r["entry"]: r for r in standings_json(fold(record))["standings"]}
    assert (rows["e0"]["vp"], rows["e1"]["vp"], rows["e2"]["vp"]) == (4, 2, 2)
    # e0 met e1 (2 VP) and e2 (2 VP)
    assert rows["e0"]["buchholz"] == 4
    # e1 met e0 (4); its bye in round 2: virtual opponent = own 0 before + reverse of a win (0) + no later round
    assert rows["e1"]["buchholz"] == 4 + 0
    # e2's bye in round 1: 0 before + 0 (reverse of the win) + a draw (1) for the one later round; then met e0 (4)
    assert rows["e2"]["buchholz"] == 1 + 4


def test_head_to_head_splits_a_tie():
    h = header(rounds=3, tiebreaks=["head_to_head", "lots"], seed=1)
    record = {
        "header": h,
        "events": register(4)
        + [
            {
                "type": "round_paired",
                "round": 1,
                "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}, {"table": 2, "sides": [["e2"], ["e3"]]}],
                "byes": [],
            },
            {"type": "result_recorded", "round": 1, "table": 1, "score": [300, 100]},
            {"type": "result_recorded", "round": 1, "table": 2, "score": [300, 100]},
            {"type": "round_closed", "round": 1},
            {
                "type": "round_paired",
                "round": 2,
                "tables": [{"table": 1, "sides": [["e0"], ["e2"]]}, {"table": 2, "sides": [["e1"], ["e3"]]}],
                "byes": [],
            },
            {"type": "result_recorded", "round": 2, "table": 1, "score": [100, 300]},
            {"type": "result_recorded", "round": 2, "table": 2, "score": [300, 100]},
            {"type": "round_closed", "round": 2},
        ],
    }
    rows = {r["entry"]: r for r in standings_json(fold(record))["standings"]}
    # e0, e1, e2 have 2, 2, 4 VP... e0 and e1 tied on 2: e0 beat e1 head to head
    assert rows["e2"]["rank"] == 1
    assert rows["e0"]["vp"] == rows["e1"]["vp"] == 2
    assert rows["e0"]["rank"] < rows["e1"]["rank"]
