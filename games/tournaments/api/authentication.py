"""`Authorization: TableCode ABCD-EFGH`: the API credential of a table code, valid on its game's
endpoints only (games.tournaments.table_codes)."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from games.tournaments import code_throttle, table_codes

KEYWORD = b"tablecode"


class TableCodeAuthentication(BaseAuthentication):
    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Authorization: TableCode takes one code")
        # failed attempts are throttled per address and per tournament (the game the path names)
        tournament = code_throttle.tournament_of_path(request.path)
        code_throttle.check(request, tournament)
        holder = table_codes.holder_for(parts[1].decode("ascii", "replace"))
        if holder is None:
            code_throttle.failed(request, tournament)
            raise exceptions.AuthenticationFailed("unknown table code, or its round has closed or it was revoked")
        if not table_codes.scoped(holder, request.path):
            code_throttle.failed(request, tournament)
            raise exceptions.AuthenticationFailed("a table code is valid only for its own table's game")
        return holder, holder.table_code

    def authenticate_header(self, request) -> str:
        return "TableCode"


class TableCodeScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI schema (drf-spectacular)."""

    target_class = TableCodeAuthentication
    name = "tableCode"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`TableCode ABCD-EFGH`: a tournament table's code; its own game only",
        }
