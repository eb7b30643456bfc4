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
        response = scorer_client.post("/api/clubs/", {"name": "Tuesday", "slug": slug, "visibility": "public"},
                                      format="json", HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 400, response.json()
        assert response.json()["code"] == "invalid_slug"
    assert "lettre" in response.json()["message"]
    assert not Club.objects.filter(slug=slug).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["a", "1a", "-x-", "club_2"])
def test_a_slug_with_a_letter_is_taken(scorer_client, slug):
    response = scorer_client.post("/api/clubs/", {"name": "Tuesday", "slug": slug, "visibility": "public"},
                                  format="json")
    assert response.status_code == 201, response.json()
    assert Club.objects.filter(slug=slug).exists()
