"""The league pages' replayed figures (the pair ratings of the league page, the rank history of
the player page), kept in the shared cache under the pool's version.

Both are replays of the whole pool (every RatingChange of a club and variant): seconds for a
3,000-game club on every view. They change only when the pool's ratings do, so they are computed
once per version of the pool and read from the cache until the next one. The version is read
from the pool row alone, so that it costs the same for a club of ten games and of a hundred
thousand (issue #35, bench/scale.py; it counted the pool's RatingChange rows before, a scan of the
club's whole history on every view): its `updated_at` (saved by every rating of a game and every
recompute, in the same transaction as the RatingChange rows: services._sync_game,
services.recompute_pool), `games_rated` and `last_game`. Rows removed otherwise go with a game or
a player deleted (CASCADE): receivers.touch_pools stamps the club's pools then. A new version is
a new key: nothing needs to be deleted, and the old entries expire. Names are never cached (a
renamed player shows at once).

Besides the pair ratings and the rank history, the league table's figures of a period
(queries.compute_table_figures) are kept the same way.

The cache is an optimisation only (games.safe_cache): with it down, the figures are computed as
before, and they are the same (tests/ratings/test_league_cache.py).
"""

from __future__ import annotations

from typing import Any, Callable

from games import safe_cache

from .models import RatingPool

TIMEOUT = 7 * 24 * 3600  # a version that is never read again is dropped after a week
PREFIX = "league:v1"


def pool_version(club_id: int, variant: str) -> str:
    """The version of a pool's ratings: changes whenever a RatingChange of the pool does. One row
    read (the pool's), whatever the pool's size."""
    row = (
        RatingPool.objects.filter(club_id=club_id, variant=variant)
        .values_list("updated_at", "games_rated", "last_game_id")
        .first()
    )
    if row is None:
        return "-"
    stamp, rated, last = row
    return f"{stamp.isoformat()}:{rated}:{last or 0}"


def cached_each(
    kind: str, club_id: int, variant: str, parts: tuple, item: Any, compute_all: Callable[[], dict], missing: Any
) -> Any:
    """`compute_all()[item]` (or `missing`) for this pool version: one replay gives every item
    (every player's rank history), each kept under a key of its own, so that a view reads its own
    item, not the whole pool's (issue #35: a player page read every player's history)."""
    base = ":".join(str(p) for p in (PREFIX, kind, club_id, variant, pool_version(club_id, variant), *parts))
    found = safe_cache.get_many([f"{base}:{item}", f"{base}:*"])
    if f"{base}:{item}" in found:
        return found[f"{base}:{item}"]
    if f"{base}:*" in found:  # the replay was kept and has nothing for this item
        return missing
    every = compute_all()
    safe_cache.set_many({**{f"{base}:{k}": v for k, v in every.items()}, f"{base}:*": True}, TIMEOUT)
    return every.get(item, missing)


def cached(kind: str, club_id: int, variant: str, parts: tuple, compute: Callable[[], Any]) -> Any:
    """`compute()` for this pool version and these arguments, from the cache when it has it."""
    key = ":".join(str(p) for p in (PREFIX, kind, club_id, variant, pool_version(club_id, variant), *parts))
    value = safe_cache.get(key)
    if value is None:
        value = compute()
        safe_cache.set(key, value, TIMEOUT)
    return value
