"""What an online table writes in its game's record besides the events: which seats the engine's
bot played, in the record's free-form `meta` (record-format.md: extend, never break; nothing in
`meta` changes how a record folds).

    "meta": {"bots": [{"seat": 2, "from": 0, "policy": "greedy"}]}

`from` is the number of events the record held when the bot took the seat (0: from the start),
so a seat handed to the bot when its player left says so from that event on; `to`, when there,
the number of events when it gave the seat up (a member took it: below). A turn clock that ran
out (games.online.turn_clock) marks the one event the bot played for the seat, `why` saying so:

    {"seat": 1, "from": 57, "to": 58, "policy": "greedy", "why": "clock"}

A seat taken over by another member (games.online.replacement) is said in `meta.seats_taken`,
who played it from which event on (the record's `players` name who sat down first):

    "meta": {"seats_taken": [{"seat": 2, "from": 40, "player": "Eve"}]}
 Every reader of the
game reads it here: the ratings (a game a bot played in is not rated unless the club says so:
`LeagueRules.rates_bot_games`, games.ratings.models), the pages, the export (the record carries it).
"""

from __future__ import annotations

from typing import Any

BOTS = "bots"
SEATS_TAKEN = "seats_taken"
#: a bot mark's `why` for the one action the bot played when a seat's turn clock ran out
CLOCK = "clock"


def bot_marks(header: Any) -> list[dict[str, Any]]:
    """The record's bot seats (`meta.bots`), [] for a game nobody's bot played in."""
    meta = header.get("meta") if isinstance(header, dict) else None
    marks = meta.get(BOTS) if isinstance(meta, dict) else None
    return [m for m in marks if isinstance(m, dict)] if isinstance(marks, list) else []


def with_bot(header: dict[str, Any], seat: int, since: int, policy: str) -> dict[str, Any]:
    """The header with `seat` marked as the bot's from event `since` on."""
    found = header.get("meta")
    meta = found if isinstance(found, dict) else {}
    mark = {"seat": seat, "from": since, "policy": policy}
    return {**header, "meta": {**meta, BOTS: [*bot_marks(header), mark]}}


def with_clock_move(header: dict[str, Any], seat: int, at: int, policy: str) -> dict[str, Any]:
    """The header with event `at` (0-based: the record held `at` events before it) marked as the
    bot's, played for `seat` when its turn clock ran out."""
    found = header.get("meta")
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    mark = {"seat": seat, "from": at, "to": at + 1, "policy": policy, "why": CLOCK}
    return {**header, "meta": {**meta, BOTS: [*bot_marks(header), mark]}}


def seats_taken(header: Any) -> list[dict[str, Any]]:
    """The record's takeovers (`meta.seats_taken`), [] when every seat kept its player."""
    meta = header.get("meta") if isinstance(header, dict) else None
    marks = meta.get(SEATS_TAKEN) if isinstance(meta, dict) else None
    return [m for m in marks if isinstance(m, dict)] if isinstance(marks, list) else []


def with_seat_taken(header: dict[str, Any], seat: int, since: int, player: str) -> dict[str, Any]:
    """The header with `seat` played by `player` from event `since` on; a bot that held the seat
    until then gets its `to` (its open mark for that seat ends there)."""
    found = header.get("meta")
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    bots = [{**m, "to": since} if m.get("seat") == seat and "to" not in m else m for m in bot_marks(header)]
    taken = [*seats_taken(header), {"seat": seat, "from": since, "player": player}]
    new_meta = {**meta, SEATS_TAKEN: taken}
    if BOTS in meta:
        new_meta[BOTS] = bots
    return {**header, "meta": new_meta}
