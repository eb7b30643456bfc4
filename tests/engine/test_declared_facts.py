"""The facts a game declares (GameInfo, Variant) agree with what it does, and the engine's generic
code reads the declaration, not the game's name or class (issue 32 item 2)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import engine
from games.engine.game import game_for, registered
from games.engine.variants import FAMILY_VARIANTS, Variant, get_variant

NAMES = [g.info.name for g in registered()]


@pytest.mark.parametrize("name", FAMILY_VARIANTS)
def test_a_plain_push_is_declared_where_the_variant_keeps_the_plain_exchange(name):
    """``Variant.plain_push`` (read by the quick push, the bot and the legal actions) is true exactly
    where the variant neither counts its pushes nor checks their cards its own way."""
    cls = type(get_variant(name))
    plain = cls.push_counts is Variant.push_counts and cls.check_push is Variant.check_push
    assert cls.plain_push is plain


@pytest.mark.parametrize("name", NAMES)
def test_rank_scoring_is_declared_where_a_finishing_order_scores(name):
    info = engine.game_info(name)
    points = game_for(name).finishing_order_points([0, 1], info.seat_counts[0])
    assert info.rank_scoring is (points is not None)


@pytest.mark.parametrize("name", NAMES)
def test_the_length_options_are_options_of_the_game(name):
    info = engine.game_info(name)
    declared = {o.name for o in info.options}
    for option in (info.hands_option, info.target_option):
        assert option is None or option in declared
    if info.target is not None:
        assert info.target_option is not None  # a game with a target has the option that sets it
    assert info.hand_spread > 0


def test_the_online_table_serves_every_game_of_the_books():
    """All five games are played online (issue 34): the Tichu family's deal and Tien Zi Que's
    chance events (its deal and reshuffle) are the table's."""
    assert {name for name in NAMES if engine.game_info(name).online} == set(NAMES)
    assert all(engine.game_info(n).chance_events for n in NAMES if n not in FAMILY_VARIANTS)


def _in_play(name: str):
    record = engine.random_game(3, name)
    state = engine.fold(record, upto=len(record["events"]) // 2)
    assert not state.over
    return state


def test_the_bot_asks_the_games_declaration(monkeypatch):
    """``bot_moves`` plays for a game the online table serves, and for no other: the same state,
    its game's ``online`` turned off, gets no move (no test of the state's class)."""
    state = _in_play("nanking")
    everyone = frozenset(range(4))
    assert engine.bot_moves(state, everyone, random.Random(1))
    game = game_for("nanking")
    monkeypatch.setattr(game, "info", replace(game.info, online=False))
    assert engine.bot_moves(state, everyone, random.Random(1)) == []


def test_a_game_with_its_own_bot_answers_for_itself_and_not_when_it_is_not_served(monkeypatch):
    """Tien Zi Que's bot (its game object's bot_moves) plays its seats; the same game declared not
    served by the online table gets no move."""
    state = _in_play("tien-zi-que")
    moves = engine.bot_moves(state, frozenset({0, 1}), random.Random(1))
    assert moves and {m["seat"] for m in moves if "seat" in m} <= {0, 1}
    game = game_for("tien-zi-que")
    monkeypatch.setattr(game, "info", replace(game.info, online=False))
    assert engine.bot_moves(state, frozenset({0, 1}), random.Random(1)) == []
