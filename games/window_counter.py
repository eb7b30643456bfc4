"""Fixed-window counters in the shared cache: one increment per call, the new count back. The
API's write throttle (`games.api.throttles`) and the site's sign-in throttle
(`replay.accounts.signin_throttle`) both count with it, so neither reaches into the other's package.

On Redis a count is one pipelined INCR + EXPIRE (one round trip) on a client kept per process:
Django's `cache.incr` asks EXISTS then INCRBY and builds a new client for each call, which cost
~0.3 ms of every append (bench/api.py). On any other cache backend (LocMem in tests and on one
process) it is Django's `cache.incr`/`cache.add`. A cache that is down raises: each caller
decides what that means (both throttles fail open)."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.cache import cache

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


def increment(key: str, ttl: int) -> int:
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
