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
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

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

    class State(models.TextChoices):
        PENDING = "pending", "Waiting for an admin"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    class Source(models.TextChoices):
        MEMBER = "member", "Asked by the member"
        INVITATION = "invitation", "Made by an invitation for the player"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="claim_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One waiting request per member and club: a second "This is me" replaces nothing.
            models.UniqueConstraint(fields=["club", "user"], condition=models.Q(state="pending"),
                                    name="claim_request_one_pending_per_member"),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to be {self.player} ({self.state})"
