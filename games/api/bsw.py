"""`POST /api/games/import-bsw/?club=ID` (or `?club=SLUG`): a Brettspielwelt log into a club (scorers, admins).

Thin: the body's shape is checked here; conversion, checking and storage are games.importing's."""

from __future__ import annotations

from dataclasses import replace
from datetime import timezone as dt_timezone

from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games import engine
from games.api.requests import idempotency_key, write_response
from games.api.serializers import StrictSerializer
from games.api.views import ERRORS, IDEMPOTENCY_HEADER, ApiView, club_to_write_from_query
from games.importing import import_bsw_log
from games.services import WriteResult

MAX_LOG_CHARS = 2_000_000


class BswImportInput(StrictSerializer):
    log = serializers.CharField(
        max_length=MAX_LOG_CHARS, trim_whitespace=False, help_text="the .tch log's text (one or several games)"
    )
    bsw_scoring = serializers.BooleanField(
        default=False, help_text="score with BSW's reading of two Grand Tichu calls in one team"
    )
    anonymise = serializers.BooleanField(default=False, help_text="store Player 1..4 instead of BSW handles")
    game_id = serializers.RegexField(
        r"^[0-9]{1,12}$", required=False, help_text="the BSW game id (the log's file name): kept, and dates the games"
    )
    played_at = serializers.DateTimeField(
        required=False,
        default_timezone=dt_timezone.utc,
        help_text="when the games were played (ISO 8601; a time without offset is UTC), if known: wins over "
        "the estimate from game_id. Without either, the games are dated by the import (see dates)",
    )

    def validate_played_at(self, value):
        try:
            value.astimezone(dt_timezone.utc)  # 0001-01-01T00:00+01:00 is before the calendar in UTC
        except OverflowError:
            raise serializers.ValidationError("a date between the years 1 and 9999 in UTC") from None
        return value


class BswImportOutput(serializers.Serializer):
    games = serializers.IntegerField()
    hands = serializers.IntegerField()
    equal = serializers.IntegerField(help_text="finished hands whose score equals the log's Ergebnis")
    stored = serializers.IntegerField()
    already_imported = serializers.IntegerField(
        help_text="games of the log the club had imported before: not stored again"
    )
    game_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="the log's games in the club, new or not"
    )
    differences = serializers.ListField(child=serializers.DictField())
    errors = serializers.ListField(child=serializers.CharField())
    dates = serializers.ListField(
        child=serializers.DictField(),
        help_text="per game of the log: game, played_at (ISO 8601, or null) and played_at_source, how it is "
        'known; null with the source "none in the record: dated by its import" when neither '
        "played_at nor game_id dates it (a .tch log has no date line)",
    )
    hands_mended = serializers.ListField(
        child=serializers.DictField(),
        help_text="hands repaired, kept as their score-sheet line or skipped: game, hand, line, action, "
        "reason (in the request's language), rule and params (the same in every language)",
    )


class GameImportBswApi(ApiView):
    @extend_schema(
        request=BswImportInput,
        parameters=[
            OpenApiParameter("club", str, required=True, description="the club that gets the games (id or slug)"),
            IDEMPOTENCY_HEADER,
        ],
        responses={201: BswImportOutput, 200: BswImportOutput, **ERRORS},
        summary="Import a Brettspielwelt .tch log (scorers, admins)",
    )
    def post(self, request: Request) -> Response:
        club = club_to_write_from_query(request)
        body = BswImportInput(data=request.data)
        body.is_valid(raise_exception=True)
        result = import_bsw_log(
            club=club,
            text=body.validated_data["log"],
            user=request.user,
            bsw_scoring=body.validated_data["bsw_scoring"],
            anonymise=body.validated_data["anonymise"],
            game_id=body.validated_data.get("game_id"),
            played_at=body.validated_data.get("played_at"),
            idempotency_key=idempotency_key(request),
        )
        return write_response(_in_language(result))


def _in_language(result: WriteResult) -> WriteResult:
    """The report with each mended hand's ``reason`` in the request's language (as an error's
    ``message``: ``rule`` and ``params`` are the same in every language, and what is stored or
    replayed stays English); a note without its rule keeps its English reason."""
    lang = engine.words(get_language()).lang
    notes = result.body.get("hands_mended") if isinstance(result.body, dict) else None
    if lang == engine.words().lang or not notes:
        return result
    said = [{**n, "reason": engine.mended_words(n, lang) or n.get("reason")} for n in notes]
    return replace(result, body={**result.body, "hands_mended": said})
