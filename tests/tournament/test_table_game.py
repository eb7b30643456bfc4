"""The tables' game as the engine declares it (issue 32 item 2): the core's sides, seat order,
partners, double victories and round-length options are read from the engine's public API, never
written as a seat parity or an option name of its own."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import engine
from games import tournament as core
from games.tournament import PRESETS, TournamentError


def test_the_sides_are_the_engines_declared_teams():
    info = engine.game_info(core.TABLE_GAME)
    assert core.table_sides() == info.teams == ((0, 2), (1, 3))
    assert core.seat_order([["N", "S"], ["E", "W"]]) == ["N", "E", "S", "W"]
    assert [core.partner_seat(s) for s in range(4)] == [2, 3, 0, 1]


@pytest.mark.parametrize("variant", [g.name for g in engine.games()])
def test_only_a_game_of_two_sides_of_two_seats_a_table(variant):
    info = engine.game_info(variant)
    two_of_two = info.teams is not None and [len(side) for side in info.teams] == [2, 2]
    if two_of_two:
        assert core.table_info(variant) is info
    else:
        with pytest.raises(TournamentError) as err:
            core.table_info(variant)
        assert (err.value.code, err.value.params["rule"]) == ("result_invalid", "not_tichu")


@pytest.mark.parametrize("variant", ["chess", None, 4])
def test_an_unknown_game_is_refused_in_words(variant):
    with pytest.raises(TournamentError) as err:
        core.hand_lines({"variant": variant, "hands": []})
    assert err.value.params["rule"] == "not_tichu"


@given(st.permutations([0, 1, 2, 3]), st.integers(0, 4))
def test_a_double_victory_is_the_engines_sweep(order, finished):
    """The line's double victory is the team the engine says went out first together; for Tichu
    that is the first two out being partners (seats of one parity), as the core said before."""
    out = list(order[:finished])
    (line,) = core.hand_lines({"variant": core.TABLE_GAME, "hands": [{"points": [100, 0], "out": out}]})
    partners = len(out) >= 2 and out[0] % 2 == out[1] % 2
    assert line["double_victory"] == (out[0] % 2 if partners else None)
    assert line["double_victory"] == engine.sweep_team(core.TABLE_GAME, out)


def test_the_round_length_options_are_the_engines():
    info = engine.game_info(core.TABLE_GAME)
    assert core.length_options(4, None) == {info.hands_option: 4} == {"hands": 4}
    assert core.length_options(None, 1000) == {info.target_option: 1000} == {"target_score": 1000}
    assert core.length_options(None, None) == {}


@pytest.mark.parametrize("scoring", sorted(PRESETS))
@pytest.mark.parametrize("length", [{"hands_per_round": 4}, {"target": 500}, {}], ids=["hands", "target", "unlimited"])
@pytest.mark.parametrize("system", ["swiss", "duplicate"])
def test_every_option_the_core_sets_is_one_the_engine_declares(scoring, length, system):
    """The options a table's game gets (the preset's, the round's length, duplicate's Grand Tichu)
    are options of the tables' game, with values its engine accepts."""
    header = {"scoring": scoring, "system": system, **length}
    options = core.engine_options(header)
    declared = {o.name for o in engine.game_info(core.TABLE_GAME).options}
    assert set(options) <= declared
    engine.new_game(core.TABLE_GAME, options)  # accepted: no EngineError
