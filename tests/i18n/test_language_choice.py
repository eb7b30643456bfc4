"""The page's language: from the browser's Accept-Language, else English; the switcher's choice
remembered (a cookie) over the browser's; the switcher returns to the page it was used on."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

SIGN_IN = {"en": "Sign in", "fr": "Se connecter", "de": "Anmelden", "uk": "Увійти"}


@pytest.mark.parametrize("lang", list(SIGN_IN))
def test_the_browsers_language_is_the_pages(lang):
    page = Client().get("/accounts/sign-in/", HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5").content.decode()
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{SIGN_IN[lang]}</h1>" in page


def test_a_language_the_site_lacks_falls_back_to_english():
    page = Client().get("/accounts/sign-in/", HTTP_ACCEPT_LANGUAGE="ja,zh;q=0.8").content.decode()
    assert '<html lang="en">' in page and "<h1>Sign in</h1>" in page


def test_the_switchers_choice_is_remembered_over_the_browsers_language_and_returns_to_the_page():
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    assert "<h1>Anmelden</h1>" in client.get("/accounts/sign-in/").content.decode()
    response = client.post("/i18n/setlang/", {"language": "uk", "next": "/accounts/sign-in/?next=/clubs/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/sign-in/?next=/clubs/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "uk" and int(cookie["max-age"]) >= 300 * 24 * 3600  # remembered, not per session
    assert "<h1>Увійти</h1>" in client.get("/accounts/sign-in/").content.decode()


def test_every_page_offers_the_switcher_with_the_languages_in_their_own_names():
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'id="language-switcher"' in page
    for code, name in (("en", "English"), ("fr", "Français"), ("de", "Deutsch"), ("uk", "Українська")):
        assert f'<option value="{code}" lang="{code}"' in page and name in page
    assert '<option value="fr" lang="fr" selected>' in page


def test_the_password_reset_mail_is_in_the_requests_language(mailoutbox, make_user):
    user = make_user("ada")
    user.email = "ada@example.org"
    user.save()
    Client(HTTP_ACCEPT_LANGUAGE="fr").post("/accounts/password/reset/", {"email": "ada@example.org"})
    (mail,) = mailoutbox
    assert mail.subject == "Votre mot de passe pour Parties de Tichu"
    assert "réinitialiser le mot de passe du compte «\u00a0ada\u00a0»" in mail.body
