"""Performance rating of a player's games (an evening), of a partnership, of a tournament.
Pure Python (no Django).

The formula has one home, the tournament core's `games.tournament.performance` (docs/tournament.md,
"Performance rating"), so that an evening, a pair and a tournament's standings use the same
number: the rating R at which the results are exactly what the Elo expectation predicts,

    sum_i E(side_i(R), O_i) = S,   E(a, b) = 1 / (1 + 10^((b - a) / 400))

with O_i the opposing side's mean Elo-table rating before game i, S the wins (draws 1/2), and
side_i(R) = R alone or for a pair as one unit, (R + partner_i) / 2 with a partner. E rises with
R, so the root is unique (bisection). A perfect or a zero score has no root: it gets the end of
the search range, the opponents' mean +- 800 (+- 1600 with partners, whose R counts half of the
side): FIDE's convention, shown on the pages as "at least" / "at most".

This module maps a player's stored games onto that formula:

* a partner's rating is their Elo before the game; with two partners (Tientsin's sides of three)
  their mean stands for the partner, which weighs R at 1/2 instead of 1/3 (an approximation,
  stated: the core's formula knows sides of one or two);
* a ranking game of N sides (Grand Seigneur) counts once, against the mean of the other sides,
  with the stored score (the mean over its N-1 pairs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from games.tournament import expected_score as _core_expected
from games.tournament import performance_rating  # the formula's one home


@dataclass(frozen=True)
class Encounter:
    """One game as the performance rating sees it."""

    partners: tuple[float, ...]  # the partners' ratings before the game (empty: alone)
    opponents: float  # the opposing side's mean rating before the game
    score: float  # 1 win, 0.5 draw, 0 loss
    as_pair: bool = False  # a partnership as one unit: the side's strength is R itself

    @property
    def partner(self) -> float | None:
        if self.as_pair or not self.partners:
            return None
        return sum(self.partners) / len(self.partners)


def expected(side: float, opponents: float) -> float:
    """The Elo expectation of a side of mean rating `side` (the core's E)."""
    return _core_expected(side, opponents)


def side_strength(rating: float, e: Encounter) -> float:
    p = e.partner
    return rating if p is None else (rating + p) / 2


def performance(encounters: Sequence[Encounter]) -> float | None:
    """The performance rating of a set of encounters (None for an empty set)."""
    if not encounters:
        return None
    return performance_rating([(e.opponents, e.partner, e.score) for e in encounters])


def clamped(encounters: Sequence[Encounter]) -> str:
    """ "min" / "max" when the score is zero / perfect, so that the number is the end of the
    search range (a bound), else ""."""
    if not encounters:
        return ""
    s = sum(e.score for e in encounters)
    return "max" if s >= len(encounters) else "min" if s <= 0 else ""


def encounter(
    sides: Sequence[Sequence[float]], player_side: int, player_index: int, score: float, as_pair: bool = False
) -> Encounter:
    """One player's encounter in one game from the sides' ratings before it: the player's own
    rating (at `player_index` of `sides[player_side]`) is left out, it is the unknown."""
    own = sides[player_side]
    partners = tuple(r for k, r in enumerate(own) if k != player_index)
    means = [sum(s) / len(s) for i, s in enumerate(sides) if i != player_side]
    return Encounter(partners, sum(means) / len(means), score, as_pair)


def expected_score(encounters: Iterable[Encounter], rating: float) -> float:
    """What a player of `rating` was expected to score in these encounters."""
    return sum(expected(side_strength(rating, e), e.opponents) for e in encounters)
