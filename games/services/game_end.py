"""A game's status from its fold and its record: the one home of "finished, in play or unfinished".

A game is *finished* when the engine says it is over. A game that is not over is *in play*, unless
its record comes from a source that ended before the game did: a Brettspielwelt log (it cuts off
mid-hand when BSW stopped writing, `meta.bsw_results`), a Tichu tracker score sheet (the app's
history of lunch games that stopped after a few hands, `meta.source == "tichu-tracker"`), or any
record that says so itself (`meta.source_ended: true`, docs/importers.md). Such a game is
*unfinished*: nobody is playing it and nothing will be added by its source, so it is not "in play"
for ever, shows its cards as a finished game does, and is not rated. The readers' records are
recognised by what they already carry, so that their content (and the import hash that finds a
game imported before) is the same as before this status existed.
"""

from __future__ import annotations

from typing import Any

from games.models import Game

TRACKER_SOURCE = "tichu-tracker"


def source_ended(header: Any) -> bool:
    """Whether the record (its header: the top-level keys other than variant, players, events)
    comes from a source that ends there: nothing will be added to it."""
    meta = header.get("meta") if isinstance(header, dict) else None
    if not isinstance(meta, dict):
        return False
    return meta.get("source_ended") is True or "bsw_results" in meta or meta.get("source") == TRACKER_SOURCE


def status_for(over: bool, header: Any) -> str:
    """The status of a game whose fold is `over` (or not) and whose record has `header`."""
    if over:
        return Game.Status.FINISHED
    return Game.Status.UNFINISHED if source_ended(header) else Game.Status.ACTIVE
