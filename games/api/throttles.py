"""Write throttling: the `writes` rate of REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (settings,
env TICHU_WRITE_THROTTLE, e.g. "600/minute"), per user, on unsafe methods only.

A fixed-window counter (one increment per write) rather than DRF's sliding window, which reads
and rewrites the list of every request time in the window on each request. The counters live in
Django's cache: per process with LocMem, shared through Redis when CACHE_URL is set
(`games.window_counter`: one round trip on Redis; the sign-in throttle counts with it too). The
rate is read per request so that tests and benchmarks can change it with override_settings. If the cache is down, throttling fails open: writes go on."""

from __future__ import annotations

import logging
import time

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from games import window_counter
from games.client_address import client_address

logger = logging.getLogger(__name__)


def parse_rate(rate: str) -> tuple[int, int]:
    """ "600/minute" -> (600, 60): DRF's rate syntax (s, m, h, d by first letter)."""
    count, period = rate.split("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


class WriteThrottle(BaseThrottle):
    scope = "writes"

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        if not rate:
            return True
        limit, window = parse_rate(rate)
        user = request.user
        ident = getattr(user, "throttle_ident", None) or (  # a table code counts on its own
            f"user:{user.pk}" if user and user.is_authenticated else f"ip:{client_address(request)}"
        )
        now = time.time()
        start = int(now // window) * window
        self.retry_after = start + window - now
        key = f"tichu:throttle:{self.scope}:{ident}:{start}"
        try:
            count = window_counter.increment(key, window + 1)
        except Exception:  # noqa: BLE001 - see the module docstring
            logger.warning("write throttle unavailable", exc_info=True)
            return True
        # the RateLimit-* headers of this answer (games.api.http_cache.finish): seconds rounded up
        request.rate_limit = (limit, max(limit - count, 0), max(int(-(-self.retry_after // 1)), 1))
        return count <= limit

    def wait(self) -> float | None:
        return self.retry_after
