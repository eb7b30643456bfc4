"""drf-spectacular postprocessing: the error answers in the OpenAPI document.

drf-spectacular describes the success answer of each operation only. Every error the API gives
is JSON with at least a stable `code` and a `message` (games/api/exceptions.py, docs/api.md), so
each operation gets a `default` response with that schema: a client (or schemathesis, in
tests/api/test_openapi_conformance.py) then finds every status the API answers documented.
"""
from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "description": "An error: a stable code and a message; some errors add fields (docs/api.md).",
    "properties": {
        "code": {"type": "string", "description": "stable error code, e.g. not_found, seq_conflict"},
        "message": {"type": "string"},
    },
    "required": ["code", "message"],
    "additionalProperties": True,
}
HTTP_METHODS = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}


def add_error_responses(result, generator, request, public):
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    default = {
        "description": "An error (4xx, 5xx): JSON with `code` and `message`",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method in HTTP_METHODS:
                operation.setdefault("responses", {}).setdefault("default", default)
    return result
