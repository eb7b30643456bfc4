"""Admin: tournaments and, read-only, their events and table games (they change only through the
services: events are appended, never edited)."""

from django.contrib import admin

from games.tournaments.models import TableGame, Tournament, TournamentEvent


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class TournamentEventInline(admin.TabularInline):
    model = TournamentEvent
    extra = 0
    fields = readonly_fields = ["seq", "type", "payload", "recorded_by", "recorded_at"]
    can_delete = False
    ordering = ["seq"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "status", "seq", "created_at"]
    list_filter = ["status", "club"]
    search_fields = ["name"]
    inlines = [TournamentEventInline]


@admin.register(TournamentEvent)
class TournamentEventAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "seq", "type", "recorded_by", "recorded_at"]
    list_filter = ["type"]


@admin.register(TableGame)
class TableGameAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "round", "table", "game", "created_at"]
