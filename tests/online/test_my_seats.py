"""A signed-in member's own seats without the link (issue 34): /me/ lists every seat of an online
table still played that the member holds, through their linked roster player or because they took
it over, each a link to the seat's page; nobody else's, none handed to the bot, none of a game over."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.models import Game, Membership, Player
from games.online import replacement, selectors, services
from games.online.models import OnlineSeat
from tests.online.play import open_four


@pytest.fixture
def ada(make_user, club):
    user = make_user("ada")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    Player.objects.create(club=club, name="Ada", user=user)  # her roster player, linked
    return user


@pytest.fixture
def eve(make_user, club):
    user = make_user("eve")  # a member with no roster player linked to her account
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def my_page(user) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    response = client.get("/me/")
    assert response.status_code == 200
    return response.content.decode()


def test_me_links_the_seats_a_member_holds_and_no_others(club, ada, eve):
    table = open_four(club, ada)  # Ada, Ben, Cyd, Dot: Ada's seat is her linked player's
    ada_seat = OnlineSeat.objects.get(table=table, seat=0)
    ben_seat = OnlineSeat.objects.get(table=table, seat=1)
    # Eve takes Ben's seat, nobody's yet: she plays it as a roster entry not linked to her
    taken = replacement.take_seat(seat=ben_seat, user=eve)
    assert taken.player.user_id is None and taken.taken_by_id == eve.pk

    assert [s.seat for s in selectors.held_seats(ada)] == [0]
    assert [s.seat for s in selectors.held_seats(eve)] == [1]
    ada_page, eve_page = my_page(ada), my_page(eve)
    assert 'id="my-table-seats"' in ada_page and f"/online/seat/{ada_seat.secret}/" in ada_page
    assert f"/online/seat/{taken.secret}/" not in ada_page
    assert f"/online/seat/{taken.secret}/" in eve_page and f"/online/seat/{ada_seat.secret}/" not in eve_page
    assert f"table {table.pk}" in eve_page and "as eve" in eve_page
    # the old link of Ben's seat is no one's any more
    assert f"/online/seat/{ben_seat.secret}/" not in ada_page + eve_page

    # the seat's link opens the seat for its holder
    assert Client().get(f"/online/seat/{taken.secret}/").status_code == 200


def test_seats_handed_to_the_bot_or_of_a_game_over_are_not_listed(club, ada, eve):
    table = open_four(club, ada)
    services.seat_to_bot(seat=OnlineSeat.objects.get(table=table, seat=0), user=eve)
    assert selectors.held_seats(ada) == [] and 'id="my-table-seats"' not in my_page(ada)
    other = open_four(club, ada)
    assert [s.table_id for s in selectors.held_seats(ada)] == [other.pk]
    Game.objects.filter(pk=other.game_id).update(status=Game.Status.FINISHED)
    assert selectors.held_seats(ada) == []


def test_an_anonymous_reader_holds_no_seat():
    assert selectors.held_seats(AnonymousUser()) == [] and selectors.held_seats(None) == []
