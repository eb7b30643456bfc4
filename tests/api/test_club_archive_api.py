"""The club archive over the API: GET /api/clubs/{club}/export/ (the club's admins) and
POST /api/clubs/import/ (a site administrator, or an admin of the archive's club whose other
accounts are new here), with coded errors and in the OpenAPI document."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.auth import get_user_model

from games.models import Club, Game
from tests.clubs.archive_helpers import build_club
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return build_club(make_user)


@pytest.fixture
def root(make_user):
    return make_user("root", is_superuser=True, is_staff=True)


def export(client, club) -> bytes:
    response = client.get(f"/api/clubs/{club.slug}/export/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert "attachment" in response["Content-Disposition"] and ".tichu-club.jsonl.gz" in response["Content-Disposition"]
    return b"".join(response.streaming_content)


def post_archive(client, data: bytes, slug: str | None = None, content_type: str = "application/gzip"):
    url = "/api/clubs/import/" + (f"?slug={slug}" if slug else "")
    return client.generic("POST", url, data, content_type=content_type)


def test_an_admin_exports_and_a_site_administrator_imports(club, root, django_capture_on_commit_callbacks):
    ann = get_user_model().objects.get(username="ann")
    data = export(client_for(ann), club)
    first = json.loads(gzip.decompress(data).splitlines()[0])
    assert (first["format"], first["version"], first["club"]) == ("tichu-club-archive", 1, "tuesday")
    with django_capture_on_commit_callbacks(execute=True):
        response = post_archive(client_for(root), data, slug="tuesday-api")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["club"]["slug"] == "tuesday-api" and body["counts"]["game"] == Game.objects.filter(club=club).count()
    assert body["users_created"] == []
    copy = Club.objects.get(slug="tuesday-api")
    assert Game.objects.filter(club=copy).count() == Game.objects.filter(club=club).count()


def test_only_the_clubs_admins_export(club, anon):
    bob = get_user_model().objects.get(username="bob")  # a scorer
    assert client_for(bob).get(f"/api/clubs/{club.slug}/export/").status_code == 403
    assert anon.get(f"/api/clubs/{club.slug}/export/").status_code in (401, 403)


def renamed(data: bytes, names: dict[str, str]) -> bytes:
    """The archive with some of its accounts named otherwise (as on a site where they are new)."""
    text = gzip.decompress(data).decode()
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return gzip.compress(text.encode())


def test_a_clubs_admin_imports_it_where_its_other_accounts_are_new(club, anon, django_capture_on_commit_callbacks):
    """A club moving to its own server: its admin signs up there under their own username and
    imports; the other accounts the archive names are new there (created without a password)."""
    ann = get_user_model().objects.get(username="ann")
    data = renamed(export(client_for(ann), club), {"bob": "robert", "dee": "deedee", "eve": "evie"})
    with django_capture_on_commit_callbacks(execute=True):
        response = post_archive(client_for(ann), data, slug="mine")
    assert response.status_code == 201, response.json()
    assert sorted(response.json()["users_created"]) == ["deedee", "evie", "robert"]
    copy = Club.objects.get(slug="mine")
    assert copy.memberships.get(user=ann).role == "admin"
    assert not get_user_model().objects.get(username="robert").has_usable_password()


def test_no_one_but_a_site_administrator_imports_an_archive_naming_others_accounts(club, anon):
    ann, bob = (get_user_model().objects.get(username=n) for n in ("ann", "bob"))
    data = export(client_for(ann), club)
    # ann's own club, but it names bob, dee and eve, who have accounts here: it would make them
    # members of a club and the recorders of its events without their say
    response = post_archive(client_for(ann), data, slug="mine")
    assert response.status_code == 400 and response.json()["code"] == "account_exists", response.json()
    # bob is a scorer of the club, not its admin: he may not import it, even where ann is new
    response = post_archive(client_for(bob), renamed(data, {"ann": "anna", "dee": "deedee", "eve": "evie"}), slug="his")
    assert response.status_code == 400 and response.json()["code"] == "not_the_clubs_admin", response.json()
    assert post_archive(anon, data, slug="mine").status_code in (401, 403)
    assert not Club.objects.filter(slug__in=["mine", "his"]).exists()
    assert not get_user_model().objects.filter(username__in=["anna", "deedee", "evie"]).exists()


def test_a_refused_archive_answers_its_code(club, root, settings):
    ann = get_user_model().objects.get(username="ann")
    data = export(client_for(ann), club)
    response = post_archive(client_for(root), data)
    assert response.status_code == 400 and response.json()["code"] == "club_exists"
    response = post_archive(client_for(root), b"hello", content_type="application/octet-stream")
    assert response.status_code == 400 and response.json()["code"] == "not_an_archive"
    settings.TICHU_CLUB_ARCHIVE_MAX_BYTES = 1000
    response = post_archive(client_for(root), data, slug="big")
    assert response.status_code == 413 and response.json()["code"] == "archive_too_large"
    assert not Club.objects.filter(slug="big").exists()


def test_a_club_called_import_keeps_its_address(make_user, anon):
    Club.objects.create(name="Import", slug="import")
    assert anon.get("/api/clubs/import/").json()["slug"] == "import"


def test_both_are_in_the_openapi_document(anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    post = schema["paths"]["/api/clubs/import/"]["post"]
    assert "application/octet-stream" in post["requestBody"]["content"]
    assert "201" in post["responses"] and "413" in post["responses"]
    get = schema["paths"]["/api/clubs/{id}/export/"]["get"]
    assert "application/gzip" in get["responses"]["200"]["content"]
