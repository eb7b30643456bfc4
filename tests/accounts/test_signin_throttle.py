"""Sign-in throttled per account and per address, alike on every path: the site's sign-in page,
/api/auth/token/, /api-auth/login/ and /admin/login/."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PATHS = ["/accounts/sign-in/", "/api/auth/token/", "/api-auth/login/", "/admin/login/"]


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.TICHU_SIGNIN_FAILURES_PER_ACCOUNT = 3
    settings.TICHU_SIGNIN_FAILURES_PER_ADDRESS = 7


def sign_in(path: str, username: str, password: str, address: str = "10.0.0.1"):
    if path == "/api/auth/token/":
        return APIClient(REMOTE_ADDR=address).post(path, {"username": username, "password": password}, format="json")
    return Client(REMOTE_ADDR=address).post(path, {"username": username, "password": password})


def signed_in(path: str, response) -> bool:
    if path == "/api/auth/token/":
        return response.status_code == 200 and "token" in response.json()
    return response.status_code == 302


@pytest.mark.parametrize("path", PATHS)
def test_an_account_is_throttled_after_its_failures_even_with_the_right_password(path, make_user):
    make_user("ada", is_staff=True)
    for _ in range(3):
        response = sign_in(path, "ada", "wrong")
        assert response.status_code in (200, 400)  # the form again / the API's 400: not throttled yet
    response = sign_in(path, "ada", "pw-ada")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    if path.startswith("/api/"):
        assert response.json()["code"] == "throttled"
    else:
        assert b"Too many sign-in attempts" in response.content
    # from another address too: it is the account that is throttled
    assert sign_in(path, "ADA", "pw-ada", address="10.0.0.2").status_code == 429


def test_the_failures_count_across_paths_and_unknown_accounts_alike(make_user):
    make_user("ada", is_staff=True)
    for path in PATHS[:3]:
        sign_in(path, "ada", "wrong")
    assert sign_in(PATHS[3], "ada", "pw-ada").status_code == 429
    for path in PATHS[:3]:
        sign_in(path, "ghost", "wrong")
    assert sign_in(PATHS[3], "ghost", "anything").status_code == 429  # no hint that ghost does not exist


def test_an_address_is_throttled_across_accounts(make_user):
    make_user("ada")
    for i in range(7):
        sign_in("/api/auth/token/", f"user{i}", "wrong")
    assert sign_in("/api/auth/token/", "ada", "pw-ada").status_code == 429
    assert signed_in("/api/auth/token/", sign_in("/api/auth/token/", "ada", "pw-ada", address="10.0.0.9"))


def test_a_success_clears_the_accounts_count(make_user):
    make_user("ada")
    for _ in range(2):
        sign_in("/accounts/sign-in/", "ada", "wrong")
    assert signed_in("/accounts/sign-in/", sign_in("/accounts/sign-in/", "ada", "pw-ada"))
    for _ in range(2):
        sign_in("/accounts/sign-in/", "ada", "wrong")
    assert signed_in("/accounts/sign-in/", sign_in("/accounts/sign-in/", "ada", "pw-ada"))


def test_a_throttled_attempt_costs_no_password_hash(make_user, monkeypatch):
    make_user("ada")
    for _ in range(3):
        sign_in("/api/auth/token/", "ada", "wrong")
    calls = []
    original = MD5PasswordHasher.verify
    monkeypatch.setattr(MD5PasswordHasher, "verify", lambda self, *a: calls.append(1) or original(self, *a))
    assert sign_in("/api/auth/token/", "ada", "pw-ada").status_code == 429
    assert calls == []
