"""The league in the API: `/api/clubs/{club}/league/` (both tables, ranks, games, last change,
the rules) and `/api/players/{id}/ratings/` (a player's rating history). Same reads and the same
visibility as the league pages (replay/league/): a members-only club's league is a 404 to anyone
but its members, whether they sign in by session or by token."""

from __future__ import annotations

from datetime import date

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors
from games.api.exceptions import ApiError
from games.api.limits import uint_parameter
from games.api.permissions import require_admin
from games.api.requests import query_uint, validated
from games.api.schema import SIGNED_IN
from games.api.views import ERRORS, ApiView, club_visible
from games.models import Club
from games.query_dates import QueryDateError, parse_query_date
from games.ratings import player_queries, player_view, queries
from games.ratings.adapters import HAND_SD
from games.ratings.evening import evening_of
from games.ratings.league_rules import RULE_FIELDS, league_settings_update, rules_of
from games.ratings.standing import PERIODS, period_bounds
from games.ratings.systems import in_order

from . import serializers as s

PARAMETERS = [
    OpenApiParameter("variant", str, enum=list(HAND_SD), default="nanking", description="the pool (default nanking)"),
    OpenApiParameter(
        "period",
        str,
        enum=list(PERIODS),
        default="all",
        description="all, season (from the club's season start month) or 30d; from/to win",
    ),
    OpenApiParameter("from", OpenApiTypes.DATE, description="the first evening of the period (YYYY-MM-DD)"),
    OpenApiParameter("to", OpenApiTypes.DATE, description="the last evening of the period (YYYY-MM-DD)"),
]

PAGING = [
    OpenApiParameter(
        "history",
        str,
        enum=["page", "all"],
        default="all",
        description="all: every game and every day (the answer before paging came; a large answer for a "
        "regular); page: `limit` games of the history (the newest, or those before/after a cursor) and the "
        "latest rank days. `limit`, `before` or `after` alone ask for a page",
    ),
    # the cursors are query integers as every view reads them (games.api.limits: one home)
    uint_parameter("before", "the games before this cursor (a previous answer's `older`)"),
    uint_parameter("after", "the games after this cursor (a previous answer's `newer`)"),
    # a page's size has a bound of its own: a page, not the whole history
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": player_view.MAX_LIST_GAMES},
        OpenApiParameter.QUERY,
        default=player_view.LIST_GAMES,
        description="games per page",
    ),
]


def _variant(request: Request) -> str:
    variant = request.query_params.get("variant", "nanking")
    if variant not in HAND_SD:
        raise ApiError(_("variant must be one of: %(names)s") % {"names": ", ".join(HAND_SD)}, code="invalid")
    return variant


def _period(request: Request, club: Club) -> tuple[str, date | None, date | None]:
    """As the pages read it (replay/league/views.py): explicit from/to win ("custom"); else the
    named period up to this evening of the club."""
    try:
        start = parse_query_date("from", request.query_params.get("from"))
        end = parse_query_date("to", request.query_params.get("to"))
    except QueryDateError as err:
        raise ApiError(err.message, code=err.code) from err
    if start or end:
        return "custom", start, end
    period = request.query_params.get("period", "all")
    if period not in PERIODS:
        raise ApiError(_("period must be one of: %(names)s") % {"names": ", ".join(PERIODS)}, code="invalid")
    start, end = period_bounds(period, evening_of(timezone.now(), club.time_zone), rules_of(club).season_start_month)
    return period, start, end


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def league_body(club: Club, variant: str, period: str, start: date | None, end: date | None) -> dict:
    """The league of a club's pool over a period: every table of games.ratings.systems."""
    rule = player_queries.rank_rule(club)
    rules = rules_of(club)
    tables = []
    first = None
    for rated in in_order(rules.leads_with):
        league = queries.league_table(club.pk, variant, start, end, table=rated.key, rule=rule, tz=club.time_zone)
        first = first or league
        rows = [{**r.as_dict(), "low": r.low, "high": r.high} for r in league.rows]
        tables.append({"key": rated.key, "system": rated.name, "parameters": rated.rules(variant), "rows": rows})
    return {
        "club": {"id": club.pk, "name": club.name, "slug": club.slug},
        "variant": variant,
        "period": period,
        "from": _iso(start),
        "to": _iso(end),
        "games": first.games,
        "recomputed_at": _iso(first.recomputed_at),
        "reference": _iso(first.reference),
        "rules": {
            "min_games": rule.min_games,
            "inactive_days": rule.inactive_days,
            "season_start_month": rules.season_start_month,
            "time_zone": club.time_zone,
            "rates_bot_games": rules.rates_bot_games,
            "follows_tournament_vp": rules.follows_tournament_vp,
        },
        "leads_with": rules.leads_with,
        "tables": tables,
    }


