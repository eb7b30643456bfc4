"""The API's one parser: strict JSON the database can store, of bounded nesting. (The body's
size is bounded before: DATA_UPLOAD_MAX_MEMORY_SIZE, 413 `request_too_large`.)

- Only what can be stored (games.storable): numbers out of range (`1e400`), NaN and Infinity,
  lone surrogates (`"\\udfff"`) and NUL characters are 400 `parse_error`, on every endpoint.
- Records and events are shallow; a body nested deeper than MAX_DEPTH is 400 `parse_error`
  instead of reaching code (or Python's recursion limit) that would crash on it.
"""

from __future__ import annotations

import codecs
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games import storable

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


def _too_deep() -> str:
    return _("JSON parse error - nested deeper than %(depth)s levels") % {"depth": MAX_DEPTH}


class JsonParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(stream.read(), encoding)
            data = storable.loads(text)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        except storable.UnstorableJson as exc:
            raise ParseError(
                _("JSON parse error - cannot be stored: %(why)s") % {"why": exc.problem.render(_)}
            ) from None
        except (ValueError, UnicodeDecodeError) as exc:
            # Python's json says what is wrong, in English only
            raise ParseError(_("JSON parse error - %(detail)s") % {"detail": exc}) from None
        if _depth_exceeds(data, MAX_DEPTH):
            raise ParseError(_too_deep())
        return data
