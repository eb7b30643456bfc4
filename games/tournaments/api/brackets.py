"""The bracket API (docs/api.md, "Brackets"): list and create a club's knockout brackets, read one
(the core's fold: rounds, matches with their sides, games, winners, the consolation bracket), seed
it, append its events. Thin: shapes checked here, the rules in games.tournaments.brackets and the
core."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import serializers as gs
from games.api.permissions import require_writer
from games.api.requests import idempotency_key, validated, write_response
from games.api.serializers import StrictCharField, StrictIntegerField, StrictSerializer
from games.api.views import ERRORS, IDEMPOTENCY_HEADER, ApiView, club_visible
from games.tournaments import brackets

BRACKET_ERRORS = {
    409: OpenApiResponse(gs.ErrorOutput, description="expected_seq is stale; nothing stored"),
    422: OpenApiResponse(gs.ErrorOutput, description="the bracket's rules refuse events[index]; nothing stored"),
}


class BracketCreateInput(StrictSerializer):
    name = StrictCharField(max_length=100)
    header = serializers.DictField(
        required=False,
        default=dict,
        help_text="the bracket header of docs/tournament.md (best_of, hands or target, consolation)",
    )


class BracketEventsAppendInput(StrictSerializer):
    expected_seq = StrictIntegerField(min_value=0)
    events = serializers.ListField(
        child=serializers.DictField(),
        min_length=1,
        max_length=brackets.MAX_BATCH,
        help_text="bracket_seeded / match_result / match_corrected events of docs/tournament.md "
        "(a correction with its reason)",
    )


class BracketSeedInput(StrictSerializer):
    expected_seq = StrictIntegerField(min_value=0)
    by = serializers.ChoiceField(choices=["rating", "previous_stage", "hand"])
    entries = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=200,
        help_text="{entry, players, name?} in any order (by hand: in seed order); "
        "left out with a tournament: its entries in its standings' order",
    )
    tournament = StrictIntegerField(required=False, min_value=1, help_text="the previous stage: a club's tournament")
    top = StrictIntegerField(required=False, min_value=2, max_value=200, help_text="the previous stage's first n")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "two results stored", response_only=True, value={"id": 3, "seq": 4, "appended": 2, "first_seq": 3}
        )
    ]
)
class BracketWriteOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="bracket id")
    seq = serializers.IntegerField(help_text="the bracket's seq after the write")
    appended = serializers.IntegerField(required=False)
    first_seq = serializers.IntegerField(required=False)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "a cup",
            response_only=True,
            value={
                "id": 3,
                "name": "Spring cup",
                "seq": 2,
                "header": {"format": "tichu-bracket/1", "name": "Spring cup", "best_of": 3, "consolation": False},
                "created_at": "2027-03-01T19:30:00Z",
            },
        )
    ]
)
class BracketListItem(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seq = serializers.IntegerField()
    header = serializers.DictField()
    created_at = serializers.DateTimeField()


_FINAL = {"match": "W2-1", "round": 2, "sides": ["A", "C"], "winner": "A", "games": [[620, 380]]}


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "four entries, the final played",
            response_only=True,
            value={
                "id": 3,
                "club": "tuesday",
                "name": "Club cup",
                "seq": 4,
                "format": "tichu-bracket/1",
                "header": {
                    "format": "tichu-bracket/1",
                    "name": "Club cup",
                    "best_of": 1,
                    "hands": None,
                    "target": 1000,
                    "consolation": False,
                    "meta": {},
                },
                "seeding": {
                    "by": "hand",
                    "seeds": [
                        {"seed": 1, "entry": "A", "players": [12, 14], "name": "A", "player_names": ["Ada", "Bo"]}
                    ],
                },
                "brackets": {
                    "main": [
                        [
                            {"match": "W1-1", "round": 1, "sides": ["A", "D"], "winner": "A", "games": [[700, 300]]},
                            {"match": "W1-2", "round": 1, "sides": ["B", "C"], "winner": "C", "games": [[400, 600]]},
                        ],
                        [_FINAL],
                    ]
                },
                "winner": "A",
                "consolation_winner": None,
                "finished": True,
                "events": 4,
            },
        )
    ]
)
class BracketOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(help_text="the club's slug")
    name = serializers.CharField()
    seq = serializers.IntegerField(help_text="the bracket's seq (append with it as expected_seq)")
    format = serializers.CharField()
    header = serializers.DictField(help_text="the header as the core normalised it")
    seeding = serializers.DictField(help_text="by (rating, previous_stage, hand) and the seeds in order")
    brackets = serializers.DictField(
        help_text="main (and consolation once its entries are known): rounds, each a list of matches "
        "{match, round, sides, winner, bye?, games?, walkover?, reason?}"
    )
    winner = serializers.CharField(allow_null=True)
    consolation_winner = serializers.CharField(allow_null=True)
    finished = serializers.BooleanField()
    events = serializers.IntegerField()


class ClubBracketsApi(ApiView):
    @extend_schema(responses={200: BracketListItem(many=True), 404: ERRORS[404]}, summary="A club's brackets")
    def get(self, request: Request, club: str) -> Response:
        found = club_visible(request, club)
        rows = brackets.club_brackets(found)
        return Response(
            [{"id": b.pk, "name": b.name, "seq": b.seq, "header": b.header, "created_at": b.created_at} for b in rows]
        )

    @extend_schema(
        request=BracketCreateInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: BracketWriteOutput, **ERRORS},
        summary="Create a club's knockout bracket (scorers, admins)",
    )
    def post(self, request: Request, club: str) -> Response:
        data = validated(BracketCreateInput, request)
        found = club_visible(request, club)
        require_writer(request.user, found)
        return write_response(
            brackets.bracket_create(club=found, **data, user=request.user, idempotency_key=idempotency_key(request))
        )


class BracketDetailApi(ApiView):
    @extend_schema(
        responses={200: BracketOutput, 404: ERRORS[404]}, summary="A bracket: seeds, rounds, matches, winners"
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(brackets.bracket_view(brackets.bracket_get(request.user, pk)))


class BracketEventsApi(ApiView):
    @extend_schema(
        request=BracketEventsAppendInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: BracketWriteOutput, **BRACKET_ERRORS, **ERRORS},
        summary="Seed a bracket, record or correct its matches' results atomically (scorers, admins)",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(BracketEventsAppendInput, request)
        return write_response(
            brackets.append_bracket_events(
                bracket_id=pk,
                events=data["events"],
                expected_seq=data["expected_seq"],
                user=request.user,
                idempotency_key=idempotency_key(request),
            )
        )


class BracketSeedApi(ApiView):
    @extend_schema(
        request=BracketSeedInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: BracketWriteOutput, **BRACKET_ERRORS, **ERRORS},
        summary="Seed a bracket by the club's Elo table, a previous tournament's standings or by hand",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated(BracketSeedInput, request)
        return write_response(
            brackets.seed_bracket(
                bracket_id=pk,
                entries=data.get("entries"),
                by=data["by"],
                tournament=data.get("tournament"),
                top=data.get("top"),
                expected_seq=data["expected_seq"],
                user=request.user,
                idempotency_key=idempotency_key(request),
            )
        )