LEAGUE_EXAMPLE = {
    "club": {"id": 3, "name": "Tuesday club", "slug": "tuesday"},
    "variant": "nanking",
    "period": "all",
    "from": None,
    "to": None,
    "games": 42,
    "recomputed_at": "2026-12-01T21:40:12+00:00",
    "reference": "2026-12-01",
    "rules": {
        "min_games": 5,
        "inactive_days": 180,
        "season_start_month": 1,
        "time_zone": "Europe/Berlin",
        "rates_bot_games": False,
        "follows_tournament_vp": False,
    },
    "leads_with": "elo",
    "tables": [
        {
            "key": "elo",
            "system": "club-elo",
            "parameters": {"k": 24.0, "provisional_k": 40.0, "provisional_games": 10, "initial": 1500.0},
            "rows": [
                {
                    "rank": 1,
                    "player_id": 17,
                    "player": "Anna",
                    "rating": 1561.2,
                    "rd": 0.0,
                    "low": 1561.2,
                    "high": 1561.2,
                    "provisional": False,
                    "last_change": 11.8,
                    "change": 61.2,
                    "games": 21,
                    "wins": 13,
                    "win_rate": 0.619,
                    "tichu_made": 9,
                    "tichu_called": 12,
                    "grand_made": 1,
                    "grand_called": 2,
                    "double_victories": 3,
                    "form": "WWLWW",
                    "career_games": 21,
                    "last_played": "2026-12-01T21:35:00+00:00",
                    "games_to_rank": 0,
                    "inactive": False,
                    "note": "",
                }
            ],
        },
        {
            "key": "predictive",
            "system": "pool-bayes-kalman/6",
            "parameters": {"provisional_games": 10, "initial": 1500.0, "provisional_rd": 98.7, "hand_sd": 200.0},
            "rows": [
                {
                    "rank": 1,
                    "player_id": 17,
                    "player": "Anna",
                    "rating": 1548.0,
                    "rd": 61.5,
                    "low": 1425.0,
                    "high": 1671.0,
                    "provisional": False,
                    "last_change": 4.1,
                    "change": 48.0,
                    "games": 21,
                    "wins": 13,
                    "win_rate": 0.619,
                    "tichu_made": 9,
                    "tichu_called": 12,
                    "grand_made": 1,
                    "grand_called": 2,
                    "double_victories": 3,
                    "form": "WWLWW",
                    "career_games": 21,
                    "last_played": "2026-12-01T21:35:00+00:00",
                    "games_to_rank": 0,
                    "inactive": False,
                    "note": "",
                }
            ],
        },
    ],
}

RULES_EXAMPLE = {
    "leads_with": "elo",
    "min_games": 5,
    "inactive_days": 180,
    "season_start_month": 9,
    "rates_bot_games": False,
    "follows_tournament_vp": True,
}

RATINGS_EXAMPLE = {
    "player_id": 17,
    "player": "Anna",
    "club_id": 3,
    "variant": "nanking",
    "rating": 1548.0,
    "rd": 61.5,
    "elo": 1561.2,
    "games": 21,
    "wins": 13,
    "provisional": False,
    "ranked": True,
    "games_to_rank": 0,
    "inactive": False,
    "period": {"from": None, "to": None, "games": 21, "elo_change": 61.2, "change": 48.0},
    "rank_table": "elo",
    "rank_history": [{"day": "2026-12-01", "rank": 1, "ranked": True, "played": True}],
    "history_total": 21,
    "older": 790,
    "newer": None,
    "history": [
        {
            "game_id": 812,
            "finished_at": "2026-12-01T21:35:00+00:00",
            "evening": "2026-12-01",
            "result": "W",
            "expected": 0.55,
            "rating_before": 1543.9,
            "rating_after": 1548.0,
            "rd_after": 61.5,
            "change": 4.1,
            "elo_expected": 0.53,
            "elo_before": 1549.4,
            "elo_after": 1561.2,
            "elo_change": 11.8,
            "points_for": 1020.0,
            "points_against": 780.0,
            "partners": ["Ben"],
            "opponents": ["Clara", "Dan"],
            "opponent_rating": 1502.3,
            "tournament": None,
            "why": "won 1020–780 with Ben against Clara & Dan, expected 53%: +11.8; predictive 55%: +4.1",
        }
    ],
}

