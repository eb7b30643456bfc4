"""The season API (docs/api.md, "Seasons"): create a club's season, read it (header, evenings,
history, table), append its events. Thin: shapes checked here, the rules in
games.tournaments.seasons and the core."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import serializers as gs
from games.api.exceptions import ApiError
from games.api.permissions import require_writer
from games.api.requests import idempotency_key, validated, write_response
from games.api.serializers import StrictCharField, StrictIntegerField, StrictSerializer
from games.api.views import ERRORS, IDEMPOTENCY_HEADER, ApiView, club_visible
from games.csv_export import csv_response
from games.tournaments import seasons

SEASON_ERRORS = {
    409: OpenApiResponse(gs.ErrorOutput, description="expected_seq is stale; nothing stored"),
    422: OpenApiResponse(gs.ErrorOutput, description="the season's rules refuse events[index]; nothing stored"),
}


class SeasonCreateInput(StrictSerializer):
    name = StrictCharField(max_length=100)
    header = serializers.DictField(
        required=False,
        default=dict,
        help_text="the season header of docs/tournament.md (scoring, points_table, best, min_evenings, tie_breaks)",
    )


class SeasonEventsAppendInput(StrictSerializer):
    expected_seq = StrictIntegerField(min_value=0)
    events = serializers.ListField(
        child=serializers.DictField(),
        min_length=1,
        max_length=seasons.MAX_BATCH,
        help_text="evening_added / evening_removed events of docs/tournament.md (a removal with its reason)",
    )


class SeasonWriteOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="season id")
    seq = serializers.IntegerField(help_text="the season's seq after the write")
    appended = serializers.IntegerField(required=False)
    first_seq = serializers.IntegerField(required=False)


_ROW = {
    "rank": 1,
    "player": 12,
    "name": "Ada",
    "score": 7,
    "all_evenings": 7,
    "evenings_played": 2,
    "evenings_won": 1,
    "best_place": 1,
    "evenings": [
        {"tournament": 11, "rank": 1, "of": 4, "score": 4, "counts": True},
        {"tournament": 12, "rank": 2, "of": 4, "score": 3, "counts": True},
    ],
}


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "two evenings",
            response_only=True,
            value={
                "id": 2,
                "club": "tuesday",
                "name": "Season 2027",
                "seq": 3,
                "header": {
                    "format": "tichu-season/1",
                    "name": "Season 2027",
                    "scoring": "place",
                    "points_table": None,
                    "best": 2,
                    "min_evenings": 0,
                    "tie_breaks": ["evenings_won", "best_place"],
                    "meta": {},
                },
                "evenings": [{"tournament": 11, "name": "January"}, {"tournament": 12, "name": "February"}],
                "history": [
                    {
                        "index": 0,
                        "type": "evening_added",
                        "tournament": 11,
                        "name": "January",
                        "recorded_by": "ada",
                        "recorded_at": "2027-01-12T21:40:00Z",
                    },
                    {
                        "index": 1,
                        "type": "evening_added",
                        "tournament": 12,
                        "name": "February",
                        "recorded_by": "ada",
                        "recorded_at": "2027-02-09T21:35:00Z",
                    },
                ],
                "table": {
                    "ok": True,
                    "format": "tichu-season/1",
                    "name": "Season 2027",
                    "scoring": "place",
                    "best": 2,
                    "min_evenings": 0,
                    "tie_breaks": ["evenings_won", "best_place"],
                    "evenings": [11, 12],
                    "waiting": [],
                    "events": 2,
                    "table": [_ROW],
                },
            },
        )
    ]
)
class SeasonOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(help_text="the club's slug")
    name = serializers.CharField()
    seq = serializers.IntegerField(help_text="the season's seq (append with it as expected_seq)")
    header = serializers.DictField(help_text="the header as the core normalised it")
    evenings = serializers.ListField(child=serializers.DictField(), help_text="the evenings counted, in order")
    history = serializers.ListField(
        child=serializers.DictField(),
        help_text="every event: why an evening came or went, who recorded it (username) and when",
    )
    table = serializers.DictField(
        help_text="the core's season_table of the evenings' standings as the reader may see them"
    )


class ClubSeasonsApi(ApiView):
    @extend_schema(
        request=SeasonCreateInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: SeasonWriteOutput, **ERRORS},
        summary="Create a club's season (scorers, admins)",
    )
    def post(self, request: Request, club: str) -> Response:
        data = validated(SeasonCreateInput, request)
        found = club_visible(request, club)
        require_writer(request.user, found)
        return write_response(
            seasons.season_create(club=found, **data, user=request.user, idempotency_key=idempotency_key(request))
        )


class SeasonDetailApi(ApiView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "as",
                str,
                enum=["json", "csv"],
                description="json (default), or csv: the season table, a line per player and three columns "
                "per evening (its place, points, and whether they count)",
            )
        ],
        responses={200: SeasonOutput, 404: ERRORS[404]},
        summary="A season: evenings, history, table (or the table as CSV)",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        season = seasons.season_get(request.user, pk)
        view = seasons.season_view(season, request.user)
        kind = request.query_params.get("as", "json")
        if kind == "json":
            return Response(view)
        if kind != "csv":
            raise ApiError(_("as= is json or csv"), code="invalid")
        header, *rows = seasons.table_rows(view)
        return csv_response(header, rows, f"season-{season.pk}-table.csv")


class SeasonEventsApi(ApiView):
    @extend_schema(
        request=SeasonEventsAppendInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: SeasonWriteOutput, **SEASON_ERRORS, **ERRORS},
        summary="Add or remove a season's evenings atomically (scorers, admins)",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(SeasonEventsAppendInput, request)
        return write_response(
            seasons.append_season_events(
                season_id=pk,
                events=data["events"],
                expected_seq=data["expected_seq"],
                user=request.user,
                idempotency_key=idempotency_key(request),
            )
        )
