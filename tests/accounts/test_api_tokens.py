"""API tokens (issue 30, finding 8): a token ends when its owner's password changes or is reset,
and its owner revokes it, on the account page or by the API."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _token_works(key: str) -> bool:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return (
        api.post(
            "/api/clubs/", {"name": "T", "slug": f"t-{key[:6].lower()}", "visibility": "public"}, format="json"
        ).status_code
        == 201
    )


def test_a_password_change_ends_the_api_token(make_user):
    sam = make_user("sam")
    key = Token.objects.get(user=sam).key
    client = Client()
    client.login(username="sam", password="pw-sam")
    client.post(
        "/accounts/password/",
        {"old_password": "pw-sam", "new_password1": "brand new pw 1", "new_password2": "brand new pw 1"},
    )
    assert not Token.objects.filter(key=key).exists()
    assert APIClient(HTTP_AUTHORIZATION=f"Token {key}").get("/api/clubs/").status_code == 401


def test_a_password_reset_ends_the_api_token(make_user):
    sam = make_user("sam", email="sam@example.org")
    key = Token.objects.get(user=sam).key
    Client().post("/accounts/password/reset/", {"email": "sam@example.org"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+)", mail.outbox[0].body).group(1)
    client = Client()
    form_url = client.get(link)["Location"]
    client.post(form_url, {"new_password1": "reset pw 12345", "new_password2": "reset pw 12345"})
    assert not Token.objects.filter(key=key).exists()


def test_a_password_set_elsewhere_ends_the_token_too(make_user, monkeypatch):
    """The admin's form, `manage.py changepassword` and any set_password() + save() path."""
    sam = make_user("sam")
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "another pw 123")
    call_command("changepassword", "sam", stdout=open("/dev/null", "w"))
    assert not Token.objects.filter(user=sam).exists()


def test_signing_in_keeps_the_token(make_user):
    """A sign-in may re-hash the password (a newer hasher's iterations): that is no change."""
    sam = make_user("sam")
    key = Token.objects.get(user=sam).key
    assert Client().login(username="sam", password="pw-sam")
    sam.refresh_from_db()
    sam.check_password("pw-sam")
    assert Token.objects.filter(key=key).exists() and _token_works(key)


def test_the_owner_revokes_the_token_by_the_api(make_user):
    sam = make_user("sam")
    key = Token.objects.get(user=sam).key
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.delete("/api/auth/token/").status_code == 204
    assert not Token.objects.filter(user=sam).exists()
    assert api.get("/api/clubs/").status_code == 401
    anonymous = APIClient().delete("/api/auth/token/")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    # a new one is had by signing in again
    fresh = APIClient().post("/api/auth/token/", {"username": "sam", "password": "pw-sam"}, format="json")
    assert fresh.status_code == 200 and fresh.json()["token"] != key and _token_works(fresh.json()["token"])


def test_the_owner_revokes_the_token_on_the_account_page(make_user):
    sam = make_user("sam")
    key = Token.objects.get(user=sam).key
    client = Client()
    client.login(username="sam", password="pw-sam")
    page = client.get("/accounts/").content.decode()
    assert 'id="api-token"' in page and key not in page  # the key is never shown again
    assert 'id="revoke-token-button"' in page
    response = client.post("/accounts/token/revoke/")
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    assert not Token.objects.filter(user=sam).exists()
    page = client.get("/accounts/").content.decode()
    assert 'id="revoke-token-button"' not in page and "You have no API token." in page
    assert client.get("/accounts/token/revoke/").status_code == 405
