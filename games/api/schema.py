"""The API's AutoSchema: which operations a client may call without signing in.

drf-spectacular marks an operation anonymous (an empty security requirement, `{}`) only under
DRF's own AllowAny or IsAuthenticatedOrReadOnly. The API's default permission,
ReadAnyoneWriteAuthenticated, lets anyone read what the club's visibility shows (a public club's
games, tournaments, players), so its safe methods are declared anonymous here; the few reads that
need an account say so themselves (`auth=SIGNED_IN` in their extend_schema). A generated client
then lets an anonymous `Client` call the public reads, and asks an `AuthenticatedClient` for the rest.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework import permissions

# The schemes an account signs in with (a table code reaches only its own game's endpoints).
SIGNED_IN = [{"tokenAuth": []}, {"cookieAuth": []}]
# Endpoints a table code may also call (its own table's game).
SIGNED_IN_OR_TABLE_CODE = [*SIGNED_IN, {"tableCode": []}]


class AutoSchema(SpectacularAutoSchema):
    def get_auth(self):
        auths = super().get_auth()
        if (
            self.method in permissions.SAFE_METHODS
            and {} not in auths
            and any(getattr(p, "anonymous_reads", False) for p in self.view.get_permissions())
        ):
            auths.append({})
        return auths
