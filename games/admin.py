"""Admin: clubs (with memberships), players, games (with seats) and, read-only, events."""
from django.contrib import admin

from games.clubs.services import audit
from games.models import Club, Event, Game, GameSeat, IdempotencyKey, Membership, Player


def audit_membership_change(request, membership: Membership, *, change: bool, deleted: bool = False) -> None:
    """A membership added, changed or deleted in the admin goes into the club's audit log like one
    made on the site (games.clubs.services), so the log stays the whole history of who may do what."""
    name = membership.user.get_username()
    if deleted:
        action, summary = "admin_member_removed", f"removed {name} ({membership.role}) in the Django admin"
    elif change:
        action, summary = "admin_member_changed", f"set {name}'s role to {membership.role} in the Django admin"
    else:
        action, summary = "admin_member_added", f"added {name} as {membership.role} in the Django admin"
    audit(membership.club, request.user, action, summary, user=name, role=membership.role)


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

    def save_formset(self, request, form, formset, change) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is Membership:  # the formset says what it did only once it has saved
            for membership in formset.deleted_objects:
                audit_membership_change(request, membership, change=False, deleted=True)
            for membership, _fields in formset.changed_objects:
                audit_membership_change(request, membership, change=True)
            for membership in formset.new_objects:
                audit_membership_change(request, membership, change=False)


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

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        audit_membership_change(request, obj, change=change)

    def delete_model(self, request, obj) -> None:
        audit_membership_change(request, obj, change=False, deleted=True)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        for membership in queryset.select_related("user", "club"):
            audit_membership_change(request, membership, change=False, deleted=True)
        super().delete_queryset(request, queryset)


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
