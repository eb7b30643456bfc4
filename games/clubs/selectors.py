"""Reads of club life for the pages (replay.clubs, which import no model): invitations, "This is
me" requests, the club's history, its webhooks and the feed's kinds. The writes are
games.clubs.services and games.clubs.webhook_services."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import AuditEntry, ClaimRequest, FeedEntry, Invitation, Webhook

#: the feed's kinds of entry (a webhook sends some or all)
FeedKind = FeedEntry.Kind


def invitations(club, limit: int) -> list[Invitation]:
    return list(Invitation.objects.filter(club=club).select_related("accepted_by")[:limit])


def invitation(club, pk: int | None) -> Invitation | None:
    return Invitation.objects.filter(club=club, pk=pk).first()


def pending_claims(club) -> QuerySet[ClaimRequest]:
    """The club's "This is me" requests waiting for an admin, oldest first."""
    pending = ClaimRequest.objects.filter(club=club, state=ClaimRequest.State.PENDING)
    return pending.select_related("player", "user").order_by("created_at", "id")


def claim(club, pk: int | None) -> ClaimRequest | None:
    return ClaimRequest.objects.filter(club=club, pk=pk).select_related("player", "user").first()


def history(club) -> QuerySet[AuditEntry]:
    """The club's history, newest first."""
    return AuditEntry.objects.filter(club=club).order_by("-created_at", "-id")


def webhooks(club) -> QuerySet[Webhook]:
    return Webhook.objects.filter(club=club)


def webhook(club, pk: int) -> Webhook | None:
    return Webhook.objects.filter(club=club, pk=pk).first()
