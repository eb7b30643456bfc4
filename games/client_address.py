"""The client's address, the one reading every limit keyed on an address uses.

Behind a reverse proxy, REMOTE_ADDR is the proxy's and the client's address is in
X-Forwarded-For, which the client may also write: a header that arrives with
`X-Forwarded-For: 1.2.3.4` keeps that value and the proxy appends (or sets) the address it saw.
So the header is read only as far as the proxies the operator declared are trusted:
TICHU_TRUSTED_PROXIES (settings, docs/deploy.md "The client's address").

- 0 (the default): REMOTE_ADDR; X-Forwarded-For is ignored, whatever it says.
- N: the Nth address from the right of X-Forwarded-For (each trusted proxy appends the address it
  received the request from; the rightmost N were written by them), REMOTE_ADDR when the header is
  absent.

The same reading as DRF's `get_ident` with REST_FRAMEWORK["NUM_PROXIES"] = N (settings sets it
from the same variable), so DRF's own throttles would agree. The sign-in throttle
(replay.accounts.signin_throttle), the API's write throttle (games.api.throttles) and anything
else keyed on an address call `client_address`.
"""

from __future__ import annotations

from django.conf import settings


def trusted_proxies() -> int:
    """TICHU_TRUSTED_PROXIES as a count (unset is 0)."""
    return int(getattr(settings, "TICHU_TRUSTED_PROXIES", None) or 0)


def client_address(request) -> str:
    """The client's address as far as the trusted proxies vouch for it ("" if there is none)."""
    meta = getattr(request, "META", None) or {}
    remote = (meta.get("REMOTE_ADDR") or "").strip()
    proxies = trusted_proxies()
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in (meta.get("HTTP_X_FORWARDED_FOR") or "").split(",")]
    forwarded = [part for part in forwarded if part]
    if not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]
