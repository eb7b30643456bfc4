"""A club's archive over the API (docs/club-archive.md): `GET /api/clubs/{club}/export/` (the
club's admins) sends it, `POST /api/clubs/import/` (the site's administrators) reads one into a
new club. Thin: the archive is games.clubs.archive's."""

from __future__ import annotations

from django.http import FileResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import serializers as s
from games.api.exceptions import ApiError
from games.api.permissions import require_admin
from games.api.schema import SIGNED_IN
from games.api.views import ERRORS, ApiView, ClubDetailApi, club_visible
from games.clubs import archive
from games.models import Club


class ArchiveParser(BaseParser):
    """The request body as it came (the archive's gzip bytes), read by the view within its bound."""

    media_type = "application/octet-stream"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream


class GzipArchiveParser(ArchiveParser):
    media_type = "application/gzip"


class ArchiveImportOutput(serializers.Serializer):
    club = s.ClubOutput()
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="rows imported, per kind")
    users_created = serializers.ListField(
        child=serializers.CharField(),
        help_text="accounts the archive named that this site did not have: created without a password",
    )


SLUG = OpenApiParameter(
    "slug", str, required=False, description="import the club under this slug (when its own is taken here)"
)


class ClubExportApi(ApiView):
    @extend_schema(
        responses={
            (200, "application/gzip"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description=("the club's archive (docs/club-archive.md): gzip'd JSON lines, without e-mail addresses"),
            ),
            **ERRORS,
        },
        summary="Export everything of a club as one archive file (its admins)",
        auth=SIGNED_IN,
    )
    def get(self, request: Request, pk: str) -> FileResponse:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        return FileResponse(
            archive.spooled_archive(club),
            as_attachment=True,
            filename=archive.archive_name(club),
            content_type="application/gzip",
        )


class ClubImportApi(ClubDetailApi):
    """POST imports; the other methods are the club whose slug is "import" (the route comes before
    `clubs/<slug:pk>/`, so such a club keeps its address)."""

    def get_parsers(self):
        if getattr(self, "request", None) is not None and self.request.method == "POST":
            return [ArchiveParser(), GzipArchiveParser()]
        return super().get_parsers()

    @extend_schema(
        request={"application/octet-stream": OpenApiTypes.BINARY},
        parameters=[SLUG],
        responses={
            201: ArchiveImportOutput,
            413: OpenApiResponse(s.ErrorOutput, description="archive too large"),
            **ERRORS,
        },
        summary="Import a club's archive as a new club (a site administrator, or an admin of the archive's club)",
        description=(
            "Codes of a refused archive (400, nothing stored): not_an_archive, unknown_version, "
            "club_exists, truncated, malformed, unknown_reference, game_refused, tournament_refused, "
            "inconsistent, account_exists and not_the_clubs_admin (an importer who is no site "
            "administrator must be an admin of the archive's club, and the archive may name no other "
            "account of this site); 413 archive_too_large. The body is the archive's bytes, sent as "
            "application/octet-stream or application/gzip."
        ),
    )
    def post(self, request: Request, pk: str = "import") -> Response:
        if not archive.may_import(request.user):
            raise ApiError(
                _("sign in to import a club"), code="not_authenticated", status_code=status.HTTP_401_UNAUTHORIZED
            )
        slug = request.query_params.get("slug") or None
        body = request.data
        if body is None or not hasattr(body, "read"):
            raise ApiError(_("send the archive as the request body (Content-Type: application/gzip)"), code="invalid")
        try:
            upload = archive.spooled_upload(body)
        except archive.ArchiveError as exc:
            raise ApiError(exc.message, code=exc.code, status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE) from None
        with upload:
            done = archive.import_archive(upload, slug=slug, importer=archive.importer_for(request.user))
        club = Club.objects.get(pk=done.club.pk)
        return Response(
            {"club": s.ClubOutput(club).data, "counts": done.counts, "users_created": done.users_created},
            status=status.HTTP_201_CREATED,
        )
