"""A table code kept in the session (opened at /t/<code>/) makes its holder the request's user on
its game's entry page and API, and nowhere else (games.tournaments.table_codes)."""
from __future__ import annotations

from games.tournaments import table_codes


class TableCodeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if table_codes.SESSION_KEY in request.session and not request.user.is_authenticated:
            holder = table_codes.holder_from_session(request)
            if table_codes.scoped(holder, request.path):
                request.user = holder
        return self.get_response(request)
