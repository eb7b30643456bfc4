"""Write throttling: the `writes` rate of REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (settings,
env TICHU_WRITE_THROTTLE), per user, on unsafe methods only. The rate is read per request so
that tests and benchmarks can change it with override_settings. The counters live in Django's
cache (per process with LocMem; set CACHE_URL to share them through Redis)."""
from __future__ import annotations

import logging

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

logger = logging.getLogger(__name__)


class WriteThrottle(ScopedRateThrottle):
    scope_attr = "throttle_scope"

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        view.throttle_scope = getattr(view, "throttle_scope", None) or "writes"
        try:
            return super().allow_request(request, view)
        except Exception:  # noqa: BLE001 - the cache is down: throttling fails open, writes go on
            logger.warning("write throttle unavailable", exc_info=True)
            return True
