"""Game list filters (django-filter): club, player, variant, status and date."""
from __future__ import annotations

import django_filters

from games.models import Game, GameSeat


class GameFilter(django_filters.FilterSet):
    club = django_filters.NumberFilter(field_name="club_id", help_text="club id")
    club_slug = django_filters.CharFilter(field_name="club__slug", help_text="club slug")
    player = django_filters.NumberFilter(method="filter_player", help_text="player id (any seat)")
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

    def filter_player(self, queryset, name, value):
        return queryset.filter(id__in=GameSeat.objects.filter(player_id=value).values("game_id"))

    def filter_player_name(self, queryset, name, value):
        return queryset.filter(id__in=GameSeat.objects.filter(player__name=value).values("game_id"))
