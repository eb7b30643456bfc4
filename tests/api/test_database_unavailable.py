"""A database that cannot answer (a PostgreSQL restart) is a 503 with Retry-After on the API and
the pages, never a 500 (issue 30; games/unavailable.py). Simulated here by a wrapper that makes
every query raise as a dropped connection does; tests/faults/test_database_down.py stops a real
server under gunicorn."""

from __future__ import annotations

import contextlib
import json

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client, RequestFactory

from games.api.exceptions import server_error
from tests.api.helpers import hand
from tests.conftest import client_for

CLOSED = OperationalError("server closed the connection unexpectedly")


@contextlib.contextmanager
def database_down(error=CLOSED):
    def refuse(execute, sql, params, many, context):
        raise error

    with connection.execute_wrapper(refuse):
        yield


def assert_unavailable(response, *, api: bool) -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == "5"
    if api:
        body = json.loads(response.content)
        assert body["code"] == "service_unavailable" and body["retry_after"] == 5
    else:
        assert b"A moment, please" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    "error", [OperationalError("the database system is shutting down"), InterfaceError("connection already closed")]
)
def test_the_api_answers_503_with_retry_after(club, scorer, error):
    api = client_for(scorer)
    game = api.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": ["A", "B", "C", "D"]}, format="json"
    ).json()["id"]
    with database_down(error):
        assert_unavailable(Client().get("/api/clubs/"), api=True)
        assert_unavailable(api.get(f"/api/games/{game}/"), api=True)
        append = api.post(f"/api/games/{game}/events/", {"expected_seq": 0, "events": [hand()]}, format="json")
        assert_unavailable(append, api=True)
    # once it answers again, the append goes through: nothing was half-written
    assert (
        api.post(f"/api/games/{game}/events/", {"expected_seq": 0, "events": [hand()]}, format="json").status_code
        == 201
    )


@pytest.mark.django_db
def test_the_pages_answer_503_with_retry_after(club, scorer):
    with database_down():
        assert_unavailable(Client().get("/clubs/"), api=False)
        assert_unavailable(Client().get(f"/clubs/{club.slug}/"), api=False)
        assert_unavailable(Client().get(f"/clubs/{club.slug}/league/"), api=False)
    assert Client().get(f"/clubs/{club.slug}/").status_code == 200


@pytest.mark.django_db
def test_an_error_raised_outside_a_view_is_a_503_too(club):
    """A middleware that reads the database (the session, the user) raises outside any view:
    Django hands it to handler500, which answers the 503 as well."""
    for path, api in (("/api/clubs/", True), ("/clubs/", False)):
        request = RequestFactory().get(path)
        try:
            raise OperationalError("could not connect to server")
        except OperationalError:
            assert_unavailable(server_error(request), api=api)
    # and any other error stays a 500
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(RequestFactory().get("/api/clubs/")).status_code == 500
