"""API tokens (DRF's authtoken, one per user): had by signing in (`POST /api/auth/token/`),
revoked by their owner (`DELETE /api/auth/token/`, or the account page), and ended whenever the
owner's password changes or is reset (docs/accounts.md, "API tokens").

The password hook is Django's `password_changed` call on the configured password validators:
`AbstractBaseUser.save()` makes it after every `set_password()` (the site's change and reset
pages, the admin's form, `manage.py changepassword`), and not when a sign-in merely re-hashes the
same password for a newer hasher. So no path that sets a new password can leave the old token.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from games.api.schema import SIGNED_IN
from games.api.serializers import ErrorOutput


def created_at(user):
    """When the user's API token was made, or None when they have none (the account page)."""
    token = Token.objects.filter(user=user).only("created").first()
    return token.created if token else None


def revoke(user) -> int:
    """End `user`'s API token; how many were ended (0 or 1)."""
    deleted, _by_model = Token.objects.filter(user=user).delete()
    return deleted


class RevokeTokensOnPasswordChange:
    """Listed in AUTH_PASSWORD_VALIDATORS for its `password_changed` hook only: it refuses no
    password. A new password ends the API token made with the old one."""

    def validate(self, password, user=None) -> None:
        return None

    def password_changed(self, password, user=None) -> None:
        if user is not None and user.pk is not None:
            revoke(user)

    def get_help_text(self) -> str:
        return ""


def page_reader(request):
    """Who reads a page's JSON or CSV download (the league's, a player's): the user of an API
    token sent in `Authorization` (the API's token schemes, as configured), else the session's.
    A club's bot reads its members-only league with its token, as it reads the API. A token that
    is sent but unknown raises DRF's AuthenticationFailed (the caller answers 401)."""
    for scheme in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        if issubclass(scheme, TokenAuthentication):
            found = scheme().authenticate(request)
            if found is not None:
                return found[0]
    return request.user


class TokenInput(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenOutput(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Bearer KEY` (or `Token KEY`)")


class AuthTokenApi(ObtainAuthToken):
    """`POST`: a token for a username and password (DRF's); `DELETE`: revoke the caller's own.

    Anyone may ask (AllowAny: the password is the credential). The schema declares JSON only, one
    request and one response model, so that a generated client sends JSON; form posts, which DRF's
    view also reads, keep working for older callers."""

    permission_classes = [AllowAny]

    @extend_schema(
        request={"application/json": TokenInput},
        responses={
            200: TokenOutput,
            400: OpenApiResponse(ErrorOutput, description="wrong username or password (`invalid`)"),
        },
        examples=[
            OpenApiExample("sign in", request_only=True, value={"username": "ada", "password": "s3cret-words"}),
            OpenApiExample(
                "the token", response_only=True, value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"}
            ),
        ],
        summary="Get your API token (username and password)",
        auth=[],
    )
    def post(self, request: Request, *args, **kwargs) -> Response:
        return super().post(request, *args, **kwargs)

    @extend_schema(
        request=None,
        responses={204: None},
        auth=SIGNED_IN,
        summary="Revoke your API token (the one sent, or yours when signed in on the site)",
    )
    def delete(self, request: Request) -> Response:
        if not (request.user and request.user.is_authenticated) or getattr(request.user, "pk", None) is None:
            raise NotAuthenticated()
        revoke(request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


auth_token = AuthTokenApi.as_view()
