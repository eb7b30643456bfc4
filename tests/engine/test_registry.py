"""The engine's registry: every fact about a game that the site reads, in one place."""

from __future__ import annotations

import pytest

from games import engine
from games.engine import EngineError


def test_every_game_is_registered_with_its_name_and_seats():
    assert engine.GAME_NAMES == ("nanking", "threechu", "tientsin", "grand-seigneur", "tien-zi-que")
    labels = {g.name: g.label for g in engine.games()}
    assert labels == {
        "nanking": "Tichu",
        "threechu": "Threechu",
        "tientsin": "Tientsin",
        "grand-seigneur": "Grand Seigneur",
        "tien-zi-que": "Tien Zi Que",
    }
    assert engine.game_info("grand-seigneur").seat_counts == tuple(range(5, 13))
    assert engine.game_info("threechu").dummy_seat == 3
    assert engine.game_info("nanking").teams == ((0, 2), (1, 3))
    assert engine.game_info("tientsin").teams == ((0, 2, 4), (1, 3, 5))
    with pytest.raises(EngineError) as err:
        engine.game_info("bridge")
    assert err.value.code == "malformed" and err.value.params["variant"] == "bridge"


@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_a_new_game_seats_the_smallest_table_and_agrees_with_the_registry(name):
    info = engine.game_info(name)
    state = engine.new_game(name)
    doc = engine.state_json(state)
    assert len(doc["players"]) == info.seat_counts[0]
    assert set(doc["options"]) == {"preset"} | {o.name for o in info.options}


def test_one_list_of_hand_starts_holds_every_game_s_own():
    assert engine.HAND_START_EVENTS == {"shuffle", "hand_result", "round_start", "round_result"}
    assert engine.game_info("tien-zi-que").hand_starts == {"round_start", "round_result"}
    # the replay's snapshots follow them: one per round of a Tien Zi Que game
    record = engine.random_tzq_record(2)
    replay = engine.Replay(record)
    rounds = sum(1 for e in record["events"] if e["type"] == "round_start")
    assert len(replay.snapshots) == 1 + rounds


@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_every_option_has_a_kind_that_takes_its_defaults_and_plain_words(name):
    for option in engine.game_info(name).options:
        assert option.kind.name in {"bool", "int", "choice", "cards"}
        assert option.label and option.help.endswith(".") and "_" not in option.help
        for preset, value in option.defaults().items():
            assert option.check(value), (option.name, preset, value)
        for choice in option.kind.choices:
            assert option.check(choice.value) and choice.label
        assert not option.check("surely not a value")


def test_a_refused_option_names_itself_in_the_error_params():
    with pytest.raises(EngineError) as err:
        engine.new_game("nanking", {"deal_method": "shuffled"})
    assert err.value.params == {
        "option": "deal_method",
        "value": "shuffled",
        "expected": "'draw' or 'western'",
        "rule": "option_choice",
        "choices": '"draw", "western"',
    }
    assert err.value.as_dict()["params"]["option"] == "deal_method"
    with pytest.raises(EngineError) as err:
        engine.new_game("grand-seigneur", {"decks": True})  # a bool is not the number 1
    assert err.value.params["option"] == "decks"


def test_a_play_out_of_turn_names_the_seat_to_play():
    state = engine.fold(engine.random_game(3), upto=0)
    with pytest.raises(EngineError) as err:
        state.apply({"type": "pass", "seat": 1})
    assert err.value.code == "wrong_phase" and err.value.params == {"event": "pass", "phase": "between_hands"}


def test_presets_are_described():
    assert [(p.name, p.label) for p in engine.PRESETS] == [
        ("rio", "Rio Grande edition"),
        ("tiki", "TIKI edition"),
        ("abacus", "Abacus edition"),
    ]
    assert all(p.description for p in engine.PRESETS)


def test_every_public_name_of_the_engine_is_listed_and_documented():
    """`games.engine.__all__` is the API (docs/engine-api.md): every name the package exports is in
    it, and every name in it is in the document."""
    import re
    import types
    from pathlib import Path

    import games.engine as package

    doc = (Path(__file__).resolve().parents[2] / "docs" / "engine-api.md").read_text()
    exported = {
        n for n in dir(package) if not n.startswith("_") and not isinstance(getattr(package, n), types.ModuleType)
    }
    assert exported == set(package.__all__)
    assert [n for n in package.__all__ if not re.search(rf"(?<![\w.]){re.escape(n)}\b", doc)] == []
