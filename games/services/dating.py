"""How an imported game is dated, in its import's answer: the date its record gives
(`meta.played_at`, with `meta.played_at_source` when a reader estimated it), or none, and then the
game is dated by its import (Game.played_at defaults to now) and the answer says so, so that a
2019 log imported without its game id is not taken for tonight's game unawares."""

from __future__ import annotations

from typing import Any

#: `played_at_source` of a game whose record gives no date
DATED_BY_IMPORT = "none in the record: dated by its import"
#: `played_at_source` of a record that gives `meta.played_at` without saying how it is known
FROM_RECORD = "the record's meta.played_at"


def dating(meta: Any) -> dict[str, Any]:
    """``{"played_at": ISO text or None, "played_at_source": how it is known}`` for a record's meta."""
    meta = meta if isinstance(meta, dict) else {}
    when = meta.get("played_at")
    if when is None:
        return {"played_at": None, "played_at_source": DATED_BY_IMPORT}
    return {"played_at": when, "played_at_source": meta.get("played_at_source") or FROM_RECORD}
