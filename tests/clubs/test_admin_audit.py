"""Memberships changed in the Django admin are in the club's audit log, as the site's are."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from django.test import Client

from games.clubs.models import AuditEntry
from games.models import Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(make_club, make_user):
    superuser = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    client = Client()
    client.force_login(superuser)
    return client, make_club("home"), make_user("dora")


def actions(club) -> list[tuple[str, str]]:
    return [(e.action, e.actor_name) for e in AuditEntry.objects.filter(club=club).order_by("id")]


def test_adding_changing_and_deleting_a_membership_in_the_admin_is_audited(admin_client):
    client, club, dora = admin_client
    response = client.post("/admin/games/membership/add/", {"user": dora.pk, "club": club.pk, "role": "scorer"})
    assert response.status_code == 302, response.content[:500]
    membership = Membership.objects.get(club=club, user=dora)
    response = client.post(f"/admin/games/membership/{membership.pk}/change/",
                           {"user": dora.pk, "club": club.pk, "role": "admin"})  # fmt: skip
    assert response.status_code == 302
    Membership.objects.create(club=club, user=get_user_model().objects.create_user("eve"), role="admin")  # dora is
    response = client.post(f"/admin/games/membership/{membership.pk}/delete/", {"post": "yes"})  # not the last admin
    assert response.status_code == 302 and not Membership.objects.filter(pk=membership.pk).exists()
    assert actions(club) == [("admin_member_added", "root"), ("admin_member_changed", "root"),
                             ("admin_member_removed", "root")]  # fmt: skip
    last = AuditEntry.objects.filter(club=club).order_by("id").last()
    assert last.details == {"user": "dora", "role": "admin"} and "dora" in last.summary


def test_the_club_pages_membership_rows_are_audited_too(admin_client):
    client, club, dora = admin_client
    form = {
        **{field: value for field, value in model_to_dict(club).items() if value is not None},  # the club as is
        "memberships-TOTAL_FORMS": "1", "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000",
        "memberships-0-user": dora.pk, "memberships-0-role": "viewer", "memberships-0-club": club.pk,
    }  # fmt: skip
    response = client.post(f"/admin/games/club/{club.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Membership.objects.filter(club=club, user=dora, role="viewer").exists()
    assert actions(club) == [("admin_member_added", "root")]


# --- the last-admin rule (games.clubs.services.require_an_admin_after, as on the site) -----------


@pytest.fixture
def dora_admin(admin_client):
    client, club, dora = admin_client
    membership = Membership.objects.create(club=club, user=dora, role="admin")
    return client, club, dora, membership


def inline_form(club, rows: list[dict], initial: int) -> dict:
    form = {
        **{field: value for field, value in model_to_dict(club).items() if value is not None},
        "memberships-TOTAL_FORMS": str(len(rows)), "memberships-INITIAL_FORMS": str(initial),
        "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000",
    }  # fmt: skip
    for i, row in enumerate(rows):
        form.update({f"memberships-{i}-{k}": v for k, v in row.items()})
    return form


def test_the_admin_cannot_demote_the_last_admin(dora_admin):
    client, club, dora, membership = dora_admin
    response = client.post(f"/admin/games/membership/{membership.pk}/change/",
                           {"user": dora.pk, "club": club.pk, "role": "scorer"})  # fmt: skip
    assert response.status_code == 200 and "a club keeps at least one admin" in response.content.decode()
    assert Membership.objects.get(pk=membership.pk).role == "admin"
    assert actions(club) == []


def test_the_admin_cannot_move_the_last_admin_to_another_club(dora_admin, make_club):
    client, club, dora, membership = dora_admin
    other = make_club("away")
    response = client.post(f"/admin/games/membership/{membership.pk}/change/",
                           {"user": dora.pk, "club": other.pk, "role": "admin"})  # fmt: skip
    assert response.status_code == 200 and "a club keeps at least one admin" in response.content.decode()
    assert Membership.objects.get(pk=membership.pk).club == club


@pytest.mark.parametrize("bulk", [False, True])
def test_the_admin_cannot_delete_the_last_admin(dora_admin, bulk):
    client, club, dora, membership = dora_admin
    if bulk:
        response = client.post("/admin/games/membership/", {"action": "delete_selected", "_selected_action": [
            membership.pk], "post": "yes"})  # fmt: skip
    else:
        response = client.post(f"/admin/games/membership/{membership.pk}/delete/", {"post": "yes"})
    assert "a club keeps at least one admin" in response.content.decode()
    assert Membership.objects.filter(pk=membership.pk).exists() and actions(club) == []


def test_the_club_pages_rows_cannot_drop_the_last_admin(dora_admin, make_user):
    client, club, dora, membership = dora_admin
    row = {"id": membership.pk, "user": dora.pk, "role": "viewer", "club": club.pk}
    response = client.post(f"/admin/games/club/{club.pk}/change/", inline_form(club, [row], 1))
    assert response.status_code == 200 and "a club keeps at least one admin" in response.content.decode()
    response = client.post(
        f"/admin/games/club/{club.pk}/change/", inline_form(club, [{**row, "role": "admin", "DELETE": "on"}], 1)
    )
    assert response.status_code == 200 and "a club keeps at least one admin" in response.content.decode()
    assert Membership.objects.get(pk=membership.pk).role == "admin"
    # with another admin in the same save, dora may step down
    eve = make_user("eve")
    response = client.post(
        f"/admin/games/club/{club.pk}/change/",
        inline_form(club, [row, {"user": eve.pk, "role": "admin", "club": club.pk}], 1),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert {(m.user.username, m.role) for m in Membership.objects.filter(club=club)} == {
        ("dora", "viewer"),
        ("eve", "admin"),
    }


def test_the_last_admin_can_go_once_another_is_admin(dora_admin, make_user):
    client, club, dora, membership = dora_admin
    Membership.objects.create(club=club, user=make_user("eve"), role="admin")
    response = client.post(f"/admin/games/membership/{membership.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not Membership.objects.filter(pk=membership.pk).exists()


@pytest.mark.parametrize("bulk", [False, True])
def test_deleting_the_user_who_is_the_last_admin_is_refused(dora_admin, bulk):
    """A user's memberships are deleted with the user: the user admin keeps the last-admin rule."""
    client, club, dora, membership = dora_admin
    if bulk:
        response = client.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [dora.pk],
                                                      "post": "yes"})  # fmt: skip
    else:
        response = client.post(f"/admin/auth/user/{dora.pk}/delete/", {"post": "yes"})
    assert "a club keeps at least one admin" in response.content.decode()
    assert get_user_model().objects.filter(pk=dora.pk).exists()
    assert Membership.objects.filter(pk=membership.pk).exists() and actions(club) == []


def test_deleting_a_user_who_is_not_the_last_admin_is_audited(dora_admin, make_user):
    client, club, dora, membership = dora_admin
    Membership.objects.create(club=club, user=make_user("eve"), role="admin")
    response = client.post(f"/admin/auth/user/{dora.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not get_user_model().objects.filter(pk=dora.pk).exists()
    assert actions(club) == [("admin_member_removed", "root")]
