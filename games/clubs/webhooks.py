"""Webhooks: a club's feed entries POSTed to the URLs its admins registered, signed.

Each delivery is a Celery task (one per webhook and entry), queued after the commit of the entry
(games.clubs.feed.write); the body is the entry's JSON (as the feed API gives it, with the club),
signed with the webhook's secret:

    X-Tichu-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes, keyed by the secret>
    X-Tichu-Event: game_finished
    X-Tichu-Delivery: <entry's club>:<seq>   (the same on every retry: a receiver drops repeats)

A receiver answering anything but 2xx (or not answering within TIMEOUT_S) gets the delivery again,
with backoff, up to `TICHU_WEBHOOK_ATTEMPTS` attempts in all; every attempt is logged
(WebhookDelivery: the club's page shows the log). A broker that is down at the commit loses no
entry: the feed keeps it, and a follower reads it with `?after=N`.

The URL must be http(s) and, unless `TICHU_WEBHOOK_PRIVATE_ADDRESSES` is on, must not resolve to
a loopback, private, link-local or reserved address: a club admin may not make the server call
into its own network (checked at registration and again before each delivery).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import socket
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings
from django.utils.translation import gettext as _

from .models import FeedEntry, Webhook, WebhookDelivery

logger = logging.getLogger(__name__)
TIMEOUT_S = 5.0
USER_AGENT = "tichu-records-webhook/1"


class WebhookRefused(ValueError):
    """A URL that may not be registered (or called): the message says why, in words."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _attempts() -> int:
    return int(getattr(settings, "TICHU_WEBHOOK_ATTEMPTS", 5))


def _private_allowed() -> bool:
    return bool(getattr(settings, "TICHU_WEBHOOK_PRIVATE_ADDRESSES", False))


def check_url(url: str) -> None:
    """Refuse a URL the server may not call (see the module's docstring)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookRefused(
            _("a webhook's address must start with https:// (or http://) and name a host"), code="webhook_url_invalid"
        )
    if _private_allowed():
        return
    try:
        infos = socket.getaddrinfo(
            parts.hostname, parts.port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM
        )
    except (socket.gaierror, UnicodeError):
        raise WebhookRefused(
            _("the webhook's host %(host)s cannot be found") % {"host": parts.hostname}, code="webhook_url_unknown_host"
        ) from None
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])  # an IPv6 address may end in %scope
        if not address.is_global:
            raise WebhookRefused(
                _(
                    "the webhook's host %(host)s is an address of a private network (%(address)s): the server "
                    "calls only public addresses"
                )
                % {"host": parts.hostname, "address": address},
                code="webhook_url_private",
            )


def body_for(entry: FeedEntry) -> bytes:
    from games.clubs.feed import as_json

    return json.dumps({"club": entry.club_id, **as_json(entry)}, separators=(",", ":"), sort_keys=True).encode()


def deliver_on_commit(entry_id: int) -> None:
    """Queue one delivery task per webhook of the entry's club that wants its kind. A broker that
    is down costs a warning, never the request: the feed keeps the entry."""
    entry = FeedEntry.objects.filter(pk=entry_id).only("club_id", "kind").first()
    if entry is None:
        return
    for hook in Webhook.objects.filter(club_id=entry.club_id, active=True):
        if hook.wants(entry.kind):
            try:
                deliver.delay(hook.pk, entry_id)
            except Exception:  # the broker: the entry stays in the feed for followers
                logger.warning("webhook %s: entry %s not queued", hook.pk, entry_id, exc_info=True)


def post(hook: Webhook, entry: FeedEntry) -> tuple[int | None, str]:
    """One attempt: (the receiver's status, or None; an error in words, or "")."""
    try:
        check_url(hook.url)
    except WebhookRefused as refused:
        return None, str(refused)
    body = body_for(entry)
    request = urllib.request.Request(
        hook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Tichu-Event": entry.kind,
            "X-Tichu-Delivery": f"{entry.club_id}:{entry.seq}",
            "X-Tichu-Signature": signature(hook.secret, body),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:  # noqa: S310 - http(s) only, checked
            return answer.status, ""
    except urllib.error.HTTPError as err:
        return err.code, ""
    except (urllib.error.URLError, OSError) as err:
        return None, str(getattr(err, "reason", err))[:300]


@shared_task(name="games.clubs.webhooks.deliver", acks_late=True, ignore_result=True)
def deliver(webhook_id: int, entry_id: int, attempt: int = 1) -> dict[str, Any]:
    """One attempt; a failed one queues the next (2, 4, 8, ... s later) until TICHU_WEBHOOK_ATTEMPTS.
    (The next attempt is a new message rather than Celery's `retry`, so that the count and the
    backoff are the same in a worker and in the in-process mode the tests and `make run` use.)"""
    hook = Webhook.objects.filter(pk=webhook_id, active=True).first()
    entry = FeedEntry.objects.filter(pk=entry_id).first()
    if hook is None or entry is None:
        return {"delivered": False, "reason": "gone"}
    status, error = post(hook, entry)
    ok = status is not None and 200 <= status < 300
    WebhookDelivery.objects.create(
        webhook=hook, entry=entry, attempt=attempt, status_code=status, error=error, delivered=ok
    )
    if not ok and attempt < _attempts():
        try:
            deliver.apply_async((webhook_id, entry_id), {"attempt": attempt + 1}, countdown=2**attempt)
        except Exception:  # the broker: the log shows the failed attempt; the feed keeps the entry
            logger.warning("webhook %s: retry of entry %s not queued", webhook_id, entry_id, exc_info=True)
    return {"delivered": ok, "attempt": attempt, "status": status}
