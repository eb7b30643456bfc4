"""Write throttling: the `writes` rate of REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (settings,
env TICHU_WRITE_THROTTLE, e.g. "600/minute"), per user, on unsafe methods only.

A fixed-window counter (one increment per write) rather than DRF's sliding window, which reads
and rewrites the list of every request time in the window on each request. The counters live in
Django's cache: per process with LocMem, shared through Redis when CACHE_URL is set. On Redis the
counter is one pipelined INCR + EXPIRE (one round trip) on a client kept per process: Django's
`cache.incr` asks EXISTS then INCRBY and builds a new client for each call, which cost ~0.3 ms
of every append (bench/api.py). The rate is read per request so that tests and benchmarks can
change it with override_settings. If the cache is down, throttling fails open: writes go on."""
from __future__ import annotations

import logging
import time
from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)


def parse_rate(rate: str) -> tuple[int, int]:
    """"600/minute" -> (600, 60): DRF's rate syntax (s, m, h, d by first letter)."""
    count, period = rate.split("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"


@lru_cache(maxsize=4)
def _redis_for(location: str):
    import redis

    return redis.Redis.from_url(location)


def _redis_client():
    """A client on the default cache's Redis server, or None when the cache is not Redis."""
    conf = settings.CACHES.get("default", {})
    if conf.get("BACKEND") != REDIS_CACHE:
        return None
    location = conf["LOCATION"]
    # Django's RedisCache takes a list or a comma-separated string; the first server takes writes
    first = location.split(",")[0] if isinstance(location, str) else location[0]
    return _redis_for(first.strip())


def count_write(key: str, ttl: int) -> int:
    """Add one to the window's counter `key` (created with a lifetime of `ttl` s); the new count."""
    client = _redis_client()
    if client is not None:
        key = cache.make_key(key)  # the cache's KEY_PREFIX and version, as cache.incr would use
        pipe = client.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, ttl)  # renewing the TTL keeps a window's key at most one window longer
        count, _ = pipe.execute()
        return int(count)
    try:
        return cache.incr(key)
    except ValueError:  # first write of the window
        if cache.add(key, 1, ttl):
            return 1
        return cache.incr(key)


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
            f"user:{user.pk}" if user and user.is_authenticated else f"ip:{self.get_ident(request)}")
        now = time.time()
        start = int(now // window) * window
        self.retry_after = start + window - now
        key = f"tichu:throttle:{self.scope}:{ident}:{start}"
        try:
            count = count_write(key, window + 1)
        except Exception:  # noqa: BLE001 - see the module docstring
            logger.warning("write throttle unavailable", exc_info=True)
            return True
        return count <= limit

    def wait(self) -> float | None:
        return self.retry_after
