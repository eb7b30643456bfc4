"""What an online table writes in its game's record besides the events: which seats the engine's
bot played, in the record's free-form `meta` (record-format.md: extend, never break; nothing in
`meta` changes how a record folds).

    "meta": {"bots": [{"seat": 2, "from": 0, "policy": "greedy"}]}

`from` is the number of events the record held when the bot took the seat (0: from the start),
so a seat handed to the bot when its player left says so from that event on. Every reader of the
game reads it here: the ratings (a game a bot played in is not rated unless the club says so:
`LeagueRules.rates_bot_games`, games.ratings.models), the pages, the export (the record carries it).
"""

from __future__ import annotations

from typing import Any

BOTS = "bots"


def bot_marks(header: Any) -> list[dict[str, Any]]:
    """The record's bot seats (`meta.bots`), [] for a game nobody's bot played in."""
    meta = header.get("meta") if isinstance(header, dict) else None
    marks = meta.get(BOTS) if isinstance(meta, dict) else None
    return [m for m in marks if isinstance(m, dict)] if isinstance(marks, list) else []


def with_bot(header: dict[str, Any], seat: int, since: int, policy: str) -> dict[str, Any]:
    """The header with `seat` marked as the bot's from event `since` on."""
    meta = header.get("meta") if isinstance(header.get("meta"), dict) else {}
    mark = {"seat": seat, "from": since, "policy": policy}
    return {**header, "meta": {**meta, BOTS: [*bot_marks(header), mark]}}
