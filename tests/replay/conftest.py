"""Recorded games for the replay tests: bot games played to 1000 points, imported through the
event store's own service (as a club's scorer would)."""

from __future__ import annotations

import functools

import pytest

from games import engine, services
from games.models import Club


@functools.lru_cache(maxsize=None)
def bot_record(seed: int) -> dict:
    return engine.random_game(seed)


def import_game(club: Club, record: dict):
    from games.models import Game

    result = services.game_import(club=club, record=record, user=None)
    return Game.objects.get(pk=result.body["id"])


@pytest.fixture
def public_club(db):
    return Club.objects.create(name="Open Table", slug="open-table", visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def private_club(db):
    return Club.objects.create(name="Back Room", slug="back-room", visibility=Club.Visibility.MEMBERS)


@pytest.fixture
def bot_game(public_club):
    """A finished 1000-point bot game (seed 1: 16 hands, Tichu calls, bombs, Dragon gifts)."""
    return import_game(public_club, bot_record(1))
