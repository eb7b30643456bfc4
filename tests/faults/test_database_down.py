"""PostgreSQL stopped under gunicorn (issue 30, finding 8): while the database is down, the API
and the pages answer 503 with Retry-After (games/unavailable.py), never 500; an append refused
so stores nothing, and once the database is back the same append goes through."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.api.helpers import hand as score_line

pytestmark = pytest.mark.faults


def fetch(stack, method: str, path: str, body=None, token: str | None = None):
    """(status, headers, text) of one request to the stack's gunicorn."""
    req = urllib.request.Request(
        stack.web.base + path, method=method, data=json.dumps(body).encode() if body is not None else None
    )
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.headers, response.read().decode(errors="replace")
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read().decode(errors="replace")


def test_a_stopped_database_is_503_with_retry_after_on_the_api_and_the_pages(stack):
    stack.start_web()
    club, token = stack.new_club()
    created = fetch(
        stack, "POST", "/api/games/", {"club": club, "variant": "nanking", "players": ["A", "B", "C", "D"]}, token
    )
    assert created[0] == 201, created
    game = json.loads(created[2])["id"]
    hand = [score_line()]

    stack.pg.stop()
    try:
        answers = {
            "api list": fetch(stack, "GET", "/api/clubs/"),
            "api game": fetch(stack, "GET", f"/api/games/{game}/", token=token),
            "api append": fetch(
                stack, "POST", f"/api/games/{game}/events/", {"expected_seq": 0, "events": hand}, token
            ),
            "clubs page": fetch(stack, "GET", "/clubs/"),
            "league page": fetch(stack, "GET", f"/clubs/{club}/league/"),
        }
    finally:
        stack.pg.start()
    for what, (status, headers, text) in answers.items():
        assert status == 503, (what, status, text[:300], stack.web_log())
        assert headers["Retry-After"] == "5", what
        if what.startswith("api"):
            assert json.loads(text)["code"] == "service_unavailable", what
        else:
            assert "A moment, please" in text, what
    assert "Internal Server Error" not in stack.web_log()

    # back: the refused append stored nothing, so the same append at seq 0 goes through
    status, _headers, text = fetch(
        stack, "POST", f"/api/games/{game}/events/", {"expected_seq": 0, "events": hand}, token
    )
    assert status == 201, text
    assert fetch(stack, "GET", "/clubs/")[0] == 200
