"""Who deals an online table's next hand when the table does not: a tournament's duplicate board.

An online table shuffles each hand itself (services._advance), except where the game's hands are
fixed in advance: a duplicate tournament's table plays the round's boards, the same cards at every
table (games/tournaments/duplicate_boards.py). The records do not know tournaments, so the app
that fixes a game's deals registers a source here in its `ready()` (as holds.py's rules are), and
the online table asks it before shuffling: the events it gives are the hand's deal, appended as
they are, its second part held until every seat has decided on Grand Tichu as a shuffled deal's
is (checked again by the board's own hook, games.hooks.events_appending).
"""

from __future__ import annotations

from typing import Protocol

from games.models import Game


class DealSource(Protocol):
    def next_hand(self, game: Game) -> tuple[list[dict], list[dict]] | None:
        """The events that deal `game`'s next hand: (a shuffle and each seat's cards up to its
        Grand Tichu limit, the rest, dealt once every seat has decided), or None when this source
        does not deal that game (the table shuffles)."""
        ...


_sources: list[DealSource] = []


def register(source: DealSource) -> DealSource:
    if source not in _sources:  # ready() may run twice (tests, reloads)
        _sources.append(source)
    return source


def next_hand(game: Game) -> tuple[list[dict], list[dict]] | None:
    """The first registered source's deal of `game`'s next hand, or None: the table shuffles."""
    for source in _sources:
        events = source.next_hand(game)
        if events is not None:
            return events
    return None
