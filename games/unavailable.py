"""The database is unavailable: 503 with Retry-After, never 500 (issue 30).

During a PostgreSQL restart (or a failover, or a connection the server dropped) a query raises
Django's `OperationalError` or `InterfaceError`; unhandled, every request in flight answered 500
for the 1-3 s the restart took. These are the database's answer "not now", not a bug: the client
should retry. `response_for` is the one answer, in JSON under /api/ (`{"code":
"service_unavailable", ...}`) and as a page elsewhere, both with `Retry-After`; it is given by
`games.api.exceptions.exception_handler` (the API's views), by `DatabaseUnavailableMiddleware`
(the pages' views) and by the project's handler500 (an error raised in a middleware, such as the
session's save). The page is rendered without the request's context, so that it reads nothing
from the database (no user, no messages). The error is still logged (a warning, not an error
with a traceback per request).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

#: the errors that mean "the database cannot answer now" (a restart, a dropped connection, a
#: deadlock or serialisation failure on PostgreSQL, a lock timeout on SQLite): all retryable
UNAVAILABLE = (OperationalError, InterfaceError)


def retry_after() -> int:
    """Seconds a client should wait before retrying (setting TICHU_DB_RETRY_AFTER, default 5)."""
    return int(getattr(settings, "TICHU_DB_RETRY_AFTER", 5))


def is_unavailable(exc: BaseException | None) -> bool:
    return isinstance(exc, UNAVAILABLE)


def response_for(request, exc: BaseException) -> HttpResponse:
    """The 503 for `request`: JSON under /api/, a page elsewhere; `Retry-After` on both."""
    logger.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    message = _("the database is unavailable for a moment; try again in a few seconds")
    if request.path.startswith("/api/") or request.path_info.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": "service_unavailable", "message": message, "retry_after": retry_after()}, status=503
        )
    else:
        response = HttpResponse(render_to_string("unavailable.html", {"message": message}), status=503)
    response["Retry-After"] = str(retry_after())
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Turns a database that cannot answer, in a page's view, into the 503 (the API's views answer
    it themselves in games.api.exceptions, before any middleware sees it)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return response_for(request, exception) if is_unavailable(exception) else None
