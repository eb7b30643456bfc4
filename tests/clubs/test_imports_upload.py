"""The imports page takes a file (issue 39): a club's admin uploads a game record or a
Brettspielwelt log; what happened is said on the page; a bad file stores nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from games.models import Club, Game, Membership
from tests.api.helpers import grand_double, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, make_user):
    club = Club.objects.create(name="Upload Club", slug="upload-club")
    user = make_user("boss")
    Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
    client.force_login(user)
    return client, club


def _post(client, club, name, content: bytes):
    with translation.override("en"):
        return client.post(
            f"/clubs/{club.slug}/imports/",
            {"game_file": SimpleUploadedFile(name, content)},
            HTTP_ACCEPT_LANGUAGE="en",
            follow=True,
        )


def test_a_record_is_imported_and_said(admin_client):
    client, club = admin_client
    body = json.dumps(record([grand_double(0)] * 3)).encode()
    page = _post(client, club, "evening.json", body).content.decode()
    assert Game.objects.filter(club=club).count() == 1
    assert "evening.json: 1 game imported." in page
    page = _post(client, club, "evening.json", body).content.decode()
    assert Game.objects.filter(club=club).count() == 1 and "the club has this game already" in page


@pytest.mark.parametrize(
    "name, content, words",
    [
        ("broken.json", b"{not json", "is not a JSON game record"),
        (
            "bad.json",
            json.dumps(record([{"type": "play", "seat": 0, "cards": ["Dragon"]}])).encode(),
            "was not imported",
        ),
        ("nothing.tch", b"hello", "0 games imported"),
    ],
)
def test_a_bad_file_stores_nothing_and_says_why(admin_client, name, content, words):
    client, club = admin_client
    page = _post(client, club, name, content)
    assert page.status_code == 200 and words in page.content.decode()
    assert not Game.objects.filter(club=club).exists()


def test_the_form_is_on_the_page(admin_client):
    client, club = admin_client
    page = client.get(f"/clubs/{club.slug}/imports/").content.decode()
    assert 'enctype="multipart/form-data"' in page and 'name="game_file"' in page
