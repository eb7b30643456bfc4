"""Output serializers of the league API: typed bodies for the OpenAPI document (the views build
plain dicts from games.ratings.queries; these declare their shape)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers import StrictIntegerField, StrictSerializer
from games.ratings.adapters import HAND_SD
from games.ratings.models import LeagueRules
from games.ratings.standing import PERIODS

PERIOD_CHOICES = [*PERIODS, "custom"]
# the league's tables (games.ratings.systems), which a club may lead with: one enum in the schema
# (SPECTACULAR_SETTINGS' ENUM_NAME_OVERRIDES, LeagueTableEnum); tests/ratings/test_league_api.py
# holds the two lists equal
TABLE_CHOICES = LeagueRules.LeadsWith.choices


class LeagueClubOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class LeagueRulesOutput(serializers.Serializer):
    min_games = serializers.IntegerField(help_text="rated games a player needs to be ranked")
    inactive_days = serializers.IntegerField(
        help_text="days without a game (before the latest game shown) after "
        "which a player is inactive, and unranked; 0: never"
    )
    season_start_month = serializers.IntegerField(help_text="the month the season (period=season) starts")
    time_zone = serializers.CharField(help_text="the club's time zone: its evenings run 06:00 to 06:00 local time")
    rates_bot_games = serializers.BooleanField(
        help_text="whether the games the engine's bot played a seat of are rated"
    )
    follows_tournament_vp = serializers.BooleanField(
        help_text="whether a tournament table's game under a VP preset counts as its VP say (equal VP: a draw); "
        "false: by its points, as every game"
    )


class LeagueRulesInput(StrictSerializer):
    """The rules an admin changes (PATCH /api/clubs/{club}/league/); a rule not given stays."""

    leads_with = serializers.ChoiceField(
        choices=TABLE_CHOICES, required=False, help_text="which table the league page shows first"
    )
    min_games = StrictIntegerField(
        min_value=1, max_value=200, required=False, help_text="rated games a player needs to be ranked in the league"
    )
    inactive_days = StrictIntegerField(
        min_value=0,
        max_value=3650,
        required=False,
        help_text="days without a game (before the club's latest) after which a player is listed as inactive; 0: never",
    )
    season_start_month = StrictIntegerField(
        min_value=1, max_value=12, required=False, help_text="the month the league's season starts"
    )
    rates_bot_games = serializers.BooleanField(
        required=False, help_text="rate the games the engine's bot played a seat of (a change recomputes the ratings)"
    )
    follows_tournament_vp = serializers.BooleanField(
        required=False,
        help_text="count a tournament table's game under a VP preset as its VP say (a change recomputes the ratings)",
    )


class LeagueRulesChangedOutput(serializers.Serializer):
    leads_with = serializers.ChoiceField(choices=TABLE_CHOICES)
    min_games = serializers.IntegerField()
    inactive_days = serializers.IntegerField()
    season_start_month = serializers.IntegerField()
    rates_bot_games = serializers.BooleanField()
    follows_tournament_vp = serializers.BooleanField()


class LeagueRowOutput(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="null: not ranked (too few games, or inactive)")
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    rating = serializers.FloatField(help_text="the rating after the player's last game in the period")
    rd = serializers.FloatField(help_text="rating deviation (0 in a table without one)")
    low = serializers.FloatField(help_text="rating - 2 RD: the lower end of the 95% range")
    high = serializers.FloatField(help_text="rating + 2 RD")
    provisional = serializers.BooleanField(help_text="too few games for a settled rating (shown with ?)")
    last_change = serializers.FloatField(help_text="the change at the player's last game in the period")
    change = serializers.FloatField(help_text="the change over the period")
    games = serializers.IntegerField(help_text="rated games in the period")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    tichu_made = serializers.IntegerField()
    tichu_called = serializers.IntegerField()
    grand_made = serializers.IntegerField()
    grand_called = serializers.IntegerField()
    double_victories = serializers.IntegerField()
    form = serializers.CharField(help_text="the last five results in the period, oldest first (W, L, D)")
    career_games = serializers.IntegerField(help_text="rated games up to the end of the period")
    last_played = serializers.DateTimeField()
    games_to_rank = serializers.IntegerField(help_text="games still needed for the club's minimum")
    inactive = serializers.BooleanField()
    note = serializers.CharField(help_text="what the table says of an unranked player", allow_blank=True)


class LeagueTableOutput(serializers.Serializer):
    key = serializers.ChoiceField(choices=TABLE_CHOICES, help_text="elo: the Elo table; predictive: the model")
    system = serializers.CharField(help_text="the system and its version")
    parameters = serializers.DictField(
        child=serializers.FloatField(), help_text="the system's rules as the league page states them"
    )
    rows = LeagueRowOutput(many=True, help_text="ranked players first, by rating; then the unranked")


class LeagueOutput(serializers.Serializer):
    club = LeagueClubOutput()
    variant = serializers.ChoiceField(choices=list(HAND_SD))
    period = serializers.ChoiceField(choices=PERIOD_CHOICES, help_text="custom: from/to were given")
    from_ = serializers.DateField(allow_null=True, help_text="the first evening of the period (null: open)")
    to = serializers.DateField(allow_null=True, help_text="the last evening of the period (null: open)")
    games = serializers.IntegerField(help_text="rated games in the period")
    recomputed_at = serializers.DateTimeField(allow_null=True, help_text="when the pool was last recomputed in full")
    reference = serializers.DateField(
        allow_null=True, help_text="the evening inactivity counts from: the latest game shown"
    )
    rules = LeagueRulesOutput()
    leads_with = serializers.ChoiceField(choices=TABLE_CHOICES, help_text="the table the club shows first (tables[0])")
    tables = LeagueTableOutput(many=True, help_text="the league's tables, the one the club leads with first")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")  # a Python keyword
        return fields


class RatingEntryOutput(serializers.Serializer):
    game_id = serializers.IntegerField()
    finished_at = serializers.DateTimeField(help_text="when the game was played (its place in the history)")
    evening = serializers.DateField(help_text="the club's evening of the game")
    result = serializers.ChoiceField(choices=["W", "L", "D"])
    expected = serializers.FloatField(help_text="the predictive model's win chance of the player's side, before")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    rd_after = serializers.FloatField()
    change = serializers.FloatField()
    elo_expected = serializers.FloatField(help_text="the Elo table's expectation of the player's side")
    elo_before = serializers.FloatField()
    elo_after = serializers.FloatField()
    elo_change = serializers.FloatField()
    points_for = serializers.FloatField(allow_null=True)
    points_against = serializers.FloatField(allow_null=True)
    partners = serializers.ListField(child=serializers.CharField())
    opponents = serializers.ListField(child=serializers.CharField())
    opponent_rating = serializers.FloatField(allow_null=True, help_text="the opponents' mean predictive rating")
    tournament = serializers.CharField(allow_null=True, help_text="the tournament's name, when a table's game")
    why = serializers.CharField(help_text="the change in words (English)")


class RatingPeriodOutput(serializers.Serializer):
    from_ = serializers.DateField(allow_null=True)
    to = serializers.DateField(allow_null=True)
    games = serializers.IntegerField()
    elo_change = serializers.FloatField()
    change = serializers.FloatField()

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


class RankDayOutput(serializers.Serializer):
    day = serializers.DateField()
    rank = serializers.IntegerField(allow_null=True)
    ranked = serializers.BooleanField()
    played = serializers.BooleanField()


class PlayerRatingsOutput(serializers.Serializer):
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    club_id = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=list(HAND_SD))
    rating = serializers.FloatField(allow_null=True, help_text="the predictive rating now (null: no rated game)")
    rd = serializers.FloatField(allow_null=True)
    elo = serializers.FloatField(allow_null=True, help_text="the Elo table's rating now")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    provisional = serializers.BooleanField()
    ranked = serializers.BooleanField()
    games_to_rank = serializers.IntegerField()
    inactive = serializers.BooleanField()
    period = RatingPeriodOutput(help_text="the changes over the period asked for")
    rank_table = serializers.ChoiceField(choices=TABLE_CHOICES, help_text="the table rank_history ranks in")
    rank_history = RankDayOutput(
        many=True,
        help_text="the player's rank after each club evening: every one (the latest 100 in a page)",
    )
    history = RatingEntryOutput(
        many=True,
        help_text="the player's rated games, oldest first: every one, or in a page (?history=page, ?limit=, "
        "?before=, ?after=) the newest `limit` or those before/after a cursor",
    )
    history_total = serializers.IntegerField(help_text="how many rated games the player has in this pool")
    older = serializers.IntegerField(
        allow_null=True, help_text="the cursor of the next older page (?before=); null: none older"
    )
    newer = serializers.IntegerField(
        allow_null=True, help_text="the cursor of the next newer page (?after=); null: none newer"
    )
