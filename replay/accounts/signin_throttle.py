"""The sign-in throttle: failed sign-ins counted per account and per address, in the cache.

One limiter for every way in: the authentication backend (`replay.accounts.backends`) calls it,
and Django's `authenticate()` is what the site's sign-in page, `/api/auth/token/`,
`/api-auth/login/` and `/admin/login/` all go through. While an account or an address is over
its limit of failures in the current window, the backend refuses before checking the password
(no password hashing for a throttled attempt) by raising `SignInThrottled`: the API answers it
with its JSON 429 (code `throttled`, `retry_after`), the pages with a 429 page
(`replay.accounts.middleware`).

Fixed windows (TICHU_SIGNIN_WINDOW_MINUTES, default 15): at most TICHU_SIGNIN_FAILURES_PER_ACCOUNT
(default 10) failures for one username (case-insensitive, whether the account exists or not, so
that the answer tells nothing about which usernames exist) and TICHU_SIGNIN_FAILURES_PER_ADDRESS
(default 50) from one client address (`games.client_address`: REMOTE_ADDR, or X-Forwarded-For
as far as TICHU_TRUSTED_PROXIES trusted proxies vouch for it). A successful sign-in clears its account's count, not the
address's. The counters live in Django's cache (shared through Redis when CACHE_URL is set); if
the cache is down the throttle fails open, as the write throttle does.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy, ngettext
from rest_framework.exceptions import Throttled

from games import window_counter
from games.client_address import client_address as _client_address

logger = logging.getLogger(__name__)


class SignInThrottled(Throttled):
    default_detail = gettext_lazy("too many failed sign-in attempts")

    def __init__(self, wait: float) -> None:
        minutes = max(1, round(wait / 60))
        detail = ngettext(
            "too many failed sign-in attempts: try again in %(minutes)d minute",
            "too many failed sign-in attempts: try again in %(minutes)d minutes",
            minutes,
        ) % {"minutes": minutes}
        super().__init__(wait=wait, detail=detail)


@dataclass(frozen=True)
class Limits:
    per_account: int
    per_address: int
    window: int  # seconds


def limits() -> Limits:
    return Limits(
        per_account=int(getattr(settings, "TICHU_SIGNIN_FAILURES_PER_ACCOUNT", 10)),
        per_address=int(getattr(settings, "TICHU_SIGNIN_FAILURES_PER_ADDRESS", 50)),
        window=int(getattr(settings, "TICHU_SIGNIN_WINDOW_MINUTES", 15)) * 60,
    )


def client_address(request) -> str | None:
    if request is None or not hasattr(request, "META"):
        return None
    return _client_address(request) or None


def _keys(username: str, address: str | None, start: int) -> dict[str, str]:
    account = hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]
    keys = {"account": f"tichu:signin:account:{account}:{start}"}
    if address:
        keys["address"] = f"tichu:signin:address:{address}:{start}"
    return keys


def _window(window: int) -> tuple[int, float]:
    now = time.time()
    start = int(now // window) * window
    return start, start + window - now


def check(request, username: str) -> None:
    """Raise SignInThrottled if this account or this address has used up its failures."""
    lim = limits()
    start, remaining = _window(lim.window)
    keys = _keys(username, client_address(request), start)
    try:
        counts = cache.get_many(list(keys.values()))
    except Exception:  # noqa: BLE001 - see the module docstring
        logger.warning("sign-in throttle unavailable", exc_info=True)
        return
    if counts.get(keys["account"], 0) >= lim.per_account:
        raise SignInThrottled(remaining)
    if "address" in keys and counts.get(keys["address"], 0) >= lim.per_address:
        raise SignInThrottled(remaining)


def failed(request, username: str) -> None:
    lim = limits()
    start, _ = _window(lim.window)
    try:
        for key in _keys(username, client_address(request), start).values():
            window_counter.increment(key, lim.window + 1)
    except Exception:  # noqa: BLE001
        logger.warning("sign-in throttle unavailable", exc_info=True)


def succeeded(request, username: str) -> None:
    start, _ = _window(limits().window)
    try:
        cache.delete(_keys(username, None, start)["account"])
    except Exception:  # noqa: BLE001
        logger.warning("sign-in throttle unavailable", exc_info=True)
