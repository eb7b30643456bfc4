"""Another member takes a seat (games/online/replacement.py): an empty seat or the bot's is any
member's to take, a player's joined seat only the host's; the seat gets a new link and the
record says who played it from which event on."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Event, Game, Membership, Player
from games.online import record_marks, replacement, selectors, services
from games.online.models import OnlineSeat, OnlineTable
from games.services import InvalidInput, WriteForbidden
from tests.online.play import join_all, open_four


@pytest.fixture
def host(make_user, club):
    user = make_user("host")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


@pytest.fixture
def eve(make_user, club):
    user = make_user("eve")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    Player.objects.create(club=club, name="Eve", user=user)
    return user


def signed_in(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_a_member_takes_the_bots_seat_and_the_record_says_from_when(club, host, eve):
    table = open_four(club, host)
    seats = join_all(table)
    seq = Game.objects.get(pk=table.game_id).seq
    services.seat_to_bot(seat=seats[2], user=host)  # Cyd left: the bot plays on
    game = Game.objects.get(pk=table.game_id)
    bot_from = record_marks.bot_marks(game.header)[0]["from"]
    old_secret = OnlineSeat.objects.get(pk=seats[2].pk).secret
    taken = replacement.take_seat(seat=seats[2], user=eve)
    game.refresh_from_db()
    assert taken.bot == "" and taken.player.name == "Eve" and taken.secret != old_secret
    assert selectors.seat_by_secret(old_secret) is None  # the old link plays no more
    assert record_marks.seats_taken(game.header) == [{"seat": 2, "from": game.seq, "player": "Eve"}]
    assert record_marks.bot_marks(game.header) == [{"seat": 2, "from": bot_from, "policy": "greedy", "to": game.seq}]
    assert game.seq >= seq
    # the record's players keep who sat down first; the seat's page names who plays it now
    assert list(game.seats.order_by("seat").values_list("player__name", flat=True)) == ["Ada", "Ben", "Cyd", "Dot"]
    view = selectors.seat_view(taken)
    assert view["seat"] == 2 and 2 not in view["bots"] and "?" not in view["state"]["hands"][2]


def test_the_host_takes_a_joined_players_seat_another_member_may_not(club, host, eve, make_user):
    table = open_four(club, host)
    seats = join_all(table)
    with pytest.raises(InvalidInput) as refused:
        replacement.take_seat(seat=seats[1], user=eve)
    assert refused.value.code == "seat_taken"
    with pytest.raises(WriteForbidden):
        replacement.take_seat(seat=seats[1], user=make_user("stranger"))
    taken = replacement.take_seat(seat=seats[1], user=host)
    assert taken.player.name == "host"  # no roster player of the account: one by its username
    with pytest.raises(InvalidInput) as twice:
        replacement.take_seat(seat=seats[3], user=host)
    assert twice.value.code == "already_seated"


def test_an_empty_seat_taken_by_a_member_completes_the_table_and_it_deals(club, host, eve):
    table = open_four(club, host)
    seats = list(table.seats.order_by("seat"))
    for seat in seats[:3]:
        services.join(seat)
    assert Game.objects.get(pk=table.game_id).seq == 0
    replacement.take_seat(seat=seats[3], user=eve)
    assert [e.type for e in Event.objects.filter(game_id=table.game_id).order_by("seq")][:2] == ["shuffle", "deal"]


def test_a_finished_game_has_no_seat_to_take(club, host, eve):
    table = open_four(club, host)
    seats = join_all(table)
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    with pytest.raises(InvalidInput) as refused:
        replacement.take_seat(seat=seats[0], user=eve)
    assert refused.value.code == "game_over"


def test_the_table_page_offers_the_seats_a_member_may_take_and_takes_one(club, host, eve):
    table = open_four(club, host)
    seats = join_all(table)
    services.seat_to_bot(seat=seats[3], user=host)
    url = f"/clubs/{club.slug}/online/{table.pk}/"
    page = signed_in(eve).get(url).content.decode()
    assert page.count('class="inline take-seat"') == 1  # the bot's seat only
    assert signed_in(host).get(url).content.decode().count('class="inline take-seat"') == 4
    assert signed_in(eve).get(url + "seat/3/take/").status_code == 405
    answer = signed_in(eve).post(url + "seat/3/take/")
    seat = OnlineSeat.objects.get(table=table, seat=3)
    assert answer.status_code == 302 and answer["Location"] == f"/online/seat/{seat.secret}/"
    assert seat.player.name == "Eve" and seat.bot == ""
    refused = signed_in(eve).post(url + "seat/1/take/", follow=True)
    assert b"only the table" in refused.content and OnlineSeat.objects.get(table=table, seat=1).player.name == "Ben"
    assert OnlineTable.objects.count() == 1
