"""Every success answer in the OpenAPI document has an example (issue 37, item 2): in the
operation's media type, or on the schema it references (for a list or a page, on its items)."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.api.examples import EXAMPLES

#: answers that are documents or files, not models: the OpenAPI document itself
NOT_MODELS = {("get", "/api/schema/")}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _component(schema, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _has_example(schema, media: dict) -> bool:
    if "examples" in media or "example" in media:
        return True
    shape = media.get("schema", {})
    if "$ref" in shape:
        shape = _component(schema, shape["$ref"])
        if "example" in shape:
            return True
        shape = shape.get("properties", {}).get("results", shape)  # a page of a list
    if shape.get("type") == "array" and "$ref" in shape.get("items", {}):
        return "example" in _component(schema, shape["items"]["$ref"])
    return False


def test_every_success_answer_has_an_example(schema):
    missing = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if (method, path) in NOT_MODELS:
                continue
            for status, answer in operation.get("responses", {}).items():
                for media_type, media in (answer.get("content") or {}).items():
                    if str(status).startswith("2") and "json" in media_type and not _has_example(schema, media):
                        missing.append((method, path, status))
    assert missing == []


def test_the_examples_are_of_the_shape_their_schema_says(schema):
    """Every required field of the model is in its example, and nothing the model does not have."""
    for name, example in EXAMPLES.items():
        model = schema["components"]["schemas"][name]
        fields = set(model.get("properties", {}))
        assert set(model.get("required", [])) <= set(example), name
        assert set(example) <= fields, (name, set(example) - fields)
        for field, value in example.items():
            enum_ref = model["properties"][field].get("$ref") or next(
                (a.get("$ref") for a in model["properties"][field].get("allOf", []) if "$ref" in a), None
            )
            if enum_ref and "enum" in _component(schema, enum_ref):
                assert value in _component(schema, enum_ref)["enum"], (name, field, value)
