"""Admin: clubs (with memberships), players, games (with seats) and, read-only, events."""
from django.contrib import admin

from games.models import Club, Event, Game, GameSeat, IdempotencyKey, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "visibility", "reveal_hands", "created_at"]
    list_filter = ["visibility", "reveal_hands"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    readonly_fields = ["seat", "player"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games change only through events (the API); the admin shows them."""

    list_display = ["id", "club", "variant", "status", "seq", "created_at", "finished_at"]
    list_filter = ["status", "variant", "club"]
    search_fields = ["seats__player__name"]
    date_hierarchy = "created_at"
    readonly_fields = ["stream_id", "club", "variant", "options", "header", "status", "seq", "created_by",
                       "created_at", "finished_at"]  # fmt: skip
    inlines = [GameSeatInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Events are append-only (database triggers): no add, change or delete here."""

    list_display = ["game", "seq", "type", "recorded_by", "recorded_at"]
    list_filter = ["type", "game__club"]
    search_fields = ["=game__id"]
    ordering = ["game", "seq"]
    list_select_related = ["game", "game__club", "recorded_by"]
    readonly_fields = ["game", "seq", "type", "payload", "recorded_by", "recorded_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(admin.ModelAdmin):
    list_display = ["user", "key", "status_code", "created_at"]
    readonly_fields = ["user", "key", "fingerprint", "status_code", "response", "created_at"]
    search_fields = ["key"]
