"""Invitations into a club and the club's audit log.

Memberships are made only by accepting an invitation (or by creating the club): nobody adds an
existing account to a club by its username, so no page or API call tells whether a username
exists. Every change a club admin makes is written to `AuditEntry` by `games.clubs.services`, in
the transaction of the change itself.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.choices import TextChoices
from games.models import Club, Membership, Player


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A single-use link into a club with a role; it expires, and an admin may revoke it.

    The token is kept as is (not hashed) so that the club's admins can copy a pending link again
    from the members page; it grants only what the admin chose, once, until it expires."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    role = models.CharField(max_length=10, choices=Membership.Role.choices, default=Membership.Role.SCORER)
    # Optional: the roster player the invited person is; accepting links the player to the account.
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=100, blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invitation to {self.club} as {self.role}"

    @property
    def state(self) -> str:
        """pending, accepted, revoked or expired."""
        if self.accepted_at is not None:
            return "accepted"
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        return "pending"


class AuditEntry(models.Model):
    """One change made to a club (by its admins, or by a member accepting an invitation or
    claiming a player): who, when, what. Written by the services only, never edited."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # The actor's username at the time: the entry keeps saying who even if the account goes.
    actor_name = models.CharField(max_length=150)
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name}: {self.summary}"


class ClaimRequest(models.Model):
    """A member's request to be a roster player of the club ("This is me"), which the club's
    admins approve (linking the player to the member's account) or refuse; the member may
    withdraw it while it waits. An invitation made for a named player whose seat is in an open
    game leaves one too (`source` invitation). A player's account decides which seat's hand its
    holder sees during a game, so a member never links themselves: see games.clubs.services."""

    class State(TextChoices):
        PENDING = "pending", "Waiting for an admin"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    class Source(TextChoices):
        MEMBER = "member", "Asked by the member"
        INVITATION = "invitation", "Made by an invitation for the player"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="claim_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One waiting request per member and club: a second "This is me" replaces nothing.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(state="pending"),
                name="claim_request_one_pending_per_member",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to be {self.player} ({self.state})"


class FeedEntry(models.Model):
    """One thing that happened in a club that a bot or a club's website posts (games.clubs.feed):
    a game started or finished, a tournament's round closed, a tournament finished, the ratings
    recomputed. Numbered per club (`seq`, 1-based, gap-free, in commit order), so a follower reads
    `GET /api/clubs/{club}/feed/?after=N` and never misses one. Written by games.clubs.feed in the
    transaction of what it reports; never changed (an outbox: the webhooks deliver from it)."""

    class Kind(TextChoices):
        GAME_STARTED = "game_started", _("A game started")
        GAME_FINISHED = "game_finished", _("A game finished")
        GAME_REOPENED = "game_reopened", _("A finished game was reopened")
        ROUND_CLOSED = "round_closed", _("A tournament round closed")
        TOURNAMENT_FINISHED = "tournament_finished", _("A tournament finished")
        RATINGS_RECOMPUTED = "ratings_recomputed", _("The ratings were recomputed")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="feed_entries", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=30, choices=Kind.choices)
    # What it is about: a game's id, a tournament's id (plain ids: the feed outlives nothing it
    # names, and the clubs app does not depend on the tournaments app).
    game_id = models.PositiveIntegerField(null=True, blank=True)
    tournament_id = models.PositiveIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["club", "seq"], name="feed_entry_unique_seq")]

    def __str__(self) -> str:
        return f"{self.club_id}#{self.seq} {self.kind}"


def new_webhook_secret() -> str:
    return secrets.token_hex(32)


class Webhook(models.Model):
    """A URL a club's admin registered to receive the club's feed entries of the chosen kinds,
    POSTed as JSON and signed with `secret` (HMAC-SHA256 of the body: games.clubs.webhooks)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64, default=new_webhook_secret, editable=False)
    kinds = models.JSONField(default=list, help_text="the feed kinds it receives; empty: every kind")
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club_id", "id"]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.url}"

    def wants(self, kind: str) -> bool:
        return self.active and (not self.kinds or kind in self.kinds)


class WebhookDelivery(models.Model):
    """One attempt to deliver a feed entry to a webhook: the delivery log on the club's page."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    entry = models.ForeignKey(FeedEntry, on_delete=models.PROTECT, related_name="+")
    attempt = models.PositiveSmallIntegerField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    delivered = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.webhook_id} entry {self.entry_id} attempt {self.attempt}: {self.status_code or self.error}"
