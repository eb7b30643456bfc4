"""The account pages (Django's test client): sign in and out for any user, sign-up on or off,
password change and reset by email, the email settings from the environment."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

from tichu_site.email_env import CONSOLE, SMTP, email_settings

pytestmark = pytest.mark.django_db


def test_any_user_signs_in_on_the_site_and_out_again(make_user):
    make_user("sam")  # not staff: the admin's login would refuse this account
    client = Client()
    page = client.get("/accounts/sign-in/").content.decode()
    assert 'id="sign-in-form"' in page and "Sign in" in page
    response = client.post("/accounts/sign-in/", {"username": "sam", "password": "pw-sam"})
    assert response.status_code == 302 and response["Location"] == "/accounts/"
    home = client.get("/clubs/").content.decode()
    assert 'id="sign-out-button"' in home and ">sam</a>" in home
    assert client.get("/accounts/sign-out/").status_code == 405  # signing out is a POST (a form button)
    assert client.post("/accounts/sign-out/").status_code == 302
    assert 'id="sign-in-link"' in client.get("/clubs/").content.decode()
    assert client.get("/accounts/").status_code == 302  # signed out


def test_sign_up_is_off_unless_the_operator_opens_it(settings):
    settings.TICHU_OPEN_SIGNUP = False
    assert Client().get("/accounts/sign-up/").status_code == 404
    assert "Ask a club's admin for an invitation" in Client().get("/accounts/sign-in/").content.decode()
    settings.TICHU_OPEN_SIGNUP = True
    client = Client()
    response = client.post(
        "/accounts/sign-up/",
        {"username": "newbie", "email": "n@example.org", "password1": "long enough pw", "password2": "long enough pw"},
    )
    assert response.status_code == 302
    assert ">newbie</a>" in client.get("/accounts/").content.decode()


def test_password_change(make_user):
    make_user("sam")
    client = Client()
    client.login(username="sam", password="pw-sam")
    response = client.post(
        "/accounts/password/",
        {"old_password": "pw-sam", "new_password1": "brand new pw 1", "new_password2": "brand new pw 1"},
    )
    assert response.status_code == 302
    assert Client().login(username="sam", password="brand new pw 1")


def test_password_reset_by_email(make_user):
    make_user("sam", email="sam@example.org")
    response = Client().post("/accounts/password/reset/", {"email": "sam@example.org"})
    assert response.status_code == 302 and len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/password/reset/\S+)", mail.outbox[0].body).group(1)
    client = Client()
    form_url = client.get(link)["Location"]  # Django swaps the token for a session and redirects
    response = client.post(form_url, {"new_password1": "reset pw 12345", "new_password2": "reset pw 12345"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password/reset/done/"
    assert Client().login(username="sam", password="reset pw 12345")


def test_email_settings_from_the_environment():
    assert email_settings({})["EMAIL_BACKEND"] == CONSOLE
    smtp = email_settings(
        {"EMAIL_URL": "smtp://club%40mail.org:s%3Acret@mail.example.org", "DEFAULT_FROM_EMAIL": "x@y"}
    )
    assert (
        smtp["EMAIL_BACKEND"],
        smtp["EMAIL_HOST"],
        smtp["EMAIL_PORT"],
        smtp["EMAIL_HOST_USER"],
        smtp["EMAIL_HOST_PASSWORD"],
        smtp["EMAIL_USE_TLS"],
        smtp["DEFAULT_FROM_EMAIL"],
    ) == (SMTP, "mail.example.org", 587, "club@mail.org", "s:cret", True, "x@y")
    assert email_settings({"EMAIL_URL": "smtps://h:2465"})["EMAIL_USE_SSL"] is True
    host = email_settings({"EMAIL_HOST": "relay", "EMAIL_PORT": "25", "EMAIL_USE_TLS": "0"})
    assert (host["EMAIL_BACKEND"], host["EMAIL_PORT"], host["EMAIL_USE_TLS"]) == (SMTP, 25, False)
    with pytest.raises(ValueError):
        email_settings({"EMAIL_URL": "http://nope"})
