"""Tournament API shapes. Input is checked for shape only (unknown fields are 400); the rules of
a tournament are the core's (games.tournament), which refuses with coded errors (422)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers import ClubRefField, StrictCharField, StrictIntegerField, StrictSerializer
from games.tournaments import result_sides, table_codes
from games.tournaments.models import TableCode, TableGame, Tournament, TournamentEvent
from games.tournaments.services import MAX_BATCH


class TournamentCreateInput(StrictSerializer):
    club = ClubRefField(help_text="the club's id or slug")
    name = StrictCharField(max_length=100)
    header = serializers.DictField(
        help_text="the tournament header of docs/tournament.md (system, scoring, rounds, ...)"
    )
    variant = StrictCharField(max_length=30, default="nanking", help_text="the game every table plays")
    game_options = serializers.DictField(
        required=False, default=dict, help_text="extra engine options for the tables' games (house rules)"
    )


class TournamentImportInput(StrictSerializer):
    club = ClubRefField(help_text="the club's id or slug that holds the imported tournament")
    format = serializers.ChoiceField(
        choices=["tichu-tournament-results/1", "aragos"],
        default="tichu-tournament-results/1",
        help_text="our results format, or aragos/tichu-tournament's tournament JSON",
    )
    results = serializers.JSONField(help_text="the results file (a JSON object)")
    name = StrictCharField(max_length=100, required=False, help_text="aragos only: overrides the file's name")


class TournamentEventsAppendInput(StrictSerializer):
    expected_seq = StrictIntegerField(min_value=0)
    events = serializers.ListField(
        child=serializers.DictField(),
        min_length=1,
        max_length=MAX_BATCH,
        help_text="tournament events of docs/tournament.md",
    )


class ResultFromGameInput(StrictSerializer):
    reason = StrictCharField(
        max_length=500, required=False, help_text="required when the table has a result already (a correction)"
    )


class TournamentOutput(serializers.ModelSerializer):
    club_slug = serializers.CharField(source="club.slug")

    class Meta:
        model = Tournament
        fields = ["id", "club", "club_slug", "name", "header", "variant", "game_options", "status", "seq", "created_at"]


class TournamentEventOutput(serializers.ModelSerializer):
    recorded_by = serializers.CharField(source="recorded_by.username", default=None)

    class Meta:
        model = TournamentEvent
        fields = ["seq", "type", "payload", "recorded_by", "recorded_at"]


class TableGameOutput(serializers.ModelSerializer):
    """A table's game. Its `status` and `seq` are null for a reader from whom the game is held
    (`games.holds.unlisted`, the serializer's context `unlisted`): how far a duplicate table has
    played its board is the table's and the TD's to know until the round closes."""

    status = serializers.SerializerMethodField()
    seq = serializers.SerializerMethodField()

    class Meta:
        model = TableGame
        fields = ["round", "table", "game", "status", "seq"]

    def _shown(self, row: TableGame) -> bool:
        return row.game_id not in self.context.get("unlisted", ())

    def get_status(self, row: TableGame) -> str | None:
        return row.game.status if self._shown(row) else None

    def get_seq(self, row: TableGame) -> int | None:
        return row.game.seq if self._shown(row) else None


class TableCodeOutput(serializers.ModelSerializer):
    """A live table code (shown to the tournament's scorers and admins only)."""

    printed = serializers.SerializerMethodField()
    pins = serializers.SerializerMethodField(
        help_text="a PIN each side may type, as printed: ns (side 0), ew (side 1); the PIN of the first "
        "entry at that side this round (each entry's PIN for the evening), or the side's own PIN for a "
        "tournament made before entry PINs"
    )

    class Meta:
        model = TableCode
        fields = ["round", "table", "code", "printed", "pins", "created_at"]

    def get_printed(self, row: TableCode) -> str:
        return table_codes.printed(row.code)

    def get_pins(self, row: TableCode) -> dict[str, str]:
        ns, ew = result_sides.a_pin_per_side(row)  # entry PINs (issue 33): the first entry's of each side
        return {"ns": table_codes.printed_pin(ns), "ew": table_codes.printed_pin(ew)}


class TableActionInput(StrictSerializer):
    action = serializers.ChoiceField(
        choices=["record", "confirm", "dispute", "deal"], help_text="deal: a duplicate table's next board into its game"
    )
    reason = StrictCharField(required=False, max_length=500, allow_blank=True)
    pin = StrictCharField(
        required=False,
        max_length=32,
        allow_blank=True,
        help_text="with the table's code: the PIN of your side (on its slip of the table card); "
        "the side that sent the result does not confirm or dispute it",
    )
