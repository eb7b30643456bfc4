"""Game and player list filters (django-filter): club (id or slug), player, variant, status, dates,
ordering. A club the reader cannot see is a 404 (not an empty page); a date names its parameter
(games.query_dates, the one parser of query dates); ids are integers in the schema."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import django_filters
from django import forms
from django.core.validators import RegexValidator
from django.db.models import Value
from django.db.models.functions import Lower, Trim
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import NotFound

from games import ids, selectors
from games.models import Game, GameSeat, Player
from games.query_dates import QueryDateError, parse_query_date, parse_query_datetime

CLUB_REF = RegexValidator(r"^[-a-zA-Z0-9_]{1,100}$", "a club id or slug")


def visible_club_id(request, value: str) -> int:
    """The id of the club `?club=` names (id or slug) if the reader may see it; else 404, as the
    club's own URL answers (an empty list would say "no games" of a club that is not there)."""
    user = getattr(request, "user", None)
    pk = selectors.clubs_visible(user).filter(selectors.club_q(value.strip())).values_list("pk", flat=True).first()
    if pk is None:
        raise NotFound(_("no such club: %(club)s") % {"club": value[:100]})
    return pk


def named(value: str):
    """The players called `value` in any club, compared as the roster compares names (Player's
    constraint, selectors.player_named: LOWER(TRIM(name))), as game creation matches them."""
    return Player.objects.annotate(name_key=Lower(Trim("name"))).filter(name_key=Lower(Trim(Value(value)))).values("pk")


class _QueryDateField(forms.Field):
    """A query date or date-time through games.query_dates; its refusal names the parameter."""

    def __init__(self, *, parameter: str, parse, **kwargs) -> None:
        self.parameter, self.parse = parameter, parse
        super().__init__(**kwargs)

    def to_python(self, value):
        try:
            return self.parse(self.parameter, value)
        except QueryDateError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from None


@extend_schema_field(OpenApiTypes.DATETIME)
class DateTimeAfterFilter(django_filters.Filter):
    """`field >= instant` (an ISO 8601 date-time, or a date: its midnight UTC)."""

    field_class = _QueryDateField

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("lookup_expr", "gte")
        super().__init__(*args, **kwargs)

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = _QueryDateField(
                parameter=self.field_name_in_query,
                parse=parse_query_datetime,
                required=False,
                help_text=self.extra.get("help_text", ""),
            )
        return self._field

    @property
    def field_name_in_query(self) -> str:
        return self.extra.get("query_name") or self.field_name


@extend_schema_field(OpenApiTypes.DATE)
class DayFilter(django_filters.Filter):
    """A day of the site's time zone (YYYY-MM-DD): `after` takes the instants from its start,
    `before` those up to its end."""

    def __init__(self, *args, side: str, query_name: str, **kwargs) -> None:
        self.side, self.query_name = side, query_name
        super().__init__(*args, **kwargs)

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = _QueryDateField(
                parameter=self.query_name,
                parse=parse_query_date,
                required=False,
                help_text=self.extra.get("help_text", ""),
            )
        return self._field

    def filter(self, qs, value):
        if value is None:
            return qs
        start = timezone.make_aware(datetime.combine(value, time()))
        if self.side == "after":
            return qs.filter(**{f"{self.field_name}__gte": start})
        return qs.filter(**{f"{self.field_name}__lt": start + timedelta(days=1)})


class PlayerFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(
        method="filter_club", help_text="club id or slug (404 if you cannot see it)", validators=[CLUB_REF]
    )
    name = django_filters.CharFilter(method="filter_name", help_text="display name, regardless of case")

    class Meta:
        model = Player
        fields = ["club", "name"]

    def filter_club(self, queryset, name, value):
        return queryset.filter(club_id=visible_club_id(self.request, value))

    def filter_name(self, queryset, name, value):
        return queryset.filter(pk__in=named(value))


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(django_filters.NumberFilter):
    """An id: an integer (the schema says `integer`, not NumberFilter's decimal `number`)."""

    field_class = forms.IntegerField


GAME_ORDERINGS = ("created_at", "finished_at", "played_at", "updated_at", "id")


class GameFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(
        method="filter_club", help_text="club id or slug (404 if you cannot see it)", validators=[CLUB_REF]
    )
    club_slug = django_filters.CharFilter(
        method="filter_club", help_text="club slug (404 if you cannot see it)", validators=[CLUB_REF]
    )
    player = IdFilter(method="filter_player", help_text="player id (any seat)")
    player_name = django_filters.CharFilter(
        method="filter_player_name", help_text="player display name (any seat), regardless of case"
    )
    variant = django_filters.CharFilter()
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)
    date_after = DayFilter(
        field_name="created_at",
        side="after",
        query_name="date_after",
        help_text="created on or after this day (YYYY-MM-DD)",
    )
    date_before = DayFilter(
        field_name="created_at",
        side="before",
        query_name="date_before",
        help_text="created on or before this day (YYYY-MM-DD)",
    )
    created = DayFilter(
        field_name="created_at",
        side="after",
        query_name="created",
        method="filter_created",
        help_text="created on this day (YYYY-MM-DD)",
    )
    finished_after = DateTimeAfterFilter(
        field_name="finished_at",
        query_name="finished_after",
        help_text="finished at or after this instant (ISO 8601 date-time; "
        "UTC without an offset; a date is its midnight UTC)",
    )
    updated_since = DateTimeAfterFilter(
        field_name="updated_at",
        query_name="updated_since",
        help_text="created or appended to at or after this instant (ISO 8601 "
        "date-time): what changed since a bot's last look",
    )
    ordering = django_filters.OrderingFilter(
        fields=GAME_ORDERINGS,
        help_text="sort by one of these, `-` first for descending (default -created_at); several comma-separated",
    )

    class Meta:
        model = Game
        fields = ["club", "club_slug", "player", "player_name", "variant", "status"]

    def filter_club(self, queryset, name, value):
        return queryset.filter(club_id=visible_club_id(self.request, value))

    def filter_created(self, queryset, name, value):
        start = timezone.make_aware(datetime.combine(value, time()))
        return queryset.filter(created_at__gte=start, created_at__lt=start + timedelta(days=1))

    def filter_player(self, queryset, name, value):
        if not ids.in_range(value):
            return queryset.none()
        return queryset.filter(id__in=GameSeat.objects.filter(player_id=value).values("game_id"))

    def filter_player_name(self, queryset, name, value):
        # the roster's comparison (Player's constraint: LOWER(TRIM(name))), as game creation matches names
        return queryset.filter(id__in=GameSeat.objects.filter(player__in=named(value)).values("game_id"))
