"""Plain team Elo: the reference baseline.

* A side's strength is the mean rating of its players.
* E = 1 / (1 + 10^((R_opp - R_side) / 400)); every player of the side gets K * (S - E),
  S = 1 win, 0.5 draw, 0 loss. The update is exactly zero-sum for equal-sized sides.
* Initial rating 1500, K = 32, no rating deviation. A player is provisional (shown with "?")
  for their first 10 rated games; K is *not* changed in that period, so the sum of all ratings
  stays constant.
* More than two sides (Grand Seigneur ranking, Threechu's three real players): every pair of
  sides is a virtual game with K / (N - 1), computed from the ratings before the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from .base import Change, Standing
from .rating_steps import elo_two_by_two
from .types import GameResult, PlayerId


@dataclass(frozen=True)
class EloParams:
    k: float = 32.0
    initial: float = 1500.0
    scale: float = 400.0
    provisional_games: int = 10


class TeamElo:
    name = "team-elo"

    def __init__(self, params: EloParams | None = None):
        self.params = params or EloParams()
        self.ratings: dict[PlayerId, float] = {}
        self.games: dict[PlayerId, int] = {}

    def _side(self, team) -> float:
        init = self.params.initial
        r = self.ratings
        return sum(r.get(p, init) for p in team) / len(team)

    def _expect(self, ra: float, rb: float) -> float:
        return 1.0 / (1.0 + 10.0 ** ((rb - ra) / self.params.scale))

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        sides = [self._side(t) for t in game.teams]
        n = len(sides)
        return [(i, j, self._expect(sides[i], sides[j])) for i in range(n) for j in range(i + 1, n)]

    def _k(self, team) -> float:
        """The K every player of the side moves by (ClubElo: provisional K for newcomers)."""
        return self.params.k

    def update(self, game: GameResult) -> list[Change]:
        p = self.params
        teams = game.teams
        n = len(teams)
        sides = [self._side(t) for t in teams]
        ks = [self._k(t) / (n - 1) for t in teams]
        delta = [0.0] * n
        expected = [0.0] * n
        actual = [0.0] * n
        for i in range(n):
            for j in range(i + 1, n):
                e = self._expect(sides[i], sides[j])
                s = game.pair_score(i, j)
                delta[i] += ks[i] * (s - e)
                delta[j] -= ks[j] * (s - e)
                expected[i] += e
                expected[j] += 1.0 - e
                actual[i] += s
                actual[j] += 1.0 - s
        changes = []
        for i, team in enumerate(teams):
            for pl in team:
                before = self.ratings.get(pl, p.initial)
                after = before + delta[i]
                self.ratings[pl] = after
                g = self.games.get(pl, 0) + 1
                self.games[pl] = g
                changes.append(
                    Change(game.game_id, pl, before, after, 0.0, 0.0, expected[i] / (n - 1), actual[i] / (n - 1), g)
                )
        return changes

    def standing(self, player: PlayerId) -> Standing:
        g = self.games.get(player, 0)
        return Standing(
            player, self.ratings.get(player, self.params.initial), 0.0, g, g < self.params.provisional_games
        )


@dataclass(frozen=True)
class ClubEloParams:
    """The Elo table as clubs know it (docs/ratings.md section 2a): stated on the league page."""

    k: float = 24.0
    provisional_k: float = 40.0  # in a player's first `provisional_games` rated games
    initial: float = 1500.0
    scale: float = 400.0
    provisional_games: int = 10


CLUB_ELO = ClubEloParams()


class ClubElo(TeamElo):
    """Team Elo for the league's Elo table.

    Rule, as the page states it: a side's strength is the mean rating of its players; every player
    of a side moves by the same amount, K_side * (S - E), where K_side is the mean of the members'
    own K (provisional K in a player's first games, K after). S - E > 0 for a win, so a win never
    loses rating and a loss never gains. With a provisional player at the table the update is not
    zero-sum (new players find their level faster, which is what the provisional K is for).
    More than two sides: every pair is a virtual game with K_side / (N - 1).
    """

    name = "club-elo"

    def __init__(self, params: ClubEloParams | None = None):
        self.params = params or CLUB_ELO  # type: ignore[assignment]
        self.ratings = {}
        self.games = {}

    def _k(self, team) -> float:
        p = cast(ClubEloParams, self.params)  # set so by __init__ (not a subclass of EloParams)
        g = self.games
        return sum(p.provisional_k if g.get(pl, 0) < p.provisional_games else p.k for pl in team) / len(team)

    def update(self, game: GameResult) -> list[Change]:
        """TeamElo.update; the usual game, two partnerships of two, written out in
        rating_steps.elo_two_by_two (compiled with the rating loop; the league's recompute runs it
        once per game: tests/ratings/test_mixture_speed_and_drifts.py holds it to the general loop
        to the bit)."""
        teams = game.teams
        if len(teams) != 2 or len(teams[0]) != 2 or len(teams[1]) != 2:
            return super().update(game)
        p = cast(ClubEloParams, self.params)
        return elo_two_by_two(
            self.ratings, self.games, game, p.initial, p.k, p.provisional_k, p.provisional_games, p.scale
        )
