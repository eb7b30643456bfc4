"""A club's slug always has a letter (docs/api.md), so a number in a path, body or ?club= is
always an id: a slug without one is refused with invalid_slug, in the request's language, and no
club is made."""

from __future__ import annotations

import pytest

from games.models import Club


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["12", "-1", "1-2", "_", "--", "0_0"])
def test_a_slug_without_a_letter_is_refused(scorer_client, slug):
    for lang in ("en", "fr"):
        response = scorer_client.post(
            "/api/clubs/",
            {"name": "Tuesday", "slug": slug, "visibility": "public"},
            format="json",
            HTTP_ACCEPT_LANGUAGE=lang,
        )
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "invalid_slug"
    assert "lettre" in response.json()["message"]
    assert not Club.objects.filter(slug=slug).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["a", "1a", "-x-", "club_2"])
def test_a_slug_with_a_letter_is_taken(scorer_client, slug):
    response = scorer_client.post(
        "/api/clubs/", {"name": "Tuesday", "slug": slug, "visibility": "public"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert Club.objects.filter(slug=slug).exists()


# --- the model field's rule: every path that saves a slug meets it (games.models.validate_club_slug)


@pytest.fixture
def superuser_client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123"))
    return client


def _admin_form(club, **changes) -> dict:
    from django.forms.models import model_to_dict

    return {
        **{field: value for field, value in model_to_dict(club).items() if value is not None},  # the club as is
        "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000",
        **changes,
    }  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["123", "1-2", "0_0"])
def test_the_admins_change_form_refuses_a_slug_without_a_letter(superuser_client, make_club, slug):
    club = make_club("home")
    for lang, words in (("en", "needs a letter"), ("fr", "lettre")):
        response = superuser_client.post(
            f"/admin/games/club/{club.pk}/change/", _admin_form(club, slug=slug), HTTP_ACCEPT_LANGUAGE=lang
        )
        assert response.status_code == 200  # the form again, with its error: nothing saved
        errors = response.context["adminform"].form.errors
        assert "slug" in errors and words in " ".join(errors["slug"]), errors
    club.refresh_from_db()
    assert club.slug == "home" and not Club.objects.filter(slug=slug).exists()
    # the same form with a slug that has a letter saves (the refusal is the slug's, not the form's)
    response = superuser_client.post(f"/admin/games/club/{club.pk}/change/", _admin_form(club, slug=f"a{slug}"))
    assert response.status_code == 302, response.content.decode()[:2000]
    club.refresh_from_db()
    assert club.slug == f"a{slug}"


@pytest.mark.django_db
def test_the_admins_add_form_refuses_a_slug_without_a_letter(superuser_client):
    form = {"name": "Tuesday", "slug": "42", "visibility": "public", "reveal_hands": "after_hand",
            "time_zone": "UTC",
            "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000"}  # fmt: skip
    response = superuser_client.post("/admin/games/club/add/", form)
    assert response.status_code == 200 and "slug" in response.context["adminform"].form.errors
    assert not Club.objects.filter(slug="42").exists() and not Club.objects.filter(name="Tuesday").exists()
    response = superuser_client.post("/admin/games/club/add/", {**form, "slug": "x42"})  # crashed before (admin.py)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Club.objects.get(name="Tuesday").slug == "x42"


def test_the_models_validator_and_the_service_share_one_rule():
    from django.core.exceptions import ValidationError

    from games.models import validate_club_slug

    slug_field = Club._meta.get_field("slug")
    assert validate_club_slug in slug_field.validators
    with pytest.raises(ValidationError) as refused:
        slug_field.clean("2024", None)
    assert refused.value.error_list[0].code == "invalid_slug"
    assert slug_field.clean("x2024", None) == "x2024"
