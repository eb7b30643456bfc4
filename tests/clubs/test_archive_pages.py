"""The club archive's pages: a club admin's "Export" (the download) and the site administrators'
"Import a club" (an upload into a new club, a refusal said on the form with its code)."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import Club, Game
from tests.clubs.archive_helpers import build_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return build_club(make_user)


def signed_in(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def download(client: Client, club: Club) -> bytes:
    response = client.post(f"/clubs/{club.slug}/export/")
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    return b"".join(response.streaming_content)


def test_a_club_admin_finds_the_export_and_downloads_the_archive(club):
    ann = signed_in("ann")
    assert 'id="export-link"' in ann.get(f"/clubs/{club.slug}/").content.decode()
    page = ann.get(f"/clubs/{club.slug}/export/")
    assert page.status_code == 200 and 'id="export-form"' in page.content.decode()
    first = json.loads(gzip.decompress(download(ann, club)).splitlines()[0])
    assert first["format"] == "tichu-club-archive" and first["club"] == club.slug


def test_others_find_no_export(club):
    bob = signed_in("bob")  # a scorer
    assert 'id="export-link"' not in bob.get(f"/clubs/{club.slug}/").content.decode()
    assert bob.get(f"/clubs/{club.slug}/export/").status_code == 404
    assert bob.post(f"/clubs/{club.slug}/export/").status_code == 404
    assert Client().get(f"/clubs/{club.slug}/export/").status_code == 302  # to sign in


def test_a_site_administrator_imports_a_club(club, make_user, django_capture_on_commit_callbacks):
    data = download(signed_in("ann"), club)
    make_user("root", is_superuser=True, is_staff=True)
    root = signed_in("root")
    assert 'id="import-club-link"' in root.get("/new-club/").content.decode()
    refused = root.post("/import-club/", {"archive": SimpleUploadedFile("t.gz", data)})
    assert refused.status_code == 400 and "club_exists" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = root.post(
            "/import-club/", {"archive": SimpleUploadedFile("t.gz", data), "slug": "tuesday-site"}, follow=True
        )
    assert response.redirect_chain[-1][0] == "/clubs/tuesday-site/"
    assert "Imported the club “Tuesday Club” with 7 games." in response.content.decode()
    assert Game.objects.filter(club__slug="tuesday-site").count() == Game.objects.filter(club=club).count() == 7
    bad = root.post("/import-club/", {"archive": SimpleUploadedFile("t.gz", b"not an archive"), "slug": "x-y"})
    assert bad.status_code == 400 and "not_an_archive" in bad.content.decode()
    assert not Club.objects.filter(slug="x-y").exists()


def test_a_member_who_is_no_site_administrator_imports_only_under_the_rules(club):
    """The page is open to anyone signed in; the import itself refuses an archive naming other
    accounts of this site (account_exists) or a club the importer is no admin of."""
    ann = signed_in("ann")
    assert 'id="import-club-link"' in ann.get("/new-club/").content.decode()
    assert ann.get("/import-club/").status_code == 200
    data = download(ann, club)
    refused = ann.post("/import-club/", {"archive": SimpleUploadedFile("t.gz", data), "slug": "mine"})
    assert refused.status_code == 400 and "account_exists" in refused.content.decode()
    assert not Club.objects.filter(slug="mine").exists()
    assert Client().get("/import-club/").status_code == 302  # to sign in
