"""Wrong seat links, throttled per client address (the table codes' approach:
games.tournaments.code_throttle).

A seat link's secret is 128 bits, beyond guessing; the throttle keeps a client from trying many
anyway (and from hammering the lookup). A link that names no seat counts as a failure for the
client's address; while the address is at its limit in the current window, every seat link it
opens is refused before the secret is looked up, a valid one too, with 429 and `Retry-After`: a
throttled guess learns nothing. A link that opens its seat counts nothing.

The limits are the table codes' (TICHU_TABLE_CODE_FAILURES_PER_ADDRESS failures in
TICHU_TABLE_CODE_WINDOW_MINUTES): one guess at a secret of the club's tables is one guess,
whichever kind. The counters are the shared cache's (games.window_counter), under keys of their
own; a cache that is down fails open, as the other throttles do.
"""

from __future__ import annotations

import logging
import math
import time

from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

from games import window_counter
from games.tournaments.code_throttle import limits

logger = logging.getLogger(__name__)


def _key(request, start: int) -> str:
    return f"tichu:seatlink:address:{BaseThrottle().get_ident(request)}:{start}"


def _window(window: int) -> tuple[int, float]:
    now = time.time()
    start = int(now // window) * window
    return start, start + window - now


def wait_left(request) -> int | None:
    """Seconds until this address may try a seat link again, or None when it may now."""
    lim = limits()
    start, remaining = _window(lim.window)
    try:
        count = cache.get(_key(request, start), 0)
    except Exception:  # noqa: BLE001 - see the module docstring
        logger.warning("seat link throttle unavailable", exc_info=True)
        return None
    return max(1, math.ceil(remaining)) if count >= lim.per_address else None


def failed(request) -> None:
    lim = limits()
    start, _ = _window(lim.window)
    try:
        window_counter.increment(_key(request, start), lim.window + 1)
    except Exception:  # noqa: BLE001
        logger.warning("seat link throttle unavailable", exc_info=True)
