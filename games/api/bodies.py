"""The read answers' shapes, for the OpenAPI document: state, score, record, events, legal,
standings and crosstable, each with an example.

These bodies are built by the engine and the tournament core (plain dicts: the engine's CLI
prints the same JSON), not by these serializers: the serializers only declare them, so that a
generated client parses them into typed models. Fields that every answer has are required; the
rest depend on the game (Tien Zi Que's state has no trick), the phase or the reader's sight, and
are optional. Every model keeps the fields it does not name (`additionalProperties`), so an
answer that gains a field never breaks a client (docs/api.md, "A generated client").
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from games.api.serializers import EventOutput
from games.models import Game

_EXAMPLE_OPTIONS = {"preset": "rio", "deal_method": "draw", "target_score": 1000, "grand_tichu": True}


class HandLineOutput(serializers.Serializer):
    points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="the hand's score-sheet line: per team (team 0 first), per player in "
        "threechu (the dummy last) and grand-seigneur; calls and bonuses included",
    )
    out = serializers.ListField(child=serializers.IntegerField(), help_text="the finishing order of the seats")
    calls = serializers.DictField(child=serializers.CharField(), help_text="seat (as a string) -> tichu or grand_tichu")
    card_points = serializers.ListField(child=serializers.IntegerField(), required=False)
    kind = serializers.CharField(required=False, help_text="cards (played card by card) or result (a hand_result)")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "one hand played",
            response_only=True,
            value={
                "ok": True,
                "variant": "nanking",
                "hands": [
                    {"points": [15, 85], "out": [0, 1, 3, 2], "calls": {}, "card_points": [15, 85], "kind": "cards"}
                ],
                "totals": [15, 85],
                "complete": False,
                "winner": None,
            },
        )
    ]
)
class GameScoreOutput(serializers.Serializer):
    """`python -m games.engine score` (record-format section 4)."""

    ok = serializers.BooleanField()
    variant = serializers.CharField()
    hands = HandLineOutput(many=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    complete = serializers.BooleanField(help_text="the game is over")
    winner = serializers.IntegerField(allow_null=True, help_text="the winning team (or player) once the game is over")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "a hand being dealt",
            response_only=True,
            value={
                "ok": True,
                "variant": "nanking",
                "players": ["Ann", "Bob", "Cid", "Dee"],
                "options": _EXAMPLE_OPTIONS,
                "events": 20,
                "phase": "deal",
                "turn": None,
                "hand_number": 1,
                "totals": [0, 0],
                "score_sheet": [],
                "complete": False,
                "winner": None,
                "teams": [[0, 2], [1, 3]],
                "hands": [
                    ["4p", "7s", "Aj", "Dragon"],
                    ["2p", "5p", "Tr", "Jj", "Qp"],
                    ["9j", "Tj", "Ts", "As", "Phoenix"],
                    ["Mahjong", "3p", "5j", "Jp", "Qj"],
                ],
                "trick": [],
                "wish": None,
                "calls": {},
                "out": [],
            },
        )
    ]
)
class GameStateOutput(serializers.Serializer):
    """`python -m games.engine state --at N` (record-format section 4), masked for the reader as
    docs/api.md "What a reader sees" says (a hidden card is `"?"`)."""

    ok = serializers.BooleanField()
    variant = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), required=False)
    options = serializers.DictField(required=False, help_text="the game's options, every default filled in")
    events = serializers.IntegerField(help_text="events folded (N)")
    phase = serializers.CharField(help_text="the phase of play, e.g. deal, push, play, hand_over, game_over")
    turn = serializers.IntegerField(allow_null=True, required=False, help_text="the seat to act, or null")
    hand_number = serializers.IntegerField(required=False)
    totals = serializers.ListField(child=serializers.IntegerField())
    score_sheet = serializers.JSONField(required=False, help_text="the hands scored so far (as the score's `hands`)")
    complete = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    hands = serializers.JSONField(required=False, help_text='cards per seat (`"?"` where the reader may not see)')
    trick = serializers.JSONField(required=False, help_text="the plays of the current trick")
    wish = serializers.CharField(allow_null=True, required=False)
    calls = serializers.DictField(required=False)
    out = serializers.ListField(child=serializers.IntegerField(), required=False)
    redacted = serializers.CharField(required=False, help_text="present when cards were masked for this reader")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "a record",
            response_only=True,
            value={
                "format": "tichu-record/1",
                "variant": "nanking",
                "players": ["Ann", "Bob", "Cid", "Dee"],
                "options": _EXAMPLE_OPTIONS,
                "events": [{"type": "shuffle", "seat": 1}, {"type": "draw", "seat": 1, "card": "Qp"}],
            },
        )
    ]
)
class GameRecordOutput(serializers.Serializer):
    """The record of record-format section 1 (import it again with `POST /api/games/import/`)."""

    format = serializers.CharField(required=False)
    variant = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField(required=False)
    meta = serializers.DictField(required=False, help_text="where and when it was played, if known")
    events = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="section 3's events; absent for a score-sheet game kept without them",
    )
    redacted = serializers.CharField(required=False, help_text="present when cards were masked for this reader")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "the first events",
            response_only=True,
            value={
                "game": 7,
                "seq": 2,
                "status": "active",
                "after": 0,
                "more": False,
                "events": [
                    {
                        "seq": 1,
                        "event": {"type": "shuffle", "seat": 1},
                        "recorded_by": "ada",
                        "recorded_at": "2026-12-07T19:02:11.120000Z",
                    }
                ],
            },
        )
    ]
)
class GameEventsOutput(serializers.Serializer):
    game = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="the game's seq now")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    after = serializers.IntegerField()
    events = EventOutput(many=True)
    more = serializers.BooleanField(help_text="more events follow: ask again with after = the last seq")
    redacted = serializers.CharField(required=False, help_text="present when cards were masked for this reader")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "whose turn, and what they may do",
            response_only=True,
            value={
                "game": 7,
                "seq": 60,
                "status": "active",
                "variant": "nanking",
                "phase": "play",
                "turn": 2,
                "actions": [{"type": "pass", "seat": 2}],
            },
        )
    ]
)
class LegalOutput(serializers.Serializer):
    """The events the rules accept next (games.engine.entry_facts), and the answer to `check`."""

    game = serializers.IntegerField()
    seq = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    variant = serializers.CharField()
    check = serializers.JSONField(required=False, help_text="per checked event: accepted, or the rule's refusal")


class StandingRowOutput(serializers.Serializer):
    entry = serializers.CharField()
    name = serializers.CharField(required=False)
    rank = serializers.IntegerField(allow_null=True, required=False, help_text="null before the entry's first result")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "before the first result",
            response_only=True,
            value={
                "ok": True,
                "events": 5,
                "rounds_paired": 1,
                "rounds_closed": 0,
                "finished": False,
                "scoring": "round_vp",
                "tiebreaks": ["total_points"],
                "ranked": False,
                "standings": [{"entry": "e0", "name": "Anna & Ben", "rank": None}],
            },
        )
    ]
)
class StandingsOutput(serializers.Serializer):
    """`python -m games.tournament standings` (docs/tournament.md)."""

    ok = serializers.BooleanField()
    events = serializers.IntegerField(help_text="tournament events folded")
    rounds_paired = serializers.IntegerField()
    rounds_closed = serializers.IntegerField()
    finished = serializers.BooleanField()
    scoring = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    ranked = serializers.BooleanField(help_text="false until the first table has a result: no rank before")
    standings = StandingRowOutput(many=True)


class CrosstableRowOutput(serializers.Serializer):
    entry = serializers.CharField()
    name = serializers.CharField()
    rounds = serializers.ListField(
        child=serializers.DictField(), help_text="per round: where the entry sat, with and against whom, what it took"
    )


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "after round 1",
            response_only=True,
            value={
                "ok": True,
                "events": 9,
                "crosstable": [
                    {
                        "entry": "e0",
                        "name": "Anna & Ben",
                        "rounds": [{"round": 1, "kind": "table", "table": 1, "game": 12}],
                    }
                ],
            },
        )
    ]
)
class CrosstableOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    events = serializers.IntegerField()
    crosstable = CrosstableRowOutput(many=True)
