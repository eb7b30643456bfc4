"""Admin: invitations and the audit log, read-only (changes go through the site's club pages and
games.clubs.services, which write the audit entries)."""

from django.contrib import admin

from games.clubs.models import AuditEntry, Invitation


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["club", "role", "note", "created_by", "created_at", "expires_at", "state", "accepted_by"]
    list_filter = ["role", "club"]
    exclude = ["token"]  # the link is the club admins' to share, from the club's members page


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "club", "actor_name", "action", "summary"]
    list_filter = ["action", "club"]
    search_fields = ["actor_name", "summary"]
    date_hierarchy = "created_at"
