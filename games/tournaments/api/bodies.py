"""The tournament API's read answers, declared for the OpenAPI document (as games/api/bodies.py
does for games): events, record, pairing, boards, results and a table's result, each with an
example. The bodies are built by the tournament core and games.tournaments (plain dicts); fields
every answer has are required, the rest optional, and every model keeps the fields it does not
name, so an answer that gains a field never breaks a generated client."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from games.tournaments.api.serializers import TournamentEventOutput

_HEADER = {"entrants": "pairs", "system": "swiss", "scoring": "round_vp", "rounds": 2, "hands_per_round": 1}


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "the entries registered",
            response_only=True,
            value={
                "tournament": 4,
                "seq": 1,
                "after": 0,
                "events": [
                    {
                        "seq": 1,
                        "type": "entry_registered",
                        "payload": {"entry": "e0", "players": ["Anna", "Ben"]},
                        "recorded_by": "ada",
                        "recorded_at": "2026-12-07T19:01:00Z",
                    }
                ],
            },
        )
    ]
)
class TournamentEventsOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="the tournament's seq now")
    after = serializers.IntegerField()
    events = TournamentEventOutput(many=True)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "a record",
            response_only=True,
            value={
                "format": "tichu-tournament/1",
                "header": _HEADER,
                "events": [{"type": "entry_registered", "entry": "e0", "players": ["Anna", "Ben"]}],
            },
        )
    ]
)
class TournamentRecordOutput(serializers.Serializer):
    format = serializers.CharField()
    header = serializers.DictField()
    events = serializers.ListField(child=serializers.DictField(), help_text="the events a reader may see, in order")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "round 1 proposed",
            response_only=True,
            value={
                "ok": True,
                "seq": 4,
                "event": {"type": "round_paired", "round": 1, "tables": [{"table": 1, "sides": [["e0"], ["e1"]]}]},
            },
        )
    ]
)
class PairingOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    seq = serializers.IntegerField(help_text="append `event` with this expected_seq to publish the round")
    event = serializers.DictField(help_text="the round_paired event, with its explanation")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "a duplicate round",
            response_only=True,
            value={
                "ok": True,
                "events": 12,
                "rounds": [
                    {
                        "round": 1,
                        "closed": True,
                        "boards": [
                            {
                                "board": 1,
                                "top": 1,
                                "results": [
                                    {
                                        "table": 1,
                                        "north_south": "e0",
                                        "east_west": "e1",
                                        "points": [285, 15],
                                        "difference": 270,
                                    }
                                ],
                            }
                        ],
                    }
                ],
            },
        )
    ]
)
class BoardsOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    events = serializers.IntegerField()
    rounds = serializers.ListField(
        child=serializers.DictField(), help_text="per round: closed, and its boards' results"
    )


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "results to publish",
            response_only=True,
            value={
                "format": "tichu-tournament-results/1",
                "event": {"name": "Thursday", "club": "home", "status": "finished"},
                "entrants": [{"entry": "e0", "name": "Anna & Ben", "players": ["Anna", "Ben"], "active": True}],
                "rounds": [],
                "standings": [],
                "events": [],
            },
        )
    ]
)
class TournamentResultsOutput(serializers.Serializer):
    format = serializers.CharField()
    event = serializers.DictField(help_text="name, club, when, status, header, game and options")
    entrants = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    standings = serializers.ListField(child=serializers.DictField())
    events = serializers.ListField(child=serializers.DictField())


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "sent, waiting for the other side",
            response_only=True,
            value={
                "tournament": 4,
                "round": 1,
                "table": 2,
                "game": 31,
                "sides": [["Anna", "Ben"], ["Cleo", "Dan"]],
                "game_finished": True,
                "score": [265, 235],
                "confirmation": "unconfirmed",
                "seq": 17,
            },
        )
    ]
)
class TableResultOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    game = serializers.IntegerField()
    sides = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    game_finished = serializers.BooleanField()
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    confirmation = serializers.CharField(
        allow_null=True, help_text="unconfirmed, confirmed, disputed, corrected, game_changed"
    )
    seq = serializers.IntegerField(help_text="the tournament's seq now")
