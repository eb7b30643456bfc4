"""The club's Elo table as it stood before a tournament, for the tournament's performance ratings
(games.tournaments.performance asks through games.hooks.ratings_before_tournament)."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery

from games.models import Player

from .elo import CLUB_ELO
from .models import RatingChange


def ratings_before(tournament, player_ids: list[int]) -> tuple[dict[int, float], float]:
    """({player: Elo before the event} for the players who had a rated game of the tournament's
    variant finished before it was created, the table's start for the others)."""
    last = (
        RatingChange.objects.filter(
            player=OuterRef("pk"),
            club=tournament.club,
            variant=tournament.variant,
            finished_at__lt=tournament.created_at,
        )
        .order_by("-ordinal")
        .values("elo_after")[:1]
    )
    rows = Player.objects.filter(pk__in=player_ids).annotate(elo=Subquery(last)).values_list("pk", "elo")
    return {pk: elo for pk, elo in rows if elo is not None}, CLUB_ELO.initial
