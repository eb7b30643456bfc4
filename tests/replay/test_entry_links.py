"""Scorers find the entry pages from the site: the header, the club page and an unfinished game."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Membership
from games.services import game_import
from tests.api.helpers import hand, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def unfinished(public_club):
    return game_import(club=public_club, record=record([hand()]), user=None).body["id"]


def login(client, public_club, role):
    user = get_user_model().objects.create_user(username=f"u-{role}", password="pw")
    if role:
        Membership.objects.create(club=public_club, user=user, role=role)
    client.force_login(user)


@pytest.mark.parametrize("role, links", [("scorer", True), ("admin", True), ("viewer", False), (None, False)])
def test_entry_links_only_for_the_clubs_scorers(client, public_club, unfinished, role, links):
    login(client, public_club, role)
    club_page = client.get(f"/clubs/{public_club.slug}/").content.decode()
    game_page = client.get(f"/games/{unfinished}/").content.decode()
    assert ('id="new-game-link"' in club_page) is links
    assert (f'href="/games/{unfinished}/enter/"' in game_page) is links
    # "Enter games" in the top bar for a club's scorers and admins only (issue 39: a viewer's
    # ended at "You score for no club")
    assert ('id="enter-link"' in club_page) is links


def test_anonymous_visitors_see_no_entry_links(client, public_club, unfinished):
    page = client.get(f"/clubs/{public_club.slug}/").content.decode()
    assert 'id="enter-link"' not in page and 'id="new-game-link"' not in page
