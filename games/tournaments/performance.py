"""Performance ratings for a tournament's entries (docs/tournament.md, "Performance rating"):
the core's formula (games.tournament.performance) against the club's Elo table as it stood
before the event: each player's Elo after their last rated game of the tournament's variant
finished before the tournament was created (1500, the table's start, for a player without one)."""

from __future__ import annotations

from typing import Any

from games import hooks
from games import tournament as core
from games.tournaments.models import Tournament


def performances(tournament: Tournament, state: core.TournamentState) -> dict[str, dict[str, Any]]:
    """{entry: {"performance", "tables", "score", "opponents"}} for every entry of `state`; an
    imported tournament keeps the figures computed where it was held (its ratings are not this
    club's), {} for an entry its file gave none (the import's check of a file names that
    difference: results_import; indexing the file's figures by the events' entries was a 500)."""
    kept = tournament.source.get("performance")
    if kept is not None:
        return {entry: kept.get(entry, {}) for entry in state.entries}
    players = sorted({p for e in state.entries.values() for p in e.players if isinstance(p, int)})
    # the club's Elo table is the ratings' (games.ratings.tournament_elo, through the hook)
    ratings, default = hooks.ratings_before_tournament(tournament, players)
    return core.performance(state, ratings, default=default)
