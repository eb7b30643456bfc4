"""The tournament projector marks the signed-in player as every other list does (issue 39: "you"
on every list, standings and table): their entry in the standings and their line of the seat list."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Player
from tests.tournament_api.test_api import create, pair_next_round, register_pairs

pytestmark = pytest.mark.django_db

YOU = 'class="you-badge"'


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _projector(client, tid: int) -> str:
    return client.get(f"/tournaments/{tid}/projector/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_projector_marks_you_in_the_standings_and_the_seat_list(club, scorer, scorer_client, make_user):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)  # Anna & Ben are entry e0
    pair_next_round(scorer_client, tid)
    user = make_user("anna")
    Player.objects.filter(club=club, name="Anna").update(user=user)
    page = _projector(_signed_in(user), tid)
    standings = page[page.index('data-entry="e0"') :]
    assert standings.index(YOU) < standings.index("</tr>")
    seats = re.findall(
        r'<li data-seat="[NESW]?"([^>]*)><span class="who">([^<]+)</span>( <span class="you-badge">)?', page
    )
    assert len(seats) == 8
    assert [(name, bool(badge), attrs) for attrs, name, badge in seats if attrs or badge] == [
        ("Anna", True, ' class="mine"')
    ]
    assert page.count(YOU) == 2  # her entry and her seat, nobody else's
    assert YOU not in _projector(Client(), tid)  # signed out: nobody is "you"
    assert YOU not in _projector(_signed_in(scorer), tid)  # the director's screen: not a player here
