"""The engine's facts about a scored hand that the ratings read (engine.sweep_team,
engine.finishing_order_points), so that no rule is kept outside the engine."""

from __future__ import annotations

import pytest

from games import engine

SIX = list("abcdef")


@pytest.mark.parametrize(
    ("variant", "out", "team"),
    [
        ("nanking", [1, 3, 0, 2], 1),
        ("nanking", [2, 0, 3, 1], 0),
        ("nanking", [0, 1, 2, 3], None),
        ("nanking", [2], None),
        ("tientsin", [0, 2, 4, 1, 3, 5], 0),
        ("tientsin", [5, 1, 3, 0, 2, 4], 1),
        ("tientsin", [0, 2, 1, 4, 3, 5], None),  # two partners out first is no sweep with three a side
        ("threechu", [0, 1, 2], None),  # no fixed teams
        ("grand-seigneur", [0, 1, 2, 3, 4], None),
    ],
)
def test_sweep_team_names_the_team_that_went_out_first_together(variant, out, team):
    assert engine.sweep_team(variant, out) == team


@pytest.mark.parametrize("variant,players", [("nanking", None), ("tientsin", SIX)])
def test_a_sweep_takes_the_hands_card_points_and_nothing_else_does(variant, players):
    sweeps = 0
    for seed in range(12):
        score = engine.score_json(engine.fold(engine.bot.random_record(seed, variant, players=players)))
        for hand in score["hands"]:
            if hand.get("kind") != "cards":
                continue
            team = engine.sweep_team(variant, hand["out"])
            cards = hand["card_points"]
            if team is not None:
                sweeps += 1
                assert cards[team] > 0 and all(c == 0 for t, c in enumerate(cards) if t != team), hand
    assert sweeps > 0, "the bot games hold double victories"


@pytest.mark.parametrize("size", [5, 7, 9])
def test_finishing_order_points_are_grand_seigneurs_ranks_scoring(size):
    for seed in range(4):
        record = engine.bot.random_record(
            seed,
            "grand-seigneur",
            players=SIX[:size] + list("ghijkl")[: max(0, size - 6)],
            options={"scoring": "ranks"},
        )
        for hand in engine.score_json(engine.fold(record))["hands"]:
            assert engine.finishing_order_points("grand-seigneur", hand["out"], size) == hand["points"]


def test_finishing_order_points_only_where_the_game_scores_so():
    with pytest.raises(engine.EngineError) as refused:
        engine.finishing_order_points("nanking", [0, 1, 2, 3], 4)
    assert refused.value.code == "malformed"
