"""The club's Elo table as it stood before a tournament, for the tournament's performance ratings
(games.tournaments.performance asks through games.hooks.ratings_before_tournament), and as it
stands now, for a bracket seeded by rating (games.hooks.club_elo_ratings)."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery

from games.models import Player

from .elo import CLUB_ELO
from .models import RatingChange
from .queries import league_table


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


def club_elo_ratings(club, variant: str, player_ids: list[int]) -> dict[int, float]:
    """{player: rating} of the club's Elo league table (its order, the league page's) for those of
    `player_ids` it lists."""
    wanted = set(player_ids)
    return {r.player_id: r.rating for r in league_table(club.pk, variant, table="elo").rows if r.player_id in wanted}
