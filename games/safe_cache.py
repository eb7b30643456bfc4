"""The shared cache, used as an optimisation only: a cache that is down (Redis stopped, a
timeout, a value it cannot pickle) is logged and read as a miss, so the caller computes the value
instead of failing the request. Pages and API answer the same with or without the cache."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)


def get(key: str) -> Any | None:
    """The cached value, or None when it is missing or the cache cannot be read."""
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - any backend failure is a miss
        logger.warning("cache unavailable, reading %s as a miss", key, exc_info=True)
        return None


def set(key: str, value: Any, timeout: float | None) -> bool:  # noqa: A001 - mirrors cache.set
    """Store a value; False (logged) when the cache cannot take it."""
    try:
        cache.set(key, value, timeout)
    except Exception:  # noqa: BLE001 - an optimisation lost, not an error
        logger.warning("cache unavailable, %s not stored", key, exc_info=True)
        return False
    return True


def get_many(keys: list[str]) -> dict[str, Any]:
    """The cached values found among ``keys`` (one round trip); {} when the cache cannot be read."""
    try:
        return cache.get_many(keys)
    except Exception:  # noqa: BLE001 - any backend failure is a miss
        logger.warning("cache unavailable, reading %d keys as misses", len(keys), exc_info=True)
        return {}


def set_many(values: dict[str, Any], timeout: float | None) -> bool:
    """Store several values (one round trip); False (logged) when the cache cannot take them."""
    try:
        cache.set_many(values, timeout)
    except Exception:  # noqa: BLE001 - an optimisation lost, not an error
        logger.warning("cache unavailable, %d keys not stored", len(values), exc_info=True)
        return False
    return True
