"""Migration 0021 gives every club stored before the letter check a slug with a letter
(``club-<old>``, made unique), and a number in a club's path keeps naming the club with that id,
as it did before the migration (the API's /api/clubs/<id>/, the site's /clubs/<id>/)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from tests.conftest import client_for

# Migrations are DDL: as the owner in the PostgreSQL stages (tests/conftest.py's as_owner).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("as_owner")]

BEFORE, RENAME = ("games", "0020_club_time_zone"), ("games", "0021_club_slugs_with_a_letter")


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_letterless_slugs_are_renamed_and_a_number_still_names_a_club_by_id(capsys):
    apps = migrate([BEFORE])
    Club = apps.get_model("games", "Club")
    tuesday = Club.objects.create(name="Tuesday", slug="tuesday")
    # a slug that is another club's id: /clubs/<that number>/ always meant the other club
    shadow = Club.objects.create(name="Shadow", slug=str(tuesday.pk))
    digits = Club.objects.create(name="Digits", slug="123")
    taken = Club.objects.create(name="Taken", slug="club-123")  # the first choice for "123" is taken
    dashed = Club.objects.create(name="Dashed", slug="-1")
    longest = Club.objects.create(name="Longest", slug="9" * 100)
    try:
        apps = migrate([RENAME])
        Club = apps.get_model("games", "Club")
        slugs = dict(Club.objects.values_list("pk", "slug"))
        assert slugs == {
            tuesday.pk: "tuesday",
            shadow.pk: f"club-{tuesday.pk}",
            digits.pk: "club-123-2",
            taken.pk: "club-123",
            dashed.pk: "club--1",
            longest.pk: "club-" + "9" * 95,
        }
        out = capsys.readouterr().out
        assert f"club {digits.pk}: slug '123' renamed 'club-123-2'" in out and "'tuesday'" not in out

        # the reverse is a no-op: the renamed slugs stay
        apps = migrate([BEFORE])
        assert dict(apps.get_model("games", "Club").objects.values_list("pk", "slug")) == slugs
        migrate(leaves())

        api, site = client_for(), Client()
        # a number is an id, before the migration and after it
        assert api.get(f"/api/clubs/{tuesday.pk}/").json()["slug"] == "tuesday"
        assert api.get(f"/api/clubs/club-{tuesday.pk}/").json()["id"] == shadow.pk
        assert api.get(f"/api/clubs/{digits.pk}/").json()["slug"] == "club-123-2"
        assert api.get("/api/clubs/club-123-2/").json()["id"] == digits.pk
        missing = max(slugs) + 1000  # "123" and any number no club has as its id name no club
        assert api.get(f"/api/clubs/{missing}/").status_code == 404
        for path in (f"/clubs/{tuesday.pk}/", "/clubs/tuesday/"):
            page = site.get(path)
            assert page.status_code == 200 and "Tuesday" in page.content.decode(), path
        assert "Shadow" in site.get(f"/clubs/club-{tuesday.pk}/").content.decode()
        assert site.get(f"/clubs/{missing}/").status_code == 404
    finally:
        migrate(leaves())
