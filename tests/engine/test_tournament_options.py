"""The tournament hand rules as engine options (docs/rules.md): no Grand Tichu, a double victory
worth 100, a Dragon trick that ends the hand kept. DTM (ATP rules, tournaments.md 2.1)."""

from __future__ import annotations

import pytest

from games.engine import TICHU_DECK, EngineError, fold, legal_actions, new_game, score_json, state_json
from games.tournament import engine_options, hand_lines, hand_vp, parse_header

from .table import PLAYERS, refuse, seat0_goes_out, two_out

DTM = engine_options(parse_header({"scoring": "dtm", "rounds": 6}))


def western_deal(options):
    g = new_game("nanking", options, PLAYERS)
    g.apply({"type": "shuffle", "seat": 0})
    g.apply({"type": "deal", "seat": 0, "cards": list(TICHU_DECK[:8])})  # 8 cards: the Grand Tichu window
    return g


def test_grand_tichu_off_refuses_the_call_and_offers_none():
    g = western_deal({"grand_tichu": False})
    err = refuse(g, {"type": "grand_tichu", "seat": 0}, "not_in_variant")
    assert "option grand_tichu" in err.message
    assert not any(a["type"] == "grand_tichu" for a in legal_actions(g))
    g.apply({"type": "tichu", "seat": 0})  # a Tichu stays allowed
    on = western_deal({})
    assert any(a["type"] == "grand_tichu" for a in legal_actions(on))
    on.apply({"type": "grand_tichu", "seat": 0})


def test_grand_tichu_off_refuses_it_on_a_score_sheet_line_too():
    g = new_game("nanking", {"grand_tichu": False}, PLAYERS)
    refuse(
        g,
        {"type": "hand_result", "calls": {"1": "grand_tichu"}, "out": [1, 0, 2, 3], "points": [50, 50]},
        "not_in_variant",
    )
    g.apply({"type": "hand_result", "calls": {"1": "tichu"}, "out": [1, 0, 2, 3], "points": [50, 50]})


@pytest.mark.parametrize(
    "options,worth",
    [({}, 200), ({"double_victory_points": 100}, 100), ({"preset": "tiki", "double_victory_points": 150}, 150)],
)
def test_double_victory_points(options, worth):
    g = new_game("nanking", options, PLAYERS)
    g.apply({"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 2]})
    line = score_json(g)["hands"][0]
    assert line["card_points"] == [worth, 0] and line["points"] == [worth + 100, 0]


def test_double_victory_points_in_tientsin_defaults_to_its_own():
    g = new_game("tientsin", {}, [f"P{i}" for i in range(6)])
    assert g.variant.sweep_points(g.options) == 300
    g = new_game("tientsin", {"double_victory_points": 100}, [f"P{i}" for i in range(6)])
    assert g.variant.sweep_points(g.options) == 100


def test_option_values_checked():
    for bad in ({"grand_tichu": "no"}, {"double_victory_points": -5}, {"keep_last_dragon_trick": 1}):
        with pytest.raises(EngineError) as info:
            new_game("nanking", bad, PLAYERS)
        assert info.value.code == "malformed"


def test_dragon_trick_that_ends_the_hand_is_kept():
    # default (001): the last trick "is still given away if won by the Dragon"
    given = two_out()
    seat0_goes_out(given, dragon="last")
    assert given.phase == "dragon_gift"
    given.gift(0, 3)  # to seat 3, out second (a gift to seat 1, the tailender, would pass to seat 2, first out)
    # DTM: "Beendet jemand das Spiel mit einem Drachenstich, so muss dieser Stich nicht verschenkt werden"
    kept = two_out(options={"keep_last_dragon_trick": True})
    seat0_goes_out(kept, dragon="last")
    assert kept.phase == "between_hands"
    refuse(kept.state, {"type": "dragon_gift", "seat": 0, "to": 1}, "wrong_phase")
    # the 25 of the Dragon trick stay with seat 0's team instead of going to seat 3's
    assert kept.last_line["card_points"][0] == given.last_line["card_points"][0] + 25
    assert kept.last_line["card_points"][1] == given.last_line["card_points"][1] - 25
    kept.check_fold()


def test_mid_hand_dragon_trick_is_still_given_with_the_option():
    t = two_out(options={"keep_last_dragon_trick": True})
    t.play(0, "Dragon").pass_(1)
    assert t.phase == "dragon_gift", "only a Dragon trick that ends the hand is kept"


def test_dtm_worked_example_through_the_engine():
    """30:70 card points and a made Tichu: 130:70, a won hand, 2 VP; a double victory is 100."""
    record = {
        "format": "tichu-record/1",
        "variant": "nanking",
        "options": DTM,
        "players": PLAYERS,
        "events": [
            {"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 1, 2, 3], "points": [30, 70]},
            {"type": "hand_result", "calls": {}, "out": [1, 3]},
        ],
    }
    hands = score_json(fold(record))["hands"]
    assert hands[0]["points"] == [130, 70]
    assert hands[1]["points"] == [0, 100]
    lines = hand_lines(score_json(fold(record)))
    assert lines == [{"points": [130, 70], "double_victory": None}, {"points": [0, 100], "double_victory": 1}]
    assert [hand_vp(line["points"][0], line["points"][1], line["double_victory"]) for line in lines] == [(2, 0), (0, 3)]
    assert state_json(fold(record))["options"]["hands"] == 4
