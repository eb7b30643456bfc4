"""A chunked request body sent to gunicorn (issue 30: it was read as empty): the game is created
from it, exactly as with Content-Length (tichu_site/chunked.py)."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.faults


def send_chunked(stack, path: str, body: dict, token: str) -> tuple[int, dict]:
    where = urlsplit(stack.web.base)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    raw = json.dumps(body).encode()
    pieces = [raw[i : i + 7] for i in range(0, len(raw), 7)]  # many small chunks
    conn.request(
        "POST",
        path,
        body=iter(pieces),
        encode_chunked=True,
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}", "Transfer-Encoding": "chunked"},
    )
    response = conn.getresponse()
    status, content = response.status, response.read()
    conn.close()
    return status, json.loads(content)


def test_gunicorn_gives_django_a_chunked_body_whole(stack):
    stack.start_web()
    club, token = stack.new_club()
    status, body = send_chunked(
        stack, "/api/games/", {"club": club, "variant": "nanking", "players": ["Ann", "Bob", "Cid", "Dee"]}, token
    )
    assert status == 201, (body, stack.web_log())
    status, game, _ = stack.request("GET", f"/api/games/{body['id']}/", token=token)
    assert status == 200 and game["players"] == ["Ann", "Bob", "Cid", "Dee"], game
