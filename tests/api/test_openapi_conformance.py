"""Schemathesis against the OpenAPI document (`/api/schema/`), in process through the WSGI app.

Every operation gets a bounded number of generated requests (MAX_EXAMPLES each, no shrinking
phase beyond Hypothesis' default, no deadline), sent as an anonymous client and as a scorer of a
club with a game, and the run asserts that no answer is a server error. The conformance checks
that also hold are listed in CHECKS; the ones that do not are documented in docs/api.md
("OpenAPI conformance").
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand
from tichu_site.wsgi import application

MAX_EXAMPLES = 15


@pytest.fixture(scope="session")
def api_schema():
    return schemathesis.openapi.from_wsgi("/api/schema/", application)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def scorer_token(club, scorer):
    game = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    return Token.objects.get(user=scorer).key


CHECKS = [schemathesis.checks.not_a_server_error]


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_server_error_for_any_generated_request(case, scorer_token):
    for headers in ({}, {"Authorization": f"Token {scorer_token}"}):
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS)
