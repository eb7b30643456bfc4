"""Admin: clubs (with memberships), players, games (with seats and, read-only, their events).

Memberships changed here keep the site's rule that a club keeps at least one admin
(games.clubs.services.require_an_admin_after, the one home of the rule): a change that would leave
a club without one is refused with the site's message (the inline and the membership form show
it; a deletion lists it as what stops the deletion), and every change is audited. Deleting a
user deletes their memberships too, so the user admin keeps the same rule."""

import json
from collections import defaultdict

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.utils.html import format_html, format_html_join

from games.clubs.services import LastAdmin, PlayerInOpenGame, audit, open_game_of, require_an_admin_after
from games.models import Club, Game, GameSeat, IdempotencyKey, Membership, Player


def _last_admin_errors(changes: dict[Club, dict[int, str | None]]) -> list[str]:
    """The site's last-admin rule on `changes` ({club: {user id: new role or None}}): one line per
    club that would keep no admin."""
    errors = []
    for club, club_changes in changes.items():
        try:
            require_an_admin_after(club, club_changes)
        except LastAdmin as err:
            errors.append(f"{club}: {err.message}")
    return errors


def _removals(memberships) -> dict[Club, dict[int, str | None]]:
    changes: dict[Club, dict[int, str | None]] = defaultdict(dict)
    for membership in memberships:
        changes[membership.club][membership.user_id] = None
    return changes


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


class MembershipFormSet(forms.BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        if any(self.errors) or self.instance.pk is None:  # a club being added has no admin to lose
            return
        changes: dict[int, str | None] = {}
        for form in self.forms:
            if not form.has_changed() and not self._should_delete_form(form):
                continue
            old = form.instance if form.instance.pk is not None else None
            if old is not None:
                original = Membership.objects.get(pk=old.pk)
                changes.setdefault(original.user_id, None)
            if not self._should_delete_form(form) and form.cleaned_data.get("user") is not None:
                changes[form.cleaned_data["user"].pk] = form.cleaned_data.get("role")
        errors = _last_admin_errors({self.instance: changes})
        if errors:
            raise ValidationError(errors)


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = MembershipFormSet
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


class PlayerForm(forms.ModelForm):
    """A player's account changed here keeps the site's rule: not while the player sits in an open
    game (games.clubs.services.open_game_of; issue 30, finding 1)."""

    class Meta:
        model = Player
        fields = "__all__"

    def clean(self):
        data = super().clean()
        if self.instance.pk is None:
            return data
        stored = Player.objects.get(pk=self.instance.pk)
        new_user = data.get("user")
        if stored.user_id != (new_user.pk if new_user is not None else None):
            game_id = open_game_of(stored)
            if game_id is not None:
                raise ValidationError(PlayerInOpenGame(stored, game_id).message)
        return data


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]
    autocomplete_fields = ["user"]

    def save_model(self, request, obj, form, change):
        before = Player.objects.filter(pk=obj.pk).values_list("user_id", "user__username").first() if change else None
        super().save_model(request, obj, form, change)
        if before is not None and before[0] != obj.user_id:  # the club's history tells who changed a player's account
            if obj.user_id is None:
                audit(
                    obj.club,
                    request.user,
                    "player_unlinked",
                    f"unlinked the player {obj.name!r} from {before[1]} in the Django admin",
                    player=obj.pk,
                    name=obj.name,
                    user=before[1],
                )
            else:
                audit(
                    obj.club,
                    request.user,
                    "player_linked",
                    f"linked the player {obj.name!r} to {obj.user.get_username()} in the Django admin",
                    player=obj.pk,
                    name=obj.name,
                    user=obj.user.get_username(),
                )


class MembershipForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = "__all__"

    def clean(self):
        data = super().clean()
        club, user = data.get("club"), data.get("user")
        if club is None or user is None:
            return data
        changes: dict[Club, dict[int, str | None]] = defaultdict(dict)
        if self.instance.pk is not None:  # the row as stored leaves its club (or changes role there)
            original = Membership.objects.select_related("club").get(pk=self.instance.pk)
            changes[original.club][original.user_id] = None
        changes[club][user.pk] = data.get("role")
        errors = _last_admin_errors(changes)
        if errors:
            raise ValidationError(errors)
        return data


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    form = MembershipForm
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        audit_membership_change(request, obj, change=change)

    def get_deleted_objects(self, objs, request):
        """A deletion that would leave a club without an admin is listed as protected: the
        admin's delete page (one row or the bulk action) then deletes nothing."""
        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, perms, [*protected, *_last_admin_errors(_removals(objs))]

    def delete_model(self, request, obj) -> None:
        require_an_admin_after(obj.club, {obj.user_id: None})
        audit_membership_change(request, obj, change=False, deleted=True)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        rows = list(queryset.select_related("user", "club"))
        for club, changes in _removals(rows).items():
            require_an_admin_after(club, changes)
        for membership in rows:
            audit_membership_change(request, membership, change=False, deleted=True)
        super().delete_queryset(request, queryset)


User = get_user_model()


class ClubAwareUserAdmin(UserAdmin):
    """The auth admin's user pages, with one addition: a user's memberships go with the user, so
    deleting the last admin of a club is refused the way deleting the membership is."""

    def _club_removals(self, users) -> dict[Club, dict[int, str | None]]:
        return _removals(Membership.objects.filter(user__in=list(users)).select_related("club"))

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, perms, [*protected, *_last_admin_errors(self._club_removals(objs))]

    def delete_model(self, request, obj) -> None:
        self._refuse_or_audit(request, [obj])
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        self._refuse_or_audit(request, list(queryset))
        super().delete_queryset(request, queryset)

    def _refuse_or_audit(self, request, users) -> None:
        # One read of the memberships both checks the last-admin rule and writes the audit rows.
        memberships = list(Membership.objects.filter(user__in=users).select_related("user", "club"))
        for club, changes in _removals(memberships).items():
            require_an_admin_after(club, changes)
        for membership in memberships:
            audit_membership_change(request, membership, change=False, deleted=True)


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, ClubAwareUserAdmin)


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
                       "created_at", "finished_at", "events"]  # fmt: skip
    inlines = [GameSeatInline]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description="events")
    def events(self, game: Game):
        """The game's events, read-only (append-only in the database). Not an admin of their own:
        their primary key is (game, seq), which Django's admin does not take (migration 0031)."""
        rows = game.events.select_related("recorded_by").order_by("seq")
        head = format_html("<tr>{}</tr>", format_html_join("", "<th>{}</th>", ((n,) for n in EVENT_COLUMNS)))
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            ((e.seq, e.type, json.dumps(e.payload), e.recorded_by or "", e.recorded_at) for e in rows),
        )
        # Its own scrolling box: the admin cuts a field's row at its edge (.form-row's overflow is
        # hidden), which left the payload and time columns out of reach at phone width.
        return format_html(
            '<div class="game-events-box" style="overflow-x: auto; max-width: 100%">'
            '<table class="game-events">{}{}</table></div>',
            head,
            body,
        )


EVENT_COLUMNS = ("seq", "type", "payload", "recorded by", "recorded at")


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(admin.ModelAdmin):
    list_display = ["user", "key", "status_code", "created_at"]
    readonly_fields = ["user", "key", "fingerprint", "status_code", "response", "created_at"]
    search_fields = ["key"]