HISTORY_FIELDS = (
    "player_id",
    "player",
    "club_id",
    "variant",
    "rating",
    "rd",
    "elo",
    "games",
    "wins",
    "provisional",
    "ranked",
    "games_to_rank",
    "inactive",
    "period",
    "rank_table",
    "rank_history",
    "history",
    "history_total",
    "older",
    "newer",
)


class ClubLeagueApi(ApiView):
    @extend_schema(
        operation_id="clubs_league_retrieve",
        parameters=PARAMETERS,
        responses={200: s.LeagueOutput, 400: ERRORS[400], 404: ERRORS[404]},
        examples=[OpenApiExample("A club's league", value=LEAGUE_EXAMPLE, response_only=True)],
        summary="A club's league: the Elo table and the predictive model, with ranks, games, last change and rules",
    )
    def get(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        variant = _variant(request)
        period, start, end = _period(request, club)
        return Response(league_body(club, variant, period, start, end))

    @extend_schema(
        operation_id="clubs_league_partial_update",
        parameters=[],
        request=s.LeagueRulesInput,
        responses={200: s.LeagueRulesChangedOutput, 400: ERRORS[400], 403: ERRORS[403], 404: ERRORS[404]},
        examples=[OpenApiExample("The rules after the change", value=RULES_EXAMPLE, response_only=True)],
        auth=SIGNED_IN,
        summary="Change a club's league rules (admins); a change of what is rated recomputes the ratings",
    )
    def patch(self, request: Request, pk: str) -> Response:
        club = club_visible(request, pk)
        require_admin(request.user, club)
        rules = league_settings_update(club=club, actor=request.user, **validated(s.LeagueRulesInput, request))
        return Response({name: getattr(rules, name) for name in RULE_FIELDS})


class PlayerRatingsApi(ApiView):
    @extend_schema(
        operation_id="players_ratings_retrieve",
        parameters=[*PARAMETERS, *PAGING],
        responses={200: s.PlayerRatingsOutput, 400: ERRORS[400], 404: ERRORS[404]},
        examples=[OpenApiExample("A player's ratings", value=RATINGS_EXAMPLE, response_only=True)],
        summary="A player's ratings now and their history, game by game, in both tables (every game, or a "
        "page of them: ?history=page, ?limit=, ?before=, ?after=)",
    )
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(selectors.players_visible(request.user), pk=pk)
        variant = _variant(request)
        _name, start, end = _period(request, player.club)
        # Every game unless a page is asked for: the answer clients read before paging came stays theirs.
        paged = any(name in request.query_params for name in ("limit", "before", "after"))
        whole = request.query_params.get("history", "page" if paged else "all")
        if whole not in ("page", "all"):
            raise ApiError(_("history must be page or all"), code="invalid")
        if whole == "all":
            page = player_queries.player_page(player, variant, start, end)
            page.update(history_total=len(page["history"]), older=None, newer=None)
        else:
            before, after = query_uint(request, "before"), query_uint(request, "after")
            limit = query_uint(request, "limit")
            if limit is not None and not 1 <= limit <= player_view.MAX_LIST_GAMES:
                raise ApiError(
                    _("limit must be between 1 and %(most)s") % {"most": player_view.MAX_LIST_GAMES}, code="invalid"
                )
            page = player_view.player_view(
                player,
                variant,
                start,
                end,
                before=before,
                after=after,
                limit=limit or player_view.LIST_GAMES,
                chart=False,
            )
        return Response({k: page[k] for k in HISTORY_FIELDS})
