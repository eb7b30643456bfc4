"""The client's address behind proxies (games.client_address, TICHU_TRUSTED_PROXIES): a client
that rotates X-Forwarded-For cannot escape the per-address sign-in limit (issue 30, finding 4),
and one trusted proxy's header is read only at its rightmost address."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory, override_settings
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.throttling import BaseThrottle

from games.api.throttles import WriteThrottle
from games.client_address import client_address

pytestmark = pytest.mark.django_db

SOCKET = "203.0.113.7"  # the one socket the attacker (or the proxy) connects from


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.TICHU_SIGNIN_FAILURES_PER_ACCOUNT = 3
    settings.TICHU_SIGNIN_FAILURES_PER_ADDRESS = 7


def token_attempt(username: str, forwarded: str | None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return APIClient(REMOTE_ADDR=SOCKET).post(
        "/api/auth/token/", {"username": username, "password": "wrong"}, format="json", **extra
    )


@pytest.mark.parametrize("proxies", [None, 0])
def test_a_rotated_forwarded_header_does_not_escape_the_address_limit(settings, proxies):
    settings.TICHU_TRUSTED_PROXIES = proxies  # unset or 0: no proxy is trusted
    codes = [token_attempt(f"user{i}", f"10.9.{i // 250}.{i % 250}").status_code for i in range(12)]
    assert codes[:7] == [400] * 7
    assert codes[7:] == [429] * 5


def test_behind_one_trusted_proxy_the_rightmost_address_counts(settings):
    settings.TICHU_TRUSTED_PROXIES = 1
    # nginx's $proxy_add_x_forwarded_for: whatever the client sent, then the address nginx saw
    codes = [token_attempt(f"user{i}", f"10.9.0.{i}, 198.51.100.1").status_code for i in range(8)]
    assert codes == [400] * 7 + [429]
    # another client behind the same proxy has its own count
    assert token_attempt("someone", "198.51.100.2").status_code == 400


st_address = st.ip_addresses().map(str)


@given(
    client=st.lists(st_address, max_size=4), appended=st.lists(st_address, min_size=1, max_size=3), remote=st_address
)
def test_the_address_is_the_nth_from_the_right_whatever_the_client_prepends(client, appended, remote):
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=", ".join(client + appended))
    with override_settings(TICHU_TRUSTED_PROXIES=len(appended)):
        assert client_address(request) == appended[0]
    # DRF's own reading, with the NUM_PROXIES settings derives from the same variable, agrees
    with override_settings(REST_FRAMEWORK={**django_settings.REST_FRAMEWORK, "NUM_PROXIES": len(appended)}):
        assert BaseThrottle().get_ident(request) == appended[0]
    with override_settings(TICHU_TRUSTED_PROXIES=0):
        assert client_address(request) == remote


def test_settings_give_drf_the_same_count():
    from django.conf import settings

    assert api_settings.NUM_PROXIES == (settings.TICHU_TRUSTED_PROXIES or 0)


def test_the_write_throttle_counts_an_anonymous_writer_per_address_not_per_header(settings):
    settings.TICHU_TRUSTED_PROXIES = 0
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"writes": "3/minute"}}
    allowed = []
    for i in range(4):
        request = Request(RequestFactory().post("/api/x/", REMOTE_ADDR=SOCKET, HTTP_X_FORWARDED_FOR=f"10.8.0.{i}"))
        request.user = AnonymousUser()
        allowed.append(WriteThrottle().allow_request(request, None))
    assert allowed == [True, True, True, False]
