"""The neutral input of every rating system: one finished game as a `GameResult`.

Pure Python: no Django here. The Django side (games/ratings/adapters.py, services.py) turns a
stored game into a GameResult; the bench parses score sheets into the same shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Sequence

PlayerId = Hashable


class NotRated(ValueError):
    """A game that the rating model refuses, with the reason (stored and shown to the club)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class HandDetail:
    """Optional per-hand line of a score sheet (team order as in GameResult.teams)."""

    points: tuple[float, ...]  # the score-sheet line per team, calls and bonuses included
    tichu: tuple[tuple[PlayerId, bool], ...] = ()  # (player, made) for each Tichu call
    grand_tichu: tuple[tuple[PlayerId, bool], ...] = ()
    double_victory: int | None = None  # index of the team that went out 1-2, if any


@dataclass(frozen=True)
class GameResult:
    """One finished game.

    teams:   player ids per team (a team of one for free-for-all and two-player games).
    scores:  final total per team (higher is better), or None when only a ranking is known.
    winner:  index of the winning team for two-team games; None for a draw or a ranking game.
    ranks:   finishing place per team (0 = first; ties share a place). Derived from `scores` or
             `winner` when omitted.
    hands:   number of hands played (0 = nothing played: such a game is not rated).
    """

    game_id: Hashable
    finished_at: float  # seconds since the epoch (UTC); only the order and the day gaps matter
    teams: tuple[tuple[PlayerId, ...], ...]
    scores: tuple[float, ...] | None = None
    winner: int | None = None
    hands: int = 1
    variant: str = "nanking"
    ranks: tuple[int, ...] | None = None
    hand_details: tuple[HandDetail, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        teams = tuple(tuple(t) for t in self.teams)
        object.__setattr__(self, "teams", teams)
        if len(teams) < 2:
            raise NotRated("a rated game needs at least two sides")
        seen: set = set()
        for team in teams:
            if not team:
                raise NotRated("a side without players")
            for p in team:
                if p in seen:
                    raise NotRated(f"player {p!r} appears twice in one game")
                seen.add(p)
        if self.scores is not None:
            object.__setattr__(self, "scores", tuple(float(s) for s in self.scores))
            if len(self.scores) != len(teams):
                raise NotRated("one score per side is needed")
        if self.winner is not None and not 0 <= self.winner < len(teams):
            raise NotRated("winner is not one of the sides")
        if self.ranks is None:
            object.__setattr__(self, "ranks", _derive_ranks(self))
        else:
            object.__setattr__(self, "ranks", tuple(int(r) for r in self.ranks))
            if len(self.ranks) != len(teams):
                raise NotRated("one rank per side is needed")

    @property
    def players(self) -> list[PlayerId]:
        return [p for team in self.teams for p in team]

    def pair_score(self, i: int, j: int) -> float:
        """Outcome of side i against side j: 1 win, 0.5 draw, 0 loss (from the ranks)."""
        ranks = self.ranks
        assert ranks is not None  # __post_init__ sets them
        ri, rj = ranks[i], ranks[j]
        return 1.0 if ri < rj else 0.0 if ri > rj else 0.5

    def pair_margin(self, i: int, j: int) -> float | None:
        if self.scores is None:
            return None
        return self.scores[i] - self.scores[j]

    @property
    def rated(self) -> bool:
        return self.hands > 0


def _derive_ranks(g: GameResult) -> tuple[int, ...]:
    n = len(g.teams)
    scores = g.scores
    if scores is not None:
        # competition ranking on the scores, higher score first; a stated winner breaks a tie
        order = sorted(range(n), key=lambda i: (-scores[i], 0 if i == g.winner else 1))
        ranks = [0] * n
        for pos, i in enumerate(order):
            if pos and scores[i] == scores[order[pos - 1]] and order[pos - 1] != g.winner:
                ranks[i] = ranks[order[pos - 1]]
            else:
                ranks[i] = pos
        return tuple(ranks)
    if g.winner is not None:
        return tuple(0 if i == g.winner else 1 for i in range(n))
    return tuple(0 for _ in range(n))  # nothing known: a draw


def pairs(n: int) -> Sequence[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def order_games(games: Sequence[GameResult]) -> list[GameResult]:
    """The order in which ratings are applied: finishing time, then game id (deterministic)."""
    return sorted(games, key=lambda g: (g.finished_at, str(type(g.game_id)), g.game_id))
