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
    response = client.post(f"/admin/games/membership/{membership.pk}/delete/", {"post": "yes"})
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
