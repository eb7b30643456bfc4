"""One JSON error shape for the whole API: `{"code": ..., "message": ...}` plus details.

- DRF exceptions keep DRF's stable codes (`parse_error`, `not_authenticated`,
  `authentication_failed`, `permission_denied`, `not_found`, `method_not_allowed`,
  `unsupported_media_type`, `throttled`, ...); field validation is `invalid` with `errors`.
- Service errors: `seq_conflict` (409, with `current_seq`), a rule code (422, with the section-4
  shape `{"ok": false, "index": i, "error": {...}}`), `idempotency_key_reused` (422),
  `malformed`, `batch_too_large`, `unknown_fields`, ... (400).
- The database unavailable (a restart: `OperationalError`, `InterfaceError`) is
  `service_unavailable` (503) with `Retry-After` (games.unavailable).
- Anything else is a bug: logged with its traceback and answered `server_error` (500), in JSON.

The `message` is in the request's language (`Accept-Language`, the language cookie: Django's
active language) where the words exist: DRF's own messages by DRF's catalogues, the engine's
refusals by the engine's words (`engine.refusal_words` from the code and params, never by
translating the English text); `code`, `params` and every other field are the same in every
language.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from games import unavailable
from games.services import (
    GameNotFound,
    IdempotencyKeyReused,
    InvalidInput,
    RuleViolation,
    SeqConflict,
    ServiceError,
    WriteForbidden,
)

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An API-level refusal with its own code (raised by views and serializers)."""

    def __init__(self, message: str, code: str, status_code: int = status.HTTP_400_BAD_REQUEST) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.code = code


def _first_message(detail: Any, path: str = "") -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            prefix = path if key == "non_field_errors" else (f"{path}.{key}" if path else str(key))
            return _first_message(value, prefix)
    if isinstance(detail, list):
        for i, value in enumerate(detail):
            nested = isinstance(value, (dict, list))
            return _first_message(value, f"{path}[{i}]" if nested else path)
    return f"{path}: {detail}" if path else str(detail)


def _service_error_response(exc: ServiceError) -> Response:
    body: dict[str, Any] = {"code": exc.code, "message": exc.message}
    if isinstance(exc, SeqConflict):
        body.update(expected_seq=exc.expected_seq, current_seq=exc.current_seq)
        return Response(body, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RuleViolation):
        error = exc.error.as_dict()
        said = exc.in_language()
        if said:
            body["message"] = error["message"] = said
        if error.get("params"):
            body["params"] = error["params"]  # params in one place for every error (also kept in `error`)
        body.update(ok=False, index=exc.index, error=error)
        return Response(body, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, IdempotencyKeyReused):
        return Response(body, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, GameNotFound):
        return Response(body, status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, WriteForbidden):
        return Response(body, status=status.HTTP_403_FORBIDDEN)
    assert isinstance(exc, InvalidInput)
    if exc.params:
        body["params"] = exc.params
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _render_as_json(context: dict) -> None:
    """Errors are JSON whatever the view renders otherwise (the schema view speaks OpenAPI YAML)."""
    request = context.get("request")
    if request is not None:
        request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"


def exception_handler(exc: Exception, context: dict) -> Response:
    _render_as_json(context)
    if unavailable.is_unavailable(exc):  # a database restart: 503 with Retry-After, not a bug
        set_rollback()
        return unavailable.response_for(context["request"], exc)
    if isinstance(exc, ServiceError):
        set_rollback()
        return _service_error_response(exc)
    if isinstance(exc, RequestDataTooBig):
        exc = ApiError(
            _("the request body is larger than %(limit)s bytes") % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            code="request_too_large",
            status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("unhandled error in %s", context.get("view").__class__.__name__, exc_info=exc)
        set_rollback()
        return Response(
            {"code": "server_error", "message": _("internal error; it has been logged")},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, exceptions.ValidationError):
        body = {"code": "invalid", "message": _first_message(exc.detail), "errors": exc.detail}
    else:
        codes = exc.get_codes()
        body = {"code": codes if isinstance(codes, str) else "error", "message": _first_message(exc.detail)}
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            body["retry_after"] = int(exc.wait)
    response.data = body
    return response


def _is_api(request) -> bool:
    return request.path.startswith("/api/") or request.path_info.startswith("/api/")


def _json_error(code: str, message: str, status_code: int) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status_code)


@csrf_exempt  # it changes nothing: an unsafe method on an unknown path is a 404, not a CSRF page
def api_not_found(request, unmatched: str = "") -> JsonResponse:
    """Catch-all under /api/: an unknown path is a JSON 404, never an HTML page (whatever the
    method, and whatever the path holds: the route matches newlines too)."""
    message = _("no API endpoint at %(path)s") % {"path": request.path}
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            message = _("no API endpoint at %(path)s; did you mean %(path)s/ ?") % {"path": request.path}
    return JsonResponse({"code": "not_found", "message": message}, status=404)


# --- the project's handlers (tichu_site/urls.py, CSRF_FAILURE_VIEW): JSON under /api/, Django's
# own pages elsewhere. They answer what happens outside a DRF view: the resolver, middleware
# (a refused Host, CSRF), an error Django itself catches.


def server_error(request) -> Any:
    """handler500. A database that cannot answer is a 503 with Retry-After here too: an error
    raised outside a view (a middleware reading the session or the user) reaches only this."""
    raised = sys.exc_info()[1]
    if unavailable.is_unavailable(raised):
        return unavailable.response_for(request, raised)
    if _is_api(request):
        return _json_error("server_error", _("internal error; it has been logged"), 500)
    return defaults.server_error(request)


def api_bad_request(request, exception=None) -> Any:
    """handler400: a request Django refuses (a Host not in ALLOWED_HOSTS, a suspicious operation)."""
    if _is_api(request):
        return _json_error("bad_request", _("bad request (for example a Host header this server does not serve)"), 400)
    return defaults.bad_request(request, exception)


def api_forbidden(request, exception=None) -> Any:
    """handler403."""
    if _is_api(request):
        return _json_error("permission_denied", _("you do not have permission to perform this action"), 403)
    return defaults.permission_denied(request, exception)


def api_page_not_found(request, exception=None) -> Any:
    """handler404 (under /api/ the catch-all route answers first; this is the backstop)."""
    if _is_api(request):
        return _json_error("not_found", _("no API endpoint at %(path)s") % {"path": request.path}, 404)
    return defaults.page_not_found(request, exception)


def api_csrf_failure(request, reason: str = "") -> Any:
    """CSRF_FAILURE_VIEW: DRF views check CSRF themselves (a JSON 403 `permission_denied`); this
    answers a failure of Django's middleware on any other view under /api/."""
    if _is_api(request):
        return _json_error("csrf_failed", _("CSRF verification failed: %(reason)s") % {"reason": reason}, 403)
    return csrf.csrf_failure(request, reason=reason)
