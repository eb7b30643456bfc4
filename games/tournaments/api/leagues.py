"""The league API (docs/api.md, "Leagues"): create a club's league, list a club's leagues, read
one (fixtures, results, table, promotion and relegation), append its events. Thin: shapes checked
here, the rules in games.tournaments.leagues and the core."""

from __future__ import annotations

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
from games.api.permissions import require_writer
from games.api.requests import idempotency_key, validated, write_response
from games.api.serializers import StrictCharField, StrictIntegerField, StrictSerializer
from games.api.views import ERRORS, IDEMPOTENCY_HEADER, ApiView, club_visible
from games.tournaments import leagues

LEAGUE_ERRORS = {
    409: OpenApiResponse(gs.ErrorOutput, description="expected_seq is stale; nothing stored"),
    422: OpenApiResponse(gs.ErrorOutput, description="the league's rules refuse events[index]; nothing stored"),
}


class ClubLeagueCreateInput(StrictSerializer):
    name = StrictCharField(max_length=100)
    header = serializers.DictField(
        help_text="the league header of docs/tournament.md (entries, legs, scoring, hands or target, "
        "match_points, tie_breaks, promotion, relegation, dates)",
    )


class ClubLeagueEventsAppendInput(StrictSerializer):
    expected_seq = StrictIntegerField(min_value=0)
    events = serializers.ListField(
        child=serializers.DictField(),
        min_length=1,
        max_length=leagues.MAX_BATCH,
        help_text="match_result / match_corrected (with its reason) / match_scheduled events of docs/tournament.md",
    )


@extend_schema_serializer(
    examples=[
        OpenApiExample("a result stored", response_only=True, value={"id": 5, "seq": 9, "appended": 1, "first_seq": 9})
    ]
)
class ClubLeagueWriteOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="league id")
    seq = serializers.IntegerField(help_text="the league's seq after the write")
    appended = serializers.IntegerField(required=False)
    first_seq = serializers.IntegerField(required=False)


@extend_schema_serializer(
    examples=[OpenApiExample("a group", response_only=True, value={"id": 5, "name": "Group North", "seq": 9})]
)
class ClubLeagueListItem(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seq = serializers.IntegerField()


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "one result",
            response_only=True,
            value={
                "id": 3,
                "club": "tuesday",
                "name": "League 2027",
                "seq": 1,
                "league": {
                    "ok": True,
                    "format": "tichu-league/1",
                    "header": {"name": "League 2027", "legs": 2, "scoring": "box", "promotion": 1, "relegation": 1},
                    "rounds": [
                        {
                            "round": 1,
                            "leg": 1,
                            "matches": [
                                {
                                    "match": "R1-1",
                                    "home": "owls",
                                    "away": "foxes",
                                    "date": "2027-01-12",
                                    "score": [1005, 895],
                                    "vp": [2, 0],
                                    "points": [3, 0],
                                    "corrected": False,
                                }
                            ],
                            "sits_out": [],
                        }
                    ],
                    "table": [
                        {
                            "rank": 1,
                            "entry": "owls",
                            "name": "Owls",
                            "players": ["Anna", "Ben"],
                            "player_names": ["Anna", "Ben"],
                            "played": 1,
                            "won": 1,
                            "drawn": 0,
                            "lost": 0,
                            "league_points": 3,
                            "vp": 2,
                            "points_for": 1005,
                            "points_against": 895,
                            "difference": 110,
                            "zone": "promotion",
                        }
                    ],
                    "played": 1,
                    "matches": 2,
                    "finished": False,
                    "promoted": None,
                    "relegated": None,
                    "undecided": [],
                    "events": 1,
                },
                "history": [{"index": 0, "type": "match_result", "match": "R1-1", "score": [1005, 895]}],
            },
        )
    ]
)
class ClubLeagueOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(help_text="the club's slug")
    name = serializers.CharField()
    seq = serializers.IntegerField(help_text="the league's seq (append with it as expected_seq)")
    league = serializers.DictField(
        help_text="the core's league_json: header, rounds (fixtures with results), table, promoted, relegated"
    )
    history = serializers.ListField(child=serializers.DictField(), help_text="every event, with its index")


class ClubLeaguesApi(ApiView):
    @extend_schema(responses={200: ClubLeagueListItem(many=True), 404: ERRORS[404]}, summary="A club's leagues")
    def get(self, request: Request, club: str) -> Response:
        found = club_visible(request, club)
        return Response([{"id": x.pk, "name": x.name, "seq": x.seq} for x in leagues.club_leagues(found)])

    @extend_schema(
        request=ClubLeagueCreateInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: ClubLeagueWriteOutput, **LEAGUE_ERRORS, **ERRORS},
        summary="Create a club's league (scorers, admins)",
    )
    def post(self, request: Request, club: str) -> Response:
        data = validated(ClubLeagueCreateInput, request)
        found = club_visible(request, club)
        require_writer(request.user, found)
        return write_response(
            leagues.league_create(club=found, **data, user=request.user, idempotency_key=idempotency_key(request))
        )


class LeagueDetailApi(ApiView):
    @extend_schema(responses={200: ClubLeagueOutput, 404: ERRORS[404]}, summary="A league: fixtures, results, table")
    def get(self, request: Request, pk: int) -> Response:
        return Response(leagues.league_view(leagues.league_get(request.user, pk)))


class LeagueEventsApi(ApiView):
    @extend_schema(
        request=ClubLeagueEventsAppendInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: ClubLeagueWriteOutput, **LEAGUE_ERRORS, **ERRORS},
        summary="Append a league's results, corrections and dates atomically (scorers, admins)",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(ClubLeagueEventsAppendInput, request)
        return write_response(
            leagues.append_league_events(
                league_id=pk,
                events=data["events"],
                expected_seq=data["expected_seq"],
                user=request.user,
                idempotency_key=idempotency_key(request),
            )
        )


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "two groups, one up and one down",
            response_only=True,
            value={
                "groups": [
                    [{"entry": "foxes", "players": [12, 13]}, {"entry": "owls", "players": [16, 17]}],
                    [{"entry": "hares", "players": [14, 15]}, {"entry": "bears", "players": [18, 19]}],
                ]
            },
        )
    ]
)
class ClubLeaguesNextSeasonOutput(serializers.Serializer):
    groups = serializers.ListField(
        child=serializers.ListField(child=serializers.DictField()),
        help_text="next season's entries of each group, top group first: each a league header's entries",
    )


class ClubLeaguesNextSeasonApi(ApiView):
    @extend_schema(
        parameters=[
            OpenApiParameter("groups", str, required=True, description="the club's league ids, top group first: 3,4,5")
        ],
        responses={200: ClubLeaguesNextSeasonOutput, 422: LEAGUE_ERRORS[422], **ERRORS},
        summary="Next season's groups from the club's finished leagues, promotion and relegation carried",
    )
    def get(self, request: Request, club: str) -> Response:
        found = club_visible(request, club)
        text = request.query_params.get("groups", "")
        try:
            groups = [int(g) for g in text.split(",")]
        except ValueError:
            groups = []
        return Response({"groups": leagues.next_season(found, groups)})
