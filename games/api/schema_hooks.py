"""drf-spectacular postprocessing: the error answers in the OpenAPI document.

drf-spectacular describes the success answer of each operation only. Every error the API gives
is JSON with at least a stable `code` and a `message` (games/api/exceptions.py, docs/api.md), so
each operation gets a `default` response with that schema (the `Error` component:
games.api.serializers.ErrorOutput, the one error shape): a client (or schemathesis, in
tests/api/test_openapi_conformance.py) then finds every status the API answers documented.
"""

from __future__ import annotations

HTTP_METHODS = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}


def add_error_responses(result, generator, request, public):
    # The one error shape is games.api.serializers.ErrorOutput (component "Error"), which the
    # views' documented error statuses already reference.
    assert "Error" in result.get("components", {}).get("schemas", {}), "ErrorOutput is not in the schema"
    default = {
        "description": "An error (4xx, 5xx): JSON with `code` and `message`",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method in HTTP_METHODS:
                operation.setdefault("responses", {}).setdefault("default", default)
    return result
