"""What every rating system offers: predict a game from the ratings so far, then update on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, NamedTuple, Protocol

from .types import GameResult, PlayerId, order_games


class Change(NamedTuple):
    """One player's rating change from one game (what RatingChange rows store). A NamedTuple:
    the rating loop creates one per player per game, and tuples are the cheapest immutable."""

    game_id: Hashable
    player: PlayerId
    before: float
    after: float
    rd_before: float
    rd_after: float
    expected: float  # expected score of the player's side (its win probability in a 2-side game)
    score: float  # actual score of the player's side: 1 win, 0.5 draw, 0 loss (mean over pairs)
    games: int  # rated games of the player, this one included

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class Standing:
    player: PlayerId
    rating: float
    rd: float
    games: int
    provisional: bool


class RatingSystem(Protocol):
    name: str

    def pair_probabilities(self, game: GameResult) -> list[tuple[int, int, float]]:
        """P(side i finishes ahead of side j) for every pair i < j, from the ratings so far."""

    def update(self, game: GameResult) -> list[Change]:
        """Apply the game; return one Change per player."""

    def standing(self, player: PlayerId) -> Standing: ...


def win_probability(system: RatingSystem, game: GameResult) -> float:
    """P(side 0 beats side 1) in a two-side game."""
    ((i, j, p),) = system.pair_probabilities(game)
    return p


def replay(system: RatingSystem, games: Iterable[GameResult]) -> list[Change]:
    """Apply every rated game in finishing order; the full, deterministic recompute."""
    out: list[Change] = []
    for g in order_games(list(games)):
        if g.rated:
            out.extend(system.update(g))
    return out
