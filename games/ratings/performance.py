"""Performance rating: the rating that would have made a set of results exactly expected.
Pure Python (no Django). Used per evening, per tournament and per partnership (docs/ratings.md
"Performance rating").

On the Elo table's scale (elo.ClubElo): a side's strength is the mean rating of its players and
E = 1 / (1 + 10^((O - side) / 400)), O the opposing side's mean. Given the games of a set, with
each game's partners' and opponents' ratings as they were before it, the performance rating is the
R that solves

    sum_i w_i * E_i(R) = sum_i w_i * S_i,   E_i(R) = 1 / (1 + 10^((O_i - (R + sum(P_i)) / k_i) / 400))

(k_i the side's size, P_i the partners' ratings, S_i = 1 win, 1/2 draw, 0 loss; w_i = 1; a
ranking game of N sides counts once, against the mean of the other sides, with the mean of its
N-1 pairwise scores). Each E_i rises with R, so
the root is unique and found by bisection. A perfect score (all wins) or a zero score has no
finite root: it is counted as a quarter of a game short of perfect (S - 1/4, or 1/4), so that a
3-0 evening shows a high but finite number, and 1 win out of 1 still counts for more than 1 out
of 2 (half a game short, a common convention, would make them equal).

For a partnership the pair is one unit: R is the pair's common rating (both partners at R), so
the side's strength is R itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .elo import CLUB_ELO

LOW, HIGH = -2000.0, 6000.0  # the bisection's bracket: far outside any club's ratings


@dataclass(frozen=True)
class Encounter:
    """One game (or one pair of sides of a ranking game) as the performance rating sees it."""

    partners: tuple[float, ...]  # the partners' ratings before the game (empty: alone)
    opponents: float  # the opposing side's mean rating before the game
    score: float  # 1 win, 0.5 draw, 0 loss
    weight: float = 1.0
    as_pair: bool = False  # the partners share the unknown rating (a partnership's performance)


def expected(side: float, opponents: float, scale: float = CLUB_ELO.scale) -> float:
    """The Elo table's win expectation of a side of mean rating `side`."""
    return 1.0 / (1.0 + 10.0 ** ((opponents - side) / scale))


def _side(r: float, e: Encounter) -> float:
    if e.as_pair:
        return r
    return (r + sum(e.partners)) / (1 + len(e.partners))


def performance(encounters: Sequence[Encounter], tolerance: float = 0.01) -> float | None:
    """The performance rating of a set of encounters (None for an empty set)."""
    total_w = sum(e.weight for e in encounters)
    if not encounters or total_w <= 0:
        return None
    target = sum(e.weight * e.score for e in encounters)
    # no finite root at a perfect or a zero score: a quarter of a game short of it (module docstring)
    short = 0.25 * min(e.weight for e in encounters)
    target = min(max(target, short), total_w - short)
    lo, hi = LOW, HIGH
    while hi - lo > tolerance:
        mid = (lo + hi) / 2
        if sum(e.weight * expected(_side(mid, e), e.opponents) for e in encounters) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def encounter(sides: Sequence[Sequence[float]], player_side: int, player_index: int, score: float,
              as_pair: bool = False) -> Encounter:
    """One player's encounter in one game from the sides' ratings before it: the player's own
    rating (at `player_index` of `sides[player_side]`) is left out, it is the unknown. A ranking
    game of N sides is one encounter against the mean of the other sides, with the stored score
    (the mean over its N-1 pairs): close to the N-1 pairwise terms, and what RatingChange keeps."""
    own = sides[player_side]
    partners = tuple(r for k, r in enumerate(own) if k != player_index)
    means = [sum(s) / len(s) for i, s in enumerate(sides) if i != player_side]
    return Encounter(partners, sum(means) / len(means), score, 1.0, as_pair)


def expected_score(encounters: Iterable[Encounter], rating: float) -> float:
    """What a player of `rating` was expected to score in these encounters (the Elo table's E)."""
    return sum(e.weight * expected(_side(rating, e), e.opponents) for e in encounters)
