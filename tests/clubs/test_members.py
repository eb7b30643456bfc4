"""Memberships: by invitation only (no username oracle), and never a club without an admin."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.clubs import services
from games.clubs.models import AuditEntry, Invitation
from games.models import Membership, Player
from games.ratings.league_rules import rules_of_club_id
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(make_user, make_club):
    club = make_club("home")
    users = {name: make_user(name) for name in ("ada", "bea", "cy")}
    Membership.objects.create(club=club, user=users["ada"], role="admin")
    return club, users


def admins(club) -> list[str]:
    return sorted(Membership.objects.filter(club=club, role="admin").values_list("user__username", flat=True))


# --- last admin ------------------------------------------------------------------------------


def test_the_sole_admin_can_neither_step_down_nor_leave(home):
    club, users = home
    ada = client_for(users["ada"])
    for role in ("viewer", "scorer"):
        response = ada.patch(f"/api/clubs/{club.pk}/members/{users['ada'].pk}/", {"role": role}, format="json")
        assert (response.status_code, response.json()["code"]) == (400, "last_admin")
    response = ada.delete(f"/api/clubs/{club.pk}/members/{users['ada'].pk}/")
    assert (response.status_code, response.json()["code"]) == (400, "last_admin")
    assert admins(club) == ["ada"]


def test_with_a_second_admin_the_first_may_step_down(home):
    club, users = home
    Membership.objects.create(club=club, user=users["bea"], role="admin")
    ada = client_for(users["ada"])
    response = ada.patch(f"/api/clubs/{club.pk}/members/{users['ada'].pk}/", {"role": "scorer"}, format="json")
    assert response.status_code == 200 and response.json()["role"] == "scorer"
    assert admins(club) == ["bea"]
    # ... and is no admin any more: the next change is refused
    response = ada.patch(f"/api/clubs/{club.pk}/members/{users['bea'].pk}/", {"role": "viewer"}, format="json")
    assert response.status_code == 403
    entry = AuditEntry.objects.filter(club=club, action="member_role").get()
    assert (entry.actor_name, entry.details["old"], entry.details["new"]) == ("ada", "admin", "scorer")


def test_the_old_add_by_username_is_gone_and_tells_nothing(home):
    """POST members/ took any username and said 'no user named ...' for the others: gone."""
    club, users = home
    ada = client_for(users["ada"])
    answers = [
        ada.post(f"/api/clubs/{club.pk}/members/", {"username": name, "role": "admin"}, format="json")
        for name in ("bea", "nobody-by-that-name")
    ]
    assert [a.status_code for a in answers] == [405, 405]
    assert answers[0].json() == answers[1].json()
    assert not Membership.objects.filter(club=club, user=users["bea"]).exists()


# --- invitations --------------------------------------------------------------------------------


def test_an_invitation_makes_a_member_with_its_role_once(home):
    club, users = home
    created = client_for(users["ada"]).post(
        f"/api/clubs/{club.slug}/invitations/", {"role": "scorer", "note": "Bea"}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["state"] == "pending" and body["url"].endswith(f"/invitations/{body['token']}/")
    assert APIClient().post(f"/api/invitations/{body['token']}/accept/").status_code == 401
    accepted = client_for(users["bea"]).post(f"/api/invitations/{body['token']}/accept/")
    assert accepted.status_code == 201 and accepted.json()["role"] == "scorer"
    again = client_for(users["cy"]).post(f"/api/invitations/{body['token']}/accept/")
    assert (again.status_code, again.json()["code"]) == (400, "invitation_accepted")
    assert not Membership.objects.filter(club=club, user=users["cy"]).exists()
    assert list(AuditEntry.objects.filter(club=club).values_list("action", "actor_name").order_by("id")) == [
        ("invitation_created", "ada"),
        ("invitation_accepted", "bea"),
    ]


def test_revoked_and_expired_invitations_refuse(home):
    club, users = home
    ada = client_for(users["ada"])
    first = ada.post(f"/api/clubs/{club.pk}/invitations/", {"role": "viewer"}, format="json").json()
    assert ada.delete(f"/api/clubs/{club.pk}/invitations/{first['id']}/").json()["state"] == "revoked"
    response = client_for(users["bea"]).post(f"/api/invitations/{first['token']}/accept/")
    assert (response.status_code, response.json()["code"]) == (400, "invitation_revoked")
    second = ada.post(f"/api/clubs/{club.pk}/invitations/", {"role": "viewer", "days": 1}, format="json").json()
    Invitation.objects.filter(pk=second["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client_for(users["bea"]).post(f"/api/invitations/{second['token']}/accept/")
    assert (response.status_code, response.json()["code"]) == (400, "invitation_expired")
    assert client_for(users["bea"]).post("/api/invitations/no-such-token/accept/").status_code == 404
    assert not Membership.objects.filter(club=club, user=users["bea"]).exists()


def test_only_admins_invite(home):
    club, users = home
    Membership.objects.create(club=club, user=users["bea"], role="scorer")
    response = client_for(users["bea"]).post(f"/api/clubs/{club.pk}/invitations/", {"role": "admin"}, format="json")
    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_accepting_keeps_the_higher_role_and_links_the_named_player(home):
    club, users = home
    Membership.objects.create(club=club, user=users["bea"], role="scorer")
    anna = Player.objects.create(club=club, name="Bea B.")
    low = services.invitation_create(club=club, actor=users["ada"], role="viewer", player=anna)
    assert services.invitation_accept(token=low.token, user=users["bea"]).role == "scorer"
    anna.refresh_from_db()
    assert anna.user == users["bea"]


# --- concurrency (PostgreSQL: SQLite has no row locks) ----------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_admins_demoting_each_other_at_once_leave_one_admin(make_user, make_club):
    for attempt in range(5):
        club = make_club(f"race{attempt}")
        a, b = make_user(f"a{attempt}"), make_user(f"b{attempt}")
        Membership.objects.create(club=club, user=a, role="admin")
        Membership.objects.create(club=club, user=b, role="admin")
        barrier = threading.Barrier(2)
        outcomes = []

        def demote(actor, target, barrier=barrier, outcomes=outcomes, club=club):  # this attempt's, bound now
            try:
                barrier.wait()
                services.member_set_role(club=club, actor=actor, user_id=target.pk, role="viewer")
                outcomes.append("done")
            except Exception as err:  # noqa: BLE001 - the refusal is what we count
                outcomes.append(type(err).__name__)
            finally:
                connection.close()

        threads = [threading.Thread(target=demote, args=(a, b)), threading.Thread(target=demote, args=(b, a))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(admins(club)) == 1, (attempt, outcomes)
        assert sorted(outcomes) == ["WriteForbidden", "done"], outcomes


def test_an_admin_chooses_which_table_the_league_leads_with(home):
    club, users = home
    assert rules_of_club_id(club.pk).leads_with == "elo"
    Membership.objects.create(club=club, user=users["bea"], role="scorer")
    bea = client_for(users["bea"])
    league = f"/api/clubs/{club.pk}/league/"
    assert bea.patch(league, {"leads_with": "predictive"}, format="json").status_code == 403
    ada = client_for(users["ada"])
    response = ada.patch(league, {"leads_with": "predictive"}, format="json")
    assert response.status_code == 200 and response.json()["leads_with"] == "predictive"
    assert rules_of_club_id(club.pk).leads_with == "predictive"
    response = ada.patch(league, {"leads_with": "both"}, format="json")
    assert response.status_code == 400 and response.json()["code"]
    assert rules_of_club_id(club.pk).leads_with == "predictive"
