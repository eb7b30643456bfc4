"""The API's one parser: DRF's strict JSON (NaN and Infinity refused), plus a nesting limit.

Records and events are shallow; a body nested deeper than MAX_DEPTH is refused with 400
`parse_error` instead of reaching code (or Python's recursion limit) that would crash on it."""
from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 64


def _depth_exceeds(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class JsonParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels") from None
        if _depth_exceeds(data, MAX_DEPTH):
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels")
        return data
