"""CORS for the API: the origins a club's website may call it from, an allow-list, off by default
(`TICHU_CORS_ORIGINS`, comma-separated `https://club.example.org`; settings.TICHU_CORS_ORIGINS).

Only under /api/. An allowed `Origin` gets `Access-Control-Allow-Origin` naming it (never `*`),
the headers a client reads (ETag, RateLimit-*, Retry-After, Idempotent-Replayed), and a preflight
(`OPTIONS` with `Access-Control-Request-Method`) is answered 204 here with the methods and request
headers the API takes. No credentials are allowed: a website sends a token in `Authorization`,
never the site's session cookie. Any other origin gets no CORS header: the browser refuses."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
ALLOW_HEADERS = "Accept, Accept-Language, Authorization, Content-Type, Idempotency-Key, If-None-Match"
EXPOSE_HEADERS = "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed"
MAX_AGE = "600"


class ApiCorsMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        origins = getattr(settings, "TICHU_CORS_ORIGINS", ())
        if not origins or not request.path_info.startswith("/api/"):
            return self.get_response(request)
        origin = request.headers.get("Origin")
        allowed = origin is not None and origin in origins
        if allowed and request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response = HttpResponse(status=204)
            response["Access-Control-Allow-Methods"] = ALLOW_METHODS
            response["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            response["Access-Control-Max-Age"] = MAX_AGE
        else:
            response = self.get_response(request)
        if allowed:
            response["Access-Control-Allow-Origin"] = origin
            response["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        patch_vary_headers(response, ("Origin",))
        return response
