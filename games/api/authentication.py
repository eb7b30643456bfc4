"""`Authorization: Token KEY` (DRF's word) or `Authorization: Bearer KEY` (what OAuth-minded
clients send by default, openapi-python-client's `AuthenticatedClient` among them): one API token,
two spellings of its prefix. Both are read here so that a generated client works unconfigured."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from games import selectors

PREFIXES = (b"token", b"bearer")


class TokenOrBearerAuthentication(TokenAuthentication):
    """DRF's TokenAuthentication, accepting `Bearer` as well as `Token` before the key."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in PREFIXES:
            return None  # another scheme (TableCode, a session) or none
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Give one key after Token or Bearer, without spaces.")
            )
        try:
            key = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain invalid characters.")
            ) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key):
        """DRF's lookup (the token with its user, refused when there is none or the user is
        inactive) in one hand-written query (games.selectors.token_with_user); a refusal is DRF's own,
        with its message."""
        token = selectors.token_with_user(self.get_model(), key)
        if token is None or not token.user.is_active:
            return super().authenticate_credentials(key)  # raises AuthenticationFailed, DRF's words
        return (token.user, token)


class TokenOrBearerScheme(OpenApiAuthenticationExtension):
    """The scheme in the OpenAPI document: an HTTP bearer token (so that generated clients send
    `Authorization: Bearer KEY`, which this server accepts like `Token KEY`)."""

    target_class = TokenOrBearerAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The API token of `POST /api/auth/token/`, sent as `Authorization: Bearer KEY` "
            "(or `Authorization: Token KEY`).",
        }
