"""Migration 0024 keeps the Threechu games stored under `rio` before its dealer rotation became
`previous` folding as they were recorded: each gets `dealer_rotation: "next"`, the rule they were
played and checked under (spec/rules.md, 001: "The shuffle ... passes to the left")."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games import engine
from games.models import Club, Game

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("games.migrations.0024_rio_threechu_dealer_rotation_pinned")
PLAYERS = ["Ada", "Bo", "Cy"]


def two_hands_dealt_to_the_next():
    """A hand dealt by seat 0 (a score-sheet line), then the next hand shuffled by seat 1, as the
    old `rio` passed the deal (the engine checks who shuffles)."""
    return [
        {"type": "hand_result", "dealer": 0, "out": [0], "points": [50, 50]},
        {"type": "shuffle", "seat": 1},
    ]


def test_old_rio_threechu_games_keep_next_and_fold_as_recorded():
    club = Club.objects.create(name="Rio", slug="rio")
    old = Game.objects.create(club=club, variant="threechu", options=None)
    named = Game.objects.create(club=club, variant="threechu", options={"preset": "rio", "hands": 6})
    own = Game.objects.create(club=club, variant="threechu", options={"dealer_rotation": "first_out"})
    tiki = Game.objects.create(club=club, variant="threechu", options={"preset": "tiki"})
    nanking = Game.objects.create(club=club, variant="nanking", options={"preset": "rio"})

    events = two_hands_dealt_to_the_next()
    # Under the new rio seat 1 may not shuffle: the deal passed to the left, to seat 2.
    with pytest.raises(engine.EngineError):
        engine.fold({"variant": "threechu", "players": PLAYERS, "options": {"preset": "rio"}, "events": events})

    MIGRATION.pin_next(apps, None)

    for game in (old, named, own, tiki, nanking):
        game.refresh_from_db()
    assert old.options == {"dealer_rotation": "next"}
    assert named.options == {"preset": "rio", "hands": 6, "dealer_rotation": "next"}
    assert own.options == {"dealer_rotation": "first_out"}
    assert tiki.options == {"preset": "tiki"}
    assert nanking.options == {"preset": "rio"}
    state = engine.fold({"variant": "threechu", "players": PLAYERS, "options": old.options, "events": events})
    assert state.hand is not None and state.hand.shuffler == 1

    MIGRATION.unpin(apps, None)
    old.refresh_from_db()
    named.refresh_from_db()
    assert old.options == {} and named.options == {"preset": "rio", "hands": 6}
