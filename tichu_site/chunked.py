"""Request bodies sent with `Transfer-Encoding: chunked` (no `Content-Length`), at the WSGI door.

Django reads a body as `CONTENT_LENGTH` bytes, 0 when the header is absent, so a chunked body was
read as empty: a chunked `POST /api/games/` created nothing and answered as if no field had been
sent (issue 30). A chunked body is read whole here, before Django sees the request, when the
server says it can be (PEP 3333's `wsgi.input_terminated`: gunicorn decodes the chunks and ends
the input at the body's end); it is then given to Django as an ordinary body with its length. A
body longer than `DATA_UPLOAD_MAX_MEMORY_SIZE` (the most Django reads of any body here: every
body is JSON or a form, none is a file upload) is 413 `request_too_large`; a chunked body under a
server that does not end the input (the development server, wsgiref) is 411 `length_required`,
never read as empty. The refusals are JSON under /api/ and text elsewhere, in the request's
language.
"""

from __future__ import annotations

import io
import json

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.utils import translation
from django.utils.translation import gettext as _

DEFAULT_LIMIT = 2_621_440  # Django's default DATA_UPLOAD_MAX_MEMORY_SIZE


def is_chunked(environ: dict) -> bool:
    codings = [c.strip().lower() for c in environ.get("HTTP_TRANSFER_ENCODING", "").split(",")]
    return "chunked" in codings and not environ.get("CONTENT_LENGTH")


def body_limit() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or DEFAULT_LIMIT


class ChunkedBodies:
    """WSGI middleware around Django's application (tichu_site.wsgi)."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        if is_chunked(environ):
            if not environ.get("wsgi.input_terminated"):
                return self._refuse(
                    environ,
                    start_response,
                    411,
                    "length_required",
                    lambda: _(
                        "a chunked request body needs a server that ends it (gunicorn); send Content-Length instead"
                    ),
                )
            limit = body_limit()
            body = environ["wsgi.input"].read(limit + 1)
            if len(body) > limit:
                return self._refuse(
                    environ,
                    start_response,
                    413,
                    "request_too_large",
                    lambda: _("the request body is larger than %(limit)s bytes") % {"limit": limit},
                )
            environ["CONTENT_LENGTH"] = str(len(body))
            environ["wsgi.input"] = io.BytesIO(body)
            del environ["HTTP_TRANSFER_ENCODING"]  # read: Django sees an ordinary body of that length
        return self.app(environ, start_response)

    @staticmethod
    def _refuse(environ, start_response, status: int, code: str, message):
        request = WSGIRequest(environ)  # reads no body: only the path and the headers
        with translation.override(translation.get_language_from_request(request)):
            said = message()
        if request.path.startswith("/api/"):
            payload = json.dumps({"code": code, "message": said}).encode()
            content_type = "application/json"
        else:
            payload = said.encode()
            content_type = "text/plain; charset=utf-8"
        reason = {411: "Length Required", 413: "Request Entity Too Large"}[status]
        start_response(
            f"{status} {reason}",
            [("Content-Type", content_type), ("Content-Length", str(len(payload))), ("Connection", "close")],
        )
        return [payload]
