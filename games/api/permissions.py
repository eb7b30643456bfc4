"""Who may do what. Reads follow the club's visibility (the querysets in `games.selectors` are
scoped, so lists never leak); writes need a scorer or admin of the club (admin for club
settings and memberships). Outsiders to a members-only club get 404, not 403: they do not learn
that the game exists."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import exceptions, permissions

from games import selectors
from games.models import Club


class ReadAnyoneWriteAuthenticated(permissions.BasePermission):
    """Anonymous requests may read; every write needs an authenticated user (401 otherwise)."""

    # Reads are open to anyone the club's visibility lets see (declared in the schema: games.api.schema).
    anonymous_reads = True

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


def require_writer(user, club: Club) -> None:
    if not selectors.can_write(user, club):
        raise exceptions.PermissionDenied(
            _("recording games needs the scorer or admin role in club “%(club)s”") % {"club": club.slug}
        )


def require_admin(user, club: Club) -> None:
    if not selectors.is_club_admin(user, club):
        raise exceptions.PermissionDenied(_("this needs the admin role in club “%(club)s”") % {"club": club.slug})
