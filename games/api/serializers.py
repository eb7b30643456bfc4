"""Input serializers check shape only (strictly: unknown fields and wrong JSON types are 400);
the rules are the engine's. Output serializers render models."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games.api.exceptions import ApiError
from games.models import Club, Event, Game, Membership, Player, validate_time_zone
from games.services import MAX_BATCH


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: no strings, floats or booleans standing in for one."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string: numbers are not silently turned into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}]})
class ClubRefField(serializers.Field):
    """A club by id (a JSON integer) or by slug (a JSON string)."""

    default_error_messages = {"invalid": "a club id (integer) or slug (string)"}

    def to_internal_value(self, data: Any) -> int | str:
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, int) and data >= 1:
            return data
        if isinstance(data, str) and 0 < len(data) <= 100 and re.fullmatch(r"[-a-zA-Z0-9_]+", data):
            return data
        self.fail("invalid")

    def to_representation(self, value: Any) -> Any:
        return value


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know (400 `unknown_fields`) instead of ignoring them."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise ApiError(
                    _("unknown field(s): %(fields)s") % {"fields": ", ".join(map(str, unknown))}, code="unknown_fields"
                )
        return super().to_internal_value(data)


# --- input -------------------------------------------------------------------------------------


class ClubCreateInput(StrictSerializer):
    name = StrictCharField(max_length=100)
    slug = serializers.SlugField(max_length=100)
    visibility = serializers.ChoiceField(choices=Club.Visibility.choices, default=Club.Visibility.PUBLIC)
    reveal_hands = serializers.ChoiceField(
        choices=Club.RevealHands.choices,
        default=Club.RevealHands.AFTER_HAND,
        help_text="when readers who are not scorers see the cards of a hand",
    )
    time_zone = StrictCharField(
        max_length=64,
        required=False,
        validators=[validate_time_zone],
        help_text="the IANA name of the club's time zone (default: the site's), e.g. "
        "Europe/Berlin: its evenings run from 06:00 to 06:00 local time",
    )


class ClubUpdateInput(StrictSerializer):
    name = StrictCharField(max_length=100, required=False)
    visibility = serializers.ChoiceField(choices=Club.Visibility.choices, required=False)
    reveal_hands = serializers.ChoiceField(choices=Club.RevealHands.choices, required=False)
    time_zone = StrictCharField(
        max_length=64,
        required=False,
        validators=[validate_time_zone],
        help_text="the IANA name of the club's time zone, e.g. Europe/Berlin: its "
        "evenings run from 06:00 to 06:00 local time (docs/ratings.md)",
    )


class InvitationInput(StrictSerializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.SCORER)
    days = StrictIntegerField(min_value=1, max_value=90, required=False, help_text="default TICHU_INVITATION_DAYS (7)")
    note = StrictCharField(
        max_length=100, required=False, default="", allow_blank=True, help_text="for whom (shown to the club's admins)"
    )
    player = StrictIntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        default=None,
        help_text="an unlinked player of the club: accepting links it to the account",
    )


class MembershipUpdateInput(StrictSerializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class PlayerInput(StrictSerializer):
    club = ClubRefField(help_text="the club's id or slug")
    name = StrictCharField(max_length=100)


class PlayerRenameInput(StrictSerializer):
    name = StrictCharField(max_length=100, trim_whitespace=False)


class PlayerMergeInput(StrictSerializer):
    into = StrictIntegerField(min_value=1, help_text="the player of the same club who stays")


class GameCreateInput(StrictSerializer):
    club = ClubRefField(help_text="the club's id or slug")
    variant = StrictCharField(max_length=30)
    options = serializers.DictField(required=False, allow_null=True, default=None)
    players = serializers.ListField(child=StrictCharField(max_length=100), min_length=1, max_length=12)


class EventsAppendInput(StrictSerializer):
    expected_seq = StrictIntegerField(min_value=0)
    events = serializers.ListField(
        child=serializers.DictField(),
        min_length=1,
        help_text=f"Event objects of record-format.md section 3; at most {MAX_BATCH} per request.",
    )

    def validate_events(self, events: list[dict]) -> list[dict]:
        for i, event in enumerate(events):
            if not isinstance(event.get("type"), str):
                raise serializers.ValidationError(_("events[%(i)s] needs a string 'type'") % {"i": i})
        return events

    @staticmethod
    def quick(data: Any) -> dict | None:
        """The usual body, valid, taken by exact-type tests: what `validated_data` would be (the
        same values; tests/api/test_append_quick_input.py holds it to the serializer), or None
        for anything else, which the serializer then checks and refuses in its own words.
        Building the serializer's fields cost about 0.2 ms of every append (issue 35)."""
        if type(data) is not dict or len(data) != 2:
            return None
        seq, events = data.get("expected_seq"), data.get("events")
        if type(seq) is not int or seq < 0 or type(events) is not list or not 0 < len(events) <= MAX_BATCH:
            return None
        for event in events:
            if type(event) is not dict or type(event.get("type")) is not str:
                return None
        return {"expected_seq": seq, "events": [dict(event) for event in events]}

    def to_internal_value(self, data: Any) -> Any:
        # Checked before field validation so the answer names the documented limit.
        if isinstance(data, dict) and isinstance(data.get("events"), list) and len(data["events"]) > MAX_BATCH:
            raise ApiError(
                _("a batch holds at most %(limit)s events, this one has %(count)s")
                % {"limit": MAX_BATCH, "count": len(data["events"])},
                code="batch_too_large",
            )
        return super().to_internal_value(data)


