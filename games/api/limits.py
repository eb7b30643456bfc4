"""What the API accepts in a query integer and in an Idempotency-Key header, in one place: the views
check requests against these (games.api.requests `query_uint`, `idempotency_key`, answering a coded
400) and the OpenAPI document says the same bounds (`uint_parameter`, `IDEMPOTENCY_HEADER`), so the
schema is exactly as strict as the server (tests/api/test_schema_limits.py)."""

from __future__ import annotations

import re

from drf_spectacular.utils import OpenApiParameter

#: A query integer (`after`, `at`, `limit`, `wait`): decimal digits only, at most this many.
QUERY_UINT_DIGITS = 9
QUERY_UINT_MIN = 0
QUERY_UINT_MAX = 10**QUERY_UINT_DIGITS - 1
QUERY_UINT_RE = re.compile(rf"[0-9]{{1,{QUERY_UINT_DIGITS}}}")  # fullmatch: no sign, space or newline

#: An Idempotency-Key: 1 to 255 printable ASCII characters (no space).
IDEMPOTENCY_KEY_MIN_LENGTH = 1
IDEMPOTENCY_KEY_MAX_LENGTH = 255
IDEMPOTENCY_KEY_CHARS = r"[\x21-\x7e]"
IDEMPOTENCY_KEY_PATTERN = rf"^{IDEMPOTENCY_KEY_CHARS}{{{IDEMPOTENCY_KEY_MIN_LENGTH},{IDEMPOTENCY_KEY_MAX_LENGTH}}}$"
IDEMPOTENCY_KEY_RE = re.compile(IDEMPOTENCY_KEY_PATTERN.removeprefix("^").removesuffix("$"))  # fullmatch


def is_query_uint(raw: str) -> bool:
    return QUERY_UINT_RE.fullmatch(raw) is not None


def is_idempotency_key(raw: str) -> bool:
    return IDEMPOTENCY_KEY_RE.fullmatch(raw) is not None


def uint_parameter(name: str, description: str) -> OpenApiParameter:
    """A query integer as the server reads it (`games.api.requests.query_uint`): 0 to QUERY_UINT_MAX."""
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": QUERY_UINT_MIN, "maximum": QUERY_UINT_MAX},
        OpenApiParameter.QUERY,
        description=description,
    )


IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {
        "type": "string",
        "minLength": IDEMPOTENCY_KEY_MIN_LENGTH,
        "maxLength": IDEMPOTENCY_KEY_MAX_LENGTH,
        "pattern": IDEMPOTENCY_KEY_PATTERN,
    },
    OpenApiParameter.HEADER,
    description="Optional. A retry with the same key and body returns the first answer and stores nothing "
    "twice; the same key with another body is 422 `idempotency_key_reused`. Keys are per user, 1 to 255 "
    "printable ASCII characters (no space); another key is 400 `invalid_idempotency_key`.",
)

__all__ = [
    "IDEMPOTENCY_HEADER",
    "IDEMPOTENCY_KEY_MAX_LENGTH",
    "IDEMPOTENCY_KEY_MIN_LENGTH",
    "IDEMPOTENCY_KEY_PATTERN",
    "QUERY_UINT_MAX",
    "QUERY_UINT_MIN",
    "is_idempotency_key",
    "is_query_uint",
    "uint_parameter",
]
