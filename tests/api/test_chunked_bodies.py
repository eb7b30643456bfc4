"""A request body sent with Transfer-Encoding: chunked is read, not taken as empty (issue 30):
under a server that ends the input (gunicorn: wsgi.input_terminated) it reaches Django whole; a
body past the limit is 413; under a server that does not end it, 411 (tichu_site/chunked.py).
tests/faults/test_database_down.py's neighbour, tests/faults/test_chunked_gunicorn.py, sends a
real chunked request to gunicorn."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token

from tichu_site.wsgi import application


def call(method: str, path: str, body: bytes, *, terminated: bool = True, headers: dict | None = None):
    """(status, headers, body) of one WSGI call of the project's application, the body sent
    chunked: no CONTENT_LENGTH, the input holding the decoded body (as gunicorn gives it)."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "HTTP_HOST": "testserver",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "CONTENT_TYPE": "application/json",
        **(headers or {}),
    }
    if terminated:
        environ["wsgi.input_terminated"] = True
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"], answer["headers"] = int(status.split()[0]), dict(response_headers)

    content = b"".join(application(environ, start_response))
    return answer["status"], answer["headers"], content


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_is_read_whole(club, scorer):
    token = Token.objects.get(user=scorer).key
    body = json.dumps({"club": club.pk, "variant": "nanking", "players": ["Ann", "Bob", "Cid", "Dee"]}).encode()
    status, _headers, content = call("POST", "/api/games/", body, headers={"HTTP_AUTHORIZATION": f"Token {token}"})
    assert status == 201, content
    assert json.loads(content)["status"] == "active"
    # the sign-in form too: a chunked form body is read
    status, _headers, content = call(
        "POST", "/api/auth/token/", json.dumps({"username": "scorer", "password": "pw-scorer"}).encode()
    )
    assert status == 200 and json.loads(content)["token"] == token


@pytest.mark.django_db(transaction=True)
@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_chunked_body_past_the_limit_is_413():
    status, headers, content = call("POST", "/api/games/", b"[" + b"1," * 1000 + b"1]")
    assert status == 413 and json.loads(content)["code"] == "request_too_large"
    assert "1000" in json.loads(content)["message"] and headers["Connection"] == "close"


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_the_server_does_not_end_is_411_never_empty():
    status, _headers, content = call(
        "POST", "/api/games/", b'{"club": 1}', terminated=False, headers={"HTTP_ACCEPT_LANGUAGE": "de"}
    )
    body = json.loads(content)
    assert status == 411 and body["code"] == "length_required"
    assert "Content-Length" in body["message"] and "senden Sie" in body["message"]  # in the request's language
    status, headers, content = call("POST", "/clubs/", b"name=x", terminated=False)
    assert status == 411 and headers["Content-Type"].startswith("text/plain")