class RecordImportInput(serializers.Serializer):
    """Documentation only: the body of an import is a record (record-format.md section 1)."""

    format = serializers.CharField(required=False)
    variant = serializers.CharField()
    options = serializers.DictField(required=False)
    players = serializers.ListField(child=serializers.CharField())
    events = serializers.ListField(child=serializers.DictField())


# --- output ------------------------------------------------------------------------------------


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "slug",
            "visibility",
            "reveal_hands",
            "time_zone",
            "created_at",
        ]


class MembershipOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    user = serializers.IntegerField(source="user_id")
    club = serializers.IntegerField(source="club_id")

    class Meta:
        model = Membership
        fields = ["id", "club", "user", "username", "role", "created_at"]


class InvitationOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    role = serializers.CharField()
    note = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    state = serializers.CharField(help_text="pending, accepted, revoked or expired")
    token = serializers.CharField(help_text="the secret of the link /invitations/{token}/")
    url = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()

    def get_url(self, invitation) -> str:
        request = self.context.get("request")
        path = f"/invitations/{invitation.token}/"
        return request.build_absolute_uri(path) if request is not None else path


class PlayerOutput(serializers.ModelSerializer):
    club = serializers.IntegerField(source="club_id")

    class Meta:
        model = Player
        fields = ["id", "club", "name", "created_at"]


class GameOutput(serializers.ModelSerializer):
    club = serializers.IntegerField(source="club_id")
    players = serializers.SerializerMethodField()
    player_ids = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "club",
            "variant",
            "options",
            "players",
            "player_ids",
            "status",
            "seq",
            "created_at",
            "finished_at",
            "played_at",
        ]

    def get_players(self, game: Game) -> list[str]:
        return [seat.player.name for seat in game.seats.all()]

    def get_player_ids(self, game: Game) -> list[int]:
        return [seat.player_id for seat in game.seats.all()]


class EventOutput(serializers.ModelSerializer):
    event = serializers.SerializerMethodField()
    recorded_by = serializers.SerializerMethodField()

    class Meta:
        model = Event
        fields = ["seq", "event", "recorded_by", "recorded_at"]

    def get_event(self, event: Event) -> dict:
        from games.selectors import event_seen  # selectors import nothing from the API

        return event_seen(event, self.context["sight"])

    def get_recorded_by(self, event: Event) -> str | None:
        return event.recorded_by.username if event.recorded_by else None


class WriteOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="game id")
    seq = serializers.IntegerField(help_text="the game's seq after the write")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    appended = serializers.IntegerField(required=False)
    first_seq = serializers.IntegerField(required=False)
    played_at = serializers.DateTimeField(required=False, help_text="an import: when the game was played")
    already_imported = serializers.BooleanField(
        required=False,
        help_text="an import answered 200: the club holds this record already (this game); nothing stored",
    )
    played_at_source = serializers.CharField(
        required=False,
        help_text='an import: how played_at is known; "none in the record: dated by its import" '
        "when the record has no meta.played_at",
    )


class RuleRefusalOutput(serializers.Serializer):
    """The rules' refusal inside a 422 (record-format section 4: `error`)."""

    code = serializers.CharField(help_text="the rule's code, e.g. not_your_turn, does_not_beat")
    message = serializers.CharField()
    params = serializers.DictField(required=False, help_text="the refusal's numbers and cards")


@extend_schema_serializer(
    component_name="Error",
    examples=[
        OpenApiExample(
            "stale expected_seq (409)",
            response_only=True,
            status_codes=["409"],
            value={
                "code": "seq_conflict",
                "message": "expected_seq 11 is stale: the game is at 12",
                "expected_seq": 11,
                "current_seq": 12,
            },
        ),
        OpenApiExample(
            "a rule refused an event (422)",
            response_only=True,
            status_codes=["422"],
            value={
                "code": "not_your_turn",
                "message": "it is seat 2's turn, not seat 1's",
                "params": {"seat": 1, "turn": 2},
                "ok": False,
                "index": 0,
                "error": {
                    "code": "not_your_turn",
                    "message": "it is seat 2's turn, not seat 1's",
                    "params": {"seat": 1, "turn": 2},
                },
            },
        ),
        OpenApiExample(
            "throttled (429)",
            response_only=True,
            status_codes=["429"],
            value={"code": "throttled", "message": "Request was throttled.", "retry_after": 7},
        ),
    ],
)
class ErrorOutput(serializers.Serializer):
    """Every error the API answers, one shape: `code` and `message` always; the rest where the
    error has it. `params` is always at the top level (a rules refusal also keeps it inside
    `error`, as record-format section 4 has it)."""

    code = serializers.CharField(help_text="stable error code, e.g. not_found, seq_conflict, not_your_turn")
    message = serializers.CharField(help_text="in the request's language")
    params = serializers.DictField(required=False, help_text="the error's numbers, names and fields")
    errors = serializers.JSONField(required=False, help_text="`invalid`: the message per field")
    retry_after = serializers.IntegerField(required=False, help_text="seconds to wait before retrying (429, 503)")
    expected_seq = serializers.IntegerField(required=False, help_text="409 `seq_conflict`: the seq you sent")
    current_seq = serializers.IntegerField(required=False, help_text="409 `seq_conflict`: the stream's seq now")
    ok = serializers.BooleanField(required=False, help_text="422 rules refusal: always false")
    index = serializers.IntegerField(
        required=False, allow_null=True, help_text="422 rules refusal: the refused event's index in the batch"
    )
    error = RuleRefusalOutput(required=False, help_text="422 rules refusal: the engine's error object")
