"""Registering and removing a club's webhooks (its admins only), each change in the audit log."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.clubs.models import FeedEntry, Webhook
from games.clubs.services import audit, lock_memberships, require_admin
from games.clubs.webhooks import WebhookRefused, check_url
from games.models import Club
from games.services import InvalidInput

MAX_PER_CLUB = 10


def webhook_create(*, club: Club, actor, url: str, kinds: list[str]) -> Webhook:
    unknown = sorted(set(kinds) - set(FeedEntry.Kind.values))
    if unknown:
        raise InvalidInput(
            _("unknown feed kinds: %(kinds)s (known: %(known)s)")
            % {"kinds": ", ".join(unknown), "known": ", ".join(FeedEntry.Kind.values)},
            code="webhook_kinds_invalid",
            params={"unknown": unknown},
        )
    try:
        check_url(url)
    except WebhookRefused as refused:
        raise InvalidInput(str(refused), code=refused.code, params={"url": url}) from None
    with transaction.atomic():
        require_admin(lock_memberships(club), actor)
        if Webhook.objects.filter(club=club).count() >= MAX_PER_CLUB:
            raise InvalidInput(
                _("a club has at most %(n)s webhooks: remove one first") % {"n": MAX_PER_CLUB}, code="webhook_limit"
            )
        hook = Webhook.objects.create(club=club, url=url, kinds=sorted(set(kinds)), created_by=actor)
        audit(club, actor, "webhook_added", f"added a webhook to {url}", webhook=hook.pk, url=url, kinds=hook.kinds)
    return hook


def webhook_remove(*, hook: Webhook, actor) -> None:
    with transaction.atomic():
        require_admin(lock_memberships(hook.club), actor)
        audit(hook.club, actor, "webhook_removed", f"removed the webhook to {hook.url}", webhook=hook.pk, url=hook.url)
        hook.delete()
