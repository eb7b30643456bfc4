"""A club with one user per role and a nanking game, for the entry pages' tests."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Club, Game, Membership
from games.services import game_create

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def users(make_user):
    return {name: make_user(name) for name in ("admin", "scorer", "viewer", "outsider")}


def build_club(users, visibility: str) -> Club:
    club = Club.objects.create(name="Home", slug="home", visibility=visibility)
    for role in ("admin", "scorer", "viewer"):
        Membership.objects.create(club=club, user=users[role], role=role)
    away = Club.objects.create(name="Away", slug="away", visibility=Club.Visibility.MEMBERS)
    Membership.objects.create(club=away, user=users["outsider"], role="admin")
    return club


@pytest.fixture
def home(users):
    return build_club(users, Club.Visibility.PUBLIC)


@pytest.fixture
def game(home, users):
    body = game_create(club=home, variant="nanking", options=None, players=PLAYERS, user=users["scorer"]).body
    return Game.objects.get(pk=body["id"])


def browser_client(user=None) -> Client:
    """A browser-like client: session log-in, CSRF checks on."""
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client
