"""Schemathesis against the OpenAPI document (`/api/schema/`), in process through the WSGI app.

Every operation gets a bounded number of generated requests (MAX_EXAMPLES each, derandomized, no
deadline), sent as an anonymous client and as a scorer of a club with a game. The run asserts no
server error, and the conformance checks in CHECKS; what is not checked is in docs/api.md
("OpenAPI conformance").
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from games.services import append_events, game_create
from tests.api.helpers import PLAYERS, hand
from tichu_site.wsgi import application

MAX_EXAMPLES = 10


@contextmanager
def connections_kept():
    """Requests through the WSGI app (not Django's test client) would run Django's
    close_old_connections at their start and end, which closes a connection inside a transaction:
    the test's own, on PostgreSQL. Django's test client disconnects it the same way."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (signals.request_started, signals.request_finished):
            signal.connect(close_old_connections)


@pytest.fixture(scope="session")
def api_schema():
    with connections_kept():
        return schemathesis.openapi.from_wsgi("/api/schema/", application)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def scorer_token(club, scorer):
    game = game_create(club=club, variant="nanking", options=None, players=PLAYERS, user=scorer).body["id"]
    append_events(game=game, events=[hand()], expected_seq=0, user=scorer)
    return Token.objects.get(user=scorer).key


CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,  # errors: the `default` response (games/api/schema_hooks.py)
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.content_type_conformance,  # every /api/ answer is JSON (issue #14 finding 14)
]


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_server_error_for_any_generated_request(case, scorer_token):
    if case.query and "wait" in case.query:
        case.query["wait"] = 0  # the events long poll would hold each request up to 25 s
    # identity: schemathesis' WSGI transport does not undo GZipMiddleware's compression.
    for headers in (
        {"Accept-Encoding": "identity"},
        {"Accept-Encoding": "identity", "Authorization": f"Token {scorer_token}"},
    ):
        with connections_kept():
            response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS)
