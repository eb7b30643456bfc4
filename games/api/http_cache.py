"""Conditional reads and the headers every API answer carries (issue 37 finding 7).

- `Vary`: the body of an API answer depends on who asks (`Authorization`, or the session's
  `Cookie`: a scorer gets a card, an anonymous reader `"?"`) and on `Accept-Language` (the
  messages), besides DRF's `Accept`: every answer names them, so no shared cache serves one
  reader's answer to another.
- Strong `ETag`s on a game's record, events, state at N and score: the SHA-256 of the reader's
  sight (games.visibility: which cards they may see) and the body's canonical JSON. Two readers
  with different sight get different tags even where their bodies happen to agree, so neither's
  `If-None-Match` ever earns a 304 for the other's answer; an append changes the body, so the tag.
  A matching `If-None-Match` is a 304 with no body (the work of building the body is still done:
  the tag is of the body; what is saved is the transfer, and a client's parse).
- `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (the separate fields of the IETF
  draft "RateLimit header fields for HTTP", draft-ietf-httpapi-ratelimit-headers up to -06) on
  every answer a throttle counted (games.api.throttles: the writes), the 429 included.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.cache import patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

API_VARY = ("Accept", "Accept-Language", "Authorization", "Cookie")

# the schema of a conditional read: the header it takes and its 304
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="the ETag of an earlier answer to this request: 304 with no body while it holds",
)
NOT_MODIFIED = {304: OpenApiResponse(description="If-None-Match named the answer's current ETag: no body")}


def etag_of(data: Any, reader: str) -> str:
    text = reader + "\n" + json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return '"' + hashlib.sha256(text.encode("ascii")).hexdigest()[:40] + '"'


def _matches(request: Request, tag: str) -> bool:
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    offered = {t.strip() for t in header.split(",")}
    return "*" in offered or tag in offered  # a weak W/"..." never matches a strong tag here


def conditional(request: Request, data: Any, reader: str) -> Response:
    """`data` as a 200 with its ETag, or a 304 when the client holds that tag. `reader`: what of
    the reader the body depends on (their sight), part of the tag."""
    tag = etag_of(data, reader)
    response = Response(status=status.HTTP_304_NOT_MODIFIED) if _matches(request, tag) else Response(data)
    response["ETag"] = tag
    # revalidate every time (an undo can still change a finished game); a reader who signed in keeps it private
    user = getattr(request, "user", None)
    response["Cache-Control"] = "private, no-cache" if user is not None and user.is_authenticated else "no-cache"
    return response


def finish(request: Request, response) -> None:
    """The headers of every API answer: Vary, and the write throttle's RateLimit fields."""
    patch_vary_headers(response, API_VARY)
    counted = getattr(request, "rate_limit", None)
    if counted is not None:
        limit, remaining, reset = counted
        response["RateLimit-Limit"] = str(limit)
        response["RateLimit-Remaining"] = str(remaining)
        response["RateLimit-Reset"] = str(reset)
