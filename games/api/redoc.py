"""ReDoc's script, as drf-spectacular-sidecar ships it, with its one request to another host taken
out: the sidebar credit ("API docs by Redocly") always loads Redocly's logo from
cdn.redoc.ly, which the Content-Security-Policy (img-src 'self' data:) refuses on every visit
of /api/redoc/. Here the logo is an empty inline SVG; the credit's words and link stay.

Read once per process from the sidecar's static file (the pinned version), served with a
version-stamped ETag and a day's caching; templates/api/redoc.html loads it."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.http import HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_safe

BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
EMPTY_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E"


@lru_cache(maxsize=1)
def bundle() -> tuple[bytes, str]:
    """(the script without the CDN logo, its ETag)."""
    path = finders.find(BUNDLE)
    if path is None:
        raise FileNotFoundError(BUNDLE)
    with open(path, "rb") as handle:
        body = handle.read().replace(CDN_LOGO.encode(), EMPTY_LOGO.encode())
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@require_safe
def redoc_bundle(request):
    body, etag = bundle()
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=86400"
    return response
