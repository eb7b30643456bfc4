"""Game and player list filters (django-filter): club (id or slug), player, variant, status and date."""
from __future__ import annotations

import django_filters
from django import forms
from django.core.validators import RegexValidator
from django.db.models import Q

from games import ids
from games.models import Game, GameSeat, Player


CLUB_REF = RegexValidator(r"^[-a-zA-Z0-9_]{1,100}$", "a club id or slug")


def filter_by_club(queryset, value: str):
    """`?club=` by id or slug (a slug always has a letter); a malformed value matches nothing."""
    value = value.strip()
    if value.isascii() and value.isdigit():
        pk = ids.from_text(value)
        return queryset.filter(club_id=pk) if pk is not None else queryset.none()
    return queryset.filter(Q(club__slug=value))


class PlayerFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(method="filter_club", help_text="club id or slug", validators=[CLUB_REF])
    name = django_filters.CharFilter(help_text="exact display name")

    class Meta:
        model = Player
        fields = ["club", "name"]

    def filter_club(self, queryset, name, value):
        return filter_by_club(queryset, value)


class IdFilter(django_filters.NumberFilter):
    """An id: an integer (the schema says `integer`, not NumberFilter's decimal `number`)."""

    field_class = forms.IntegerField




class GameFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(method="filter_club", help_text="club id or slug", validators=[CLUB_REF])
    club_slug = django_filters.CharFilter(field_name="club__slug", help_text="club slug")
    player = IdFilter(method="filter_player", help_text="player id (any seat)")
    player_name = django_filters.CharFilter(method="filter_player_name", help_text="player display name (any seat)")
    variant = django_filters.CharFilter()
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)
    date = django_filters.DateFromToRangeFilter(
        field_name="created_at", help_text="created on or after date_after, on or before date_before (YYYY-MM-DD)"
    )
    created = django_filters.DateFilter(field_name="created_at", lookup_expr="date", help_text="created on this day")

    class Meta:
        model = Game
        fields = ["club", "club_slug", "player", "player_name", "variant", "status", "date", "created"]

    def filter_club(self, queryset, name, value):
        return filter_by_club(queryset, value)

    def filter_player(self, queryset, name, value):
        if not ids.in_range(value):
            return queryset.none()
        return queryset.filter(id__in=GameSeat.objects.filter(player_id=value).values("game_id"))

    def filter_player_name(self, queryset, name, value):
        return queryset.filter(id__in=GameSeat.objects.filter(player__name=value).values("game_id"))
