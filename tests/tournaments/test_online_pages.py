"""The pages of a round played online (docs/tournament.md "Rounds played online"): the TD's button
and seat links on the round page, the table code's page of seats, and the club's online-table
pages closed to members who are not the TD (links) or may not read the duplicate board (watching)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Membership
from games.online.models import OnlineSeat, OnlineTable
from games.tournaments import online_tables, table_codes
from games.tournaments.models import TableGame, Tournament
from tests.tournament_api.test_api import create, pair_next_round, register_pairs

DUPLICATE = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 1}


@pytest.fixture
def paired(club, scorer_client) -> Tournament:
    tid = create(scorer_client, header=DUPLICATE)["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    return Tournament.objects.get(pk=tid)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_td_plays_the_round_online_from_the_round_page(paired, scorer):
    td = signed_in(scorer)
    page = td.get(f"/tournaments/{paired.pk}/").content.decode()
    assert 'id="play-online"' in page and "online-seats" not in page
    response = td.post(f"/tournaments/{paired.pk}/act/", {"action": "online"}, follow=True)
    body = response.content.decode()
    assert "Round 1 is played online: 2 tables" in body
    for seat in OnlineSeat.objects.all():
        assert f"/online/seat/{seat.secret}/" in body, "every seat's link for the TD"
    assert OnlineTable.objects.count() == 2


@pytest.mark.django_db
def test_the_tables_code_opens_its_seats_not_the_score_sheet(paired, scorer):
    online_tables.publish_round(tournament_id=paired.pk, round_number=1, user=scorer)
    code = table_codes.live_codes(paired, [1])[1].code
    game = TableGame.objects.get(tournament=paired, table=1).game_id
    response = Client().get(f"/t/{code}/")
    assert response.status_code == 200
    body = response.content.decode()
    for seat in OnlineSeat.objects.filter(table__game_id=game).select_related("player"):
        assert f"/online/seat/{seat.secret}/" in body and f"I am {seat.player.name}" in body
    other = OnlineSeat.objects.exclude(table__game_id=game).first()
    assert f"/online/seat/{other.secret}/" not in body, "only this table's seats"


@pytest.mark.django_db
def test_a_member_neither_td_nor_seated_gets_no_links_no_watching_no_bot(paired, scorer, club, make_user):
    tables = online_tables.publish_round(tournament_id=paired.pk, round_number=1, user=scorer)
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role=Membership.Role.VIEWER)
    member, td = signed_in(viewer), signed_in(scorer)
    table = tables[0]
    base = f"/clubs/{club.slug}/online/{table.pk}/"
    assert td.get(base).status_code == 200
    assert member.get(base).status_code == 404
    assert td.get(base + "watch/").status_code == 200
    assert member.get(base + "watch/").status_code == 404, "a duplicate board in play stays at its tables"
    assert member.get(base + "watch/view/").status_code == 404
    assert member.post(base + "seat/1/bot/").status_code == 404
    assert not OnlineSeat.objects.filter(table=table).exclude(bot="").exists()
