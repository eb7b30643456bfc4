"""The club pages through Django's test client: create a club, invite, join by the link (signing
up with sign-up closed), set roles, keep the roster, read the history and the latest evening."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.clubs.models import AuditEntry, ClaimRequest, Invitation
from games.engine import random_game
from games.models import Club, Membership, Player
from games.services import game_import

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_create_a_club_then_invite_a_newcomer_who_signs_up_by_the_link(make_user, settings):
    settings.TICHU_OPEN_SIGNUP = False
    founder = signed_in(make_user("ada"))
    response = founder.post(
        "/new-club/", {"name": "Tuesday Club", "slug": "", "visibility": "members", "reveal_hands": "after_game"}
    )
    assert response.status_code == 302 and response["Location"] == "/clubs/tuesday-club/members/"
    club = Club.objects.get(slug="tuesday-club")
    assert Membership.objects.get(club=club).role == "admin" and club.reveal_hands == "after_game"
    founder.post("/clubs/tuesday-club/members/", {"action": "invite", "role": "scorer", "days": "3", "note": "Bea"})
    page = founder.get("/clubs/tuesday-club/members/").content.decode()
    link = re.search(r'class="invitation-link">(http://testserver(/invitations/[^/]+/))<', page).group(2)
    newcomer = Client()
    assert "Create your account" in newcomer.get(link).content.decode()
    response = newcomer.post(
        link,
        {
            "action": "sign-up",
            "username": "bea",
            "email": "",
            "password1": "long enough pw",
            "password2": "long enough pw",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/clubs/tuesday-club/"
    assert Membership.objects.get(club=club, user__username="bea").role == "scorer"
    assert 'id="new-game-link"' in newcomer.get("/clubs/tuesday-club/").content.decode()
    assert Client().get(link).status_code == 410  # used up
    assert list(AuditEntry.objects.filter(club=club).order_by("id").values_list("action", flat=True)) == [
        "club_created",
        "invitation_created",
        "invitation_accepted",
    ]


def test_admin_sets_roles_removes_and_revokes_others_cannot(make_user, make_club):
    club = make_club("home")
    ada, bea = make_user("ada"), make_user("bea")
    Membership.objects.create(club=club, user=ada, role="admin")
    Membership.objects.create(club=club, user=bea, role="viewer")
    admin = signed_in(ada)
    admin.post("/clubs/home/members/", {"action": "role", "user": bea.pk, "role": "scorer"})
    assert Membership.objects.get(user=bea).role == "scorer"
    # the sole admin stepping down is refused, with the reason on the page
    response = admin.post("/clubs/home/members/", {"action": "role", "user": ada.pk, "role": "viewer"}, follow=True)
    assert "keeps at least one admin" in response.content.decode()
    assert Membership.objects.get(user=ada).role == "admin"
    assert signed_in(bea).post("/clubs/home/members/", {"action": "remove", "user": ada.pk}).status_code == 404
    inv = Invitation.objects.create(club=club, role="viewer", created_by=ada, expires_at="2999-01-01T00:00Z")
    admin.post("/clubs/home/members/", {"action": "revoke", "invitation": inv.pk})
    inv.refresh_from_db()
    assert inv.state == "revoked"
    admin.post("/clubs/home/members/", {"action": "remove", "user": bea.pk})
    assert not Membership.objects.filter(user=bea).exists()
    history = admin.get("/clubs/home/history/").content.decode()
    assert "changed bea&#x27;s role from Viewer to Scorer" in history and "removed bea" in history


def test_roster_page_add_rename_merge_claim(make_user, make_club):
    club = make_club("home")
    ada, vic = make_user("ada"), make_user("vic")
    Membership.objects.create(club=club, user=ada, role="admin")
    Membership.objects.create(club=club, user=vic, role="viewer")
    admin = signed_in(ada)
    admin.post("/clubs/home/players/", {"action": "add", "names": "Ann\n bob \nCid\nann\n\nDee"})
    assert sorted(club.players.values_list("name", flat=True)) == ["Ann", "Cid", "Dee", "bob"]
    bob = Player.objects.get(club=club, name="bob")
    admin.post("/clubs/home/players/", {"action": "rename", "player": bob.pk, "name": "Bob"})
    dee, cid = Player.objects.get(club=club, name="Dee"), Player.objects.get(club=club, name="Cid")
    admin.post("/clubs/home/players/", {"action": "merge", "source": dee.pk, "target": cid.pk})  # unconfirmed
    assert Player.objects.filter(pk=dee.pk).exists()
    admin.post("/clubs/home/players/", {"action": "merge", "source": dee.pk, "target": cid.pk, "confirm": "yes"})
    assert sorted(club.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cid"]
    viewer = signed_in(vic)
    assert "This is me" in viewer.get("/clubs/home/players/").content.decode()
    viewer.post("/clubs/home/players/", {"action": "claim", "player": cid.pk})
    assert Player.objects.get(pk=cid.pk).user is None  # a request: an admin approves it
    claim = ClaimRequest.objects.get(club=club, user=vic, player=cid)
    assert 'id="my-claim"' in viewer.get("/clubs/home/players/").content.decode()
    assert f'data-claim="{claim.pk}"' in admin.get("/clubs/home/players/").content.decode()
    admin.post("/clubs/home/players/", {"action": "approve", "claim": claim.pk})
    assert Player.objects.get(pk=cid.pk).user == vic
    viewer.post("/clubs/home/players/", {"action": "rename", "player": bob.pk, "name": "Robert"})  # not an admin
    assert Player.objects.filter(club=club, name="Bob").exists()
    assert Client().post("/clubs/home/players/", {"action": "add", "names": "X"}).status_code == 404


def test_club_page_latest_evening_at_a_glance(make_user, make_club):
    club = make_club("home")
    ada = make_user("ada")
    Membership.objects.create(club=club, user=ada, role="admin")
    for seed in (1, 2):
        game_import(club=club, record=random_game(seed, players=["Ann", "Bob", "Cid", "Dee"]), user=ada)
    page = Client().get("/clubs/home/").content.decode()
    evening = page[page.index('id="latest-evening"') : page.index("</section>")]
    assert "2 games, 2 finished" in evening and "Wins:" in evening


def test_the_league_by_slug_as_by_id(make_club):
    club = make_club("home")
    by_id = Client().get(f"/clubs/{club.pk}/league.json").json()
    assert Client().get("/clubs/home/league.json").json() == by_id
    assert Client().get("/clubs/home/league/").status_code == 200
    assert Client().get("/clubs/nowhere/league/").status_code == 404
