"""The online table's pages (replay/online): the club's tables and the form that opens one, a
table's seat links, a seat's page, its JSON view (masked) and its action (refusals in words)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation

from games.models import Game, Membership
from games.online.models import OnlineSeat, OnlineTable


@pytest.fixture
def member(make_user, club):
    user = make_user("member")
    Membership.objects.create(club=club, user=user, role=Membership.Role.VIEWER)
    return user


def signed_in(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def opened(club, member) -> OnlineTable:
    response = signed_in(member).post(
        f"/clubs/{club.slug}/online/", {"variant": "nanking", "preset": "rio", "players": "Ada\nBen\n\nCyd\nDot\n"}
    )
    table = OnlineTable.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/online/{table.pk}/"
    return table


def test_a_member_opens_a_table_and_sees_its_seat_links(club, member):
    page = signed_in(member).get(f"/clubs/{club.slug}/online/")
    assert page.status_code == 200 and b'id="open-table"' in page.content
    table = opened(club, member)
    assert table.game.options == {"preset": "rio"}
    links = signed_in(member).get(f"/clubs/{club.slug}/online/{table.pk}/").content.decode()
    for seat in OnlineSeat.objects.filter(table=table):
        assert f"/online/seat/{seat.secret}/" in links


def test_the_pages_are_the_members(club, member, make_user):
    table = opened(club, member)
    outsider = signed_in(make_user("outsider"))
    assert outsider.get(f"/clubs/{club.slug}/online/").status_code == 404
    assert outsider.get(f"/clubs/{club.slug}/online/{table.pk}/").status_code == 404
    assert Client().get(f"/clubs/{club.slug}/online/").status_code == 302  # to sign in


def test_a_refused_table_is_said_on_the_page(club, member):
    response = signed_in(member).post(f"/clubs/{club.slug}/online/", {"variant": "nanking", "players": "Ada\nBen"})
    assert response.status_code == 200 and not OnlineTable.objects.exists()
    assert b"message error" in response.content


def test_seat_links_join_deal_and_act(club, member):
    table = opened(club, member)
    seats = list(OnlineSeat.objects.filter(table=table).order_by("seat"))
    clients = [Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=False) for _ in seats]
    for client, seat in zip(clients, seats):
        page = client.get(f"/online/seat/{seat.secret}/")  # opening the link shows the seat, joins nothing
        assert page.status_code == 200 and b'id="take-seat"' in page.content and b"online-config" not in page.content
        assert client.post(f"/online/seat/{seat.secret}/").status_code == 302  # the button joins
        page = client.get(f"/online/seat/{seat.secret}/")
        assert page.status_code == 200 and b'id="online-config"' in page.content
    assert Client().get("/online/seat/not-a-secret/").status_code == 404
    view = clients[0].get(f"/online/seat/{seats[0].secret}/view/").json()
    assert view["ready"] and len(view["state"]["hands"][0]) == 8
    assert view["state"]["hands"][1] == ["?"] * 8
    url = f"/online/seat/{seats[0].secret}/act/"
    post = lambda body, **h: clients[0].post(url, json.dumps(body), content_type="application/json", **h)  # noqa: E731
    with translation.override("en"):
        stale = post({"action": {"type": "no_grand_tichu"}, "expected_seq": view["seq"] - 1})
        assert (
            stale.status_code == 409 and stale.json()["code"] == "seq_conflict" and "moved on" in stale.json()["detail"]
        )
        wrong = post({"action": {"type": "pass"}, "expected_seq": view["seq"]})
        assert wrong.status_code == 400 and wrong.json()["code"] == "not_your_action"
        assert post({"nonsense": 1}).status_code == 400
        done = post({"action": {"type": "grand_tichu"}, "expected_seq": view["seq"]}, HTTP_IDEMPOTENCY_KEY="a1")
        again = post({"action": {"type": "grand_tichu"}, "expected_seq": view["seq"]}, HTTP_IDEMPOTENCY_KEY="a1")
    assert done.status_code == 200 and again.status_code == 200
    assert Game.objects.get(pk=table.game_id).seq == view["seq"] + 1
    assert done.json()["view"]["state"]["calls"] in ({"0": "grand_tichu"}, {0: "grand_tichu"})


def test_the_view_long_polls_until_the_table_moves(club, member):
    table = opened(club, member)
    seat = OnlineSeat.objects.filter(table=table).first()
    view = Client().get(f"/online/seat/{seat.secret}/view/?after=0&wait=0.01").json()
    assert view["seq"] == 0 and not view["ready"]


def test_the_form_seats_the_bot_and_the_table_page_hands_a_seat_to_it(club, member, make_user):
    client = signed_in(member)
    with translation.override("en"):
        refused = client.post(
            f"/clubs/{club.slug}/online/", {"variant": "nanking", "players": "Ada\nBen\nCyd\nDot", "bots": "two"}
        )
        assert b"seat numbers" in refused.content and not OnlineTable.objects.exists()
        client.post(
            f"/clubs/{club.slug}/online/", {"variant": "nanking", "players": "Ada\nBen\nCyd\nDot", "bots": "2, 4"}
        )
    table = OnlineTable.objects.get()
    assert list(table.seats.order_by("seat").values_list("bot", flat=True)) == ["", "greedy", "", "greedy"]
    page = client.get(f"/clubs/{club.slug}/online/{table.pk}/").content.decode()
    assert page.count('class="badge bot"') == 2
    bot_secret = OnlineSeat.objects.get(table=table, seat=1).secret
    assert f"/online/seat/{bot_secret}/" not in page  # a bot's seat has no link to hand out
    url = f"/clubs/{club.slug}/online/{table.pk}/seat/2/bot/"
    assert signed_in(make_user("outsider")).post(url).status_code == 404
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 302
    assert OnlineSeat.objects.get(table=table, seat=2).bot == "greedy"
    with translation.override("en"):
        last = client.post(f"/clubs/{club.slug}/online/{table.pk}/seat/0/bot/", follow=True)
    assert b"a person plays at least one seat" in last.content
    assert OnlineSeat.objects.get(table=table, seat=0).bot == ""


def test_a_member_watches_a_table_with_every_hand_hidden(club, member, make_user, scorer):
    table = opened(club, member)
    for seat in OnlineSeat.objects.filter(table=table):
        Client().post(f"/online/seat/{seat.secret}/")  # every seat joins: the table deals
    url = f"/clubs/{club.slug}/online/{table.pk}/watch/"
    page = signed_in(member).get(url)
    assert page.status_code == 200 and b'"watching": true' in page.content
    assert b'id="hand-h"' in page.content and b'section aria-labelledby="hand-h" hidden' in page.content
    assert signed_in(make_user("outsider")).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to sign in
    for watcher in (member, scorer):  # a scorer watching is a spectator too
        view = signed_in(watcher).get(url + "view/").json()
        assert view["seq"] == Game.objects.get(pk=table.game_id).seq > 0
        assert [set(h) for h in view["state"]["hands"]] == [{"?"}] * 4
        assert view["actions"] == [] and view["seat"] is None
    links = signed_in(member).get(f"/clubs/{club.slug}/online/{table.pk}/").content.decode()
    assert f'href="{url}"' in links
