"""A tournament's VP in the league (docs/ratings.md "League rules"): a club whose league follows
the tournaments' VP (LeagueRules.follows_tournament_vp) counts a game played at a tournament
table whose tournament scores by VP as the VP say: the side with more VP won, equal VP are a
draw (both systems read draws: the Elo table scores ½, the predictive model reads the points
margin as it is). Every other game, and every game of a club that does not follow them, counts by
its points.

The VP are read as the game's own page reads them (games.tournaments.game_table, the tournaments'
public read of a game's table), as any reader sees them: the ratings know nothing else of a
tournament's scoring."""

from __future__ import annotations

from games.models import Game
from games.tournaments import game_table

from .league_rules import rules_of_club_id


def _table_game(game: Game) -> bool:
    """Whether the game may be a tournament table's: each is marked so in its header when made
    (games.tournaments), so that the games of an ordinary evening cost no query."""
    meta = (game.header or {}).get("meta") if isinstance(game.header, dict) else None
    return isinstance(meta, dict) and bool(meta.get("tournament"))


def league_vp(game: Game) -> list | None:
    """[VP of side 0, VP of side 1] the club's league counts `game` by, or None: counted by its
    points (a club that does not follow the VP, not a table's game, a tournament without VP, or
    a table whose result is not recorded yet)."""
    if not _table_game(game) or not rules_of_club_id(game.club_id).follows_tournament_vp:
        return None
    vp = game_table.vp_of([game.pk], None).get(game.pk)
    return [vp[0], vp[1]] if vp else None


def ranks_by_vp(vp: list) -> tuple[tuple[int, int], int | None]:
    """(ranks, winner) of a two-side game by its VP: the side with more VP first, a draw on equal VP."""
    if vp[0] > vp[1]:
        return (0, 1), 0
    if vp[0] < vp[1]:
        return (1, 0), 1
    return (0, 0), None
