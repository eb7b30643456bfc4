"""Partnerships, partners and head to head, with expected against actual. Pure Python (no Django).

Input: one `Played` per rated game (its sides, each side's win chance before the game from the
predictive rating, each side's score, and every player's Elo-table rating before the game).

* **Expected** is the sum of the pre-game win chances of the games counted (the predictive
  rating's forecast, RatingChange.expected); **actual** is wins + draws / 2. Actual above expected:
  the pair (or the player with that partner, or against that opponent) did better than the
  ratings said.
* A **partnership's rating** is its performance rating as one unit (performance.py, `as_pair`):
  the common rating of both partners that would have made the pair's results expected against the
  opponents it met (Elo-table ratings before each game).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Hashable, Iterable, Mapping, Sequence

from .performance import Encounter, clamped, performance

PlayerId = Hashable


@dataclass(frozen=True)
class Played:
    game_id: Hashable
    sides: tuple[tuple[PlayerId, ...], ...]
    expected: tuple[float, ...]  # per side: its win chance before the game
    scores: tuple[float, ...]  # per side: 1 win, 0.5 draw, 0 loss (the mean over pairs when N > 2)
    elo_before: Mapping[PlayerId, float] = field(default_factory=dict)


@dataclass
class Tally:
    """Games counted, wins, draws and the expected wins of one pair or one relation."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    expected: float = 0.0
    encounters: list[Encounter] = field(default_factory=list, repr=False)

    @property
    def actual(self) -> float:
        return self.wins + self.draws / 2

    @property
    def surplus(self) -> float:
        """actual - expected: results above (positive) or below the ratings' forecast."""
        return self.actual - self.expected

    def add(self, score: float, expected: float) -> None:
        self.games += 1
        self.wins += score > 0.5
        self.draws += score == 0.5
        self.expected += expected

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "expected": self.expected,
            "actual": self.actual,
            "surplus": self.surplus,
        }


@dataclass
class Partnership(Tally):
    players: tuple[PlayerId, ...] = ()
    rating: float | None = None  # the pair's performance rating (Elo scale)
    bound: str = ""  # "max"/"min": all won / all lost, the rating is a bound (performance.clamped)

    def as_dict(self) -> dict:
        return {"players": list(self.players), "rating": self.rating, "bound": self.bound, **super().as_dict()}


def partnerships(games: Iterable[Played], min_games: int = 1, limit: int | None = None) -> list[Partnership]:
    """Every pair of players who shared a side (the first `limit` of them), most games first,
    then by surplus. The pair ratings are solved for the pairs returned only (the bisection is
    the cost: a 24-player club has 276 pairs)."""
    book: dict[tuple, Partnership] = {}
    for g in games:
        for i, side in enumerate(g.sides):
            if len(side) < 2:
                continue
            opp = [s for j, s in enumerate(g.sides) if j != i]
            opp_mean = _mean([_mean([g.elo_before.get(p, 1500.0) for p in s]) for s in opp])
            for a, b in combinations(sorted(side, key=str), 2):
                rec = book.setdefault((a, b), Partnership(players=(a, b)))
                rec.add(g.scores[i], g.expected[i])
                rec.encounters.append(Encounter((), opp_mean, g.scores[i], as_pair=True))
    out = sorted(
        (r for r in book.values() if r.games >= min_games),
        key=lambda r: (-r.games, -r.surplus, [str(p) for p in r.players]),
    )[:limit]
    for r in out:
        r.rating = performance(r.encounters)
        r.bound = clamped(r.encounters)
    return out


def relations(games: Iterable[Played], player: PlayerId) -> tuple[dict[PlayerId, Tally], dict[PlayerId, Tally]]:
    """(partners, opponents) of `player`: per other player, the player's games with them as
    partner or against them, the player's wins and expected wins in those games."""
    partners: dict[PlayerId, Tally] = {}
    opponents: dict[PlayerId, Tally] = {}
    for g in games:
        mine = next((i for i, s in enumerate(g.sides) if player in s), None)
        if mine is None:
            continue
        for i, side in enumerate(g.sides):
            book = partners if i == mine else opponents
            for p in side:
                if p != player:
                    book.setdefault(p, Tally()).add(g.scores[mine], g.expected[mine])
    return partners, opponents


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)
