"""What every API view reads from a request and answers a write with, the games' views and the
tournaments' alike: the Idempotency-Key header, a non-negative query integer, a serializer's
validated input, and a write's response (201, or 200 for a replay or content already held)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import limits
from games.api.exceptions import ApiError
from games.streams.results import WriteResult


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not limits.is_idempotency_key(key):
        raise ApiError(_("Idempotency-Key must be 1 to 255 printable ASCII characters"), code="invalid_idempotency_key")
    return key


def query_uint(request: Request, name: str, default: int | None = None) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not limits.is_query_uint(raw):
        raise ApiError(_("query parameter “%(name)s” must be a non-negative integer") % {"name": name}, code="invalid")
    return int(raw)


def write_response(result: WriteResult) -> Response:
    response = Response(result.body, status=result.status_code)
    if result.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def validated(serializer_class, request: Request, **kwargs) -> dict:
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
