"""Performance ratings for a tournament's entries (docs/tournament.md, "Performance rating"):
the core's formula (games.tournament.performance) against the club's Elo table as it stood
before the event: each player's Elo after their last rated game of the tournament's variant
finished before the tournament was created (1500, the table's start, for a player without one)."""
from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Subquery

from games import tournament as core
from games.models import Player
from games.ratings.elo import CLUB_ELO
from games.ratings.models import RatingChange
from games.tournaments.models import Tournament


def ratings_before(tournament: Tournament, player_ids: list[int]) -> dict[int, float]:
    """{player: Elo before the event} for the players who had a rated game before it."""
    last = (RatingChange.objects.filter(player=OuterRef("pk"), club=tournament.club, variant=tournament.variant,
                                        finished_at__lt=tournament.created_at)
            .order_by("-ordinal").values("elo_after")[:1])
    rows = Player.objects.filter(pk__in=player_ids).annotate(elo=Subquery(last)).values_list("pk", "elo")
    return {pk: elo for pk, elo in rows if elo is not None}


def performances(tournament: Tournament, state: core.TournamentState) -> dict[str, dict[str, Any]]:
    """{entry: {"performance", "tables", "score", "opponents"}}; an imported tournament keeps the
    figures computed where it was held (its ratings are not this club's)."""
    if tournament.source.get("performance") is not None:
        return tournament.source["performance"]
    players = sorted({p for e in state.entries.values() for p in e.players if isinstance(p, int)})
    return core.performance(state, ratings_before(tournament, players), default=CLUB_ELO.initial)
