"""The table codes' throttle: failed code attempts counted per client address and per tournament.

A table code is 8 characters from 25 (~1.5e11 codes), enough against guessing only if guesses are
few: unthrottled, a client tried 300 wrong codes in 2.2 s (issue 30). Every way a code is tried
goes through here: the site's `/t/<code>/` (replay.tournaments.table_cards) and the API's
`Authorization: TableCode` (games.tournaments.api.authentication). A failure (a code that opens
no table, or one used on another table's game) counts for the client's address and, where the
request names a game of a tournament (the API's `/api/games/{id}/...`), for that tournament.
While either count is at its limit in the current window, every attempt from that address (or on
that tournament's games) is refused before the code is looked up, a valid code too, with 429 and
`Retry-After`: a throttled guess learns nothing. A code that opens its table counts nothing.

Fixed windows of TICHU_TABLE_CODE_WINDOW_MINUTES (default 15): at most
TICHU_TABLE_CODE_FAILURES_PER_ADDRESS (default 30) failures from one address and
TICHU_TABLE_CODE_FAILURES_PER_TOURNAMENT (default 200) on one tournament's games. The address is
DRF's reading of the client (as for the sign-in throttle). The counters are the shared cache's
(games.window_counter); a cache that is down fails open, as the other throttles do.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy, ngettext
from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle

from games import ids, window_counter
from games.tournaments.models import TableGame

logger = logging.getLogger(__name__)
_GAME_PATH = re.compile(r"^/api/games/(\d{1,19})/")


class TableCodeThrottled(Throttled):
    default_detail = gettext_lazy("too many wrong table codes")

    def __init__(self, wait: float) -> None:
        minutes = max(1, round(wait / 60))
        detail = ngettext(
            "too many wrong table codes: try again in %(minutes)d minute",
            "too many wrong table codes: try again in %(minutes)d minutes",
            minutes,
        ) % {"minutes": minutes}
        super().__init__(wait=wait, detail=detail)


@dataclass(frozen=True)
class Limits:
    per_address: int
    per_tournament: int
    window: int  # seconds


def limits() -> Limits:
    return Limits(
        per_address=int(getattr(settings, "TICHU_TABLE_CODE_FAILURES_PER_ADDRESS", 30)),
        per_tournament=int(getattr(settings, "TICHU_TABLE_CODE_FAILURES_PER_TOURNAMENT", 200)),
        window=int(getattr(settings, "TICHU_TABLE_CODE_WINDOW_MINUTES", 15)) * 60,
    )


def tournament_of_path(path: str) -> int | None:
    """The tournament whose table plays the game an API path names, or None."""
    match = _GAME_PATH.match(path)
    if match is None or not ids.in_range(int(match.group(1))):
        return None
    return TableGame.objects.filter(game_id=int(match.group(1))).values_list("tournament_id", flat=True).first()


def _keys(request, tournament_id: int | None, start: int) -> list[str]:
    keys = [f"tichu:tablecode:address:{BaseThrottle().get_ident(request)}:{start}"]
    if tournament_id is not None:
        keys.append(f"tichu:tablecode:tournament:{tournament_id}:{start}")
    return keys


def _window(window: int) -> tuple[int, float]:
    now = time.time()
    start = int(now // window) * window
    return start, start + window - now


def check(request, tournament_id: int | None = None) -> None:
    """Raise TableCodeThrottled while this address, or this tournament, has used up its failures."""
    lim = limits()
    start, remaining = _window(lim.window)
    keys = _keys(request, tournament_id, start)
    try:
        counts = cache.get_many(keys)
    except Exception:  # noqa: BLE001 - see the module docstring
        logger.warning("table code throttle unavailable", exc_info=True)
        return
    if counts.get(keys[0], 0) >= lim.per_address:
        raise TableCodeThrottled(remaining)
    if len(keys) > 1 and counts.get(keys[1], 0) >= lim.per_tournament:
        raise TableCodeThrottled(remaining)


def failed(request, tournament_id: int | None = None) -> None:
    lim = limits()
    start, _ = _window(lim.window)
    try:
        for key in _keys(request, tournament_id, start):
            window_counter.increment(key, lim.window + 1)
    except Exception:  # noqa: BLE001
        logger.warning("table code throttle unavailable", exc_info=True)
