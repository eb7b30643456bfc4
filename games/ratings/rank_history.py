"""Rank history: every player's place in a league table after each evening the club played
(Row.day: the club's evening of the game, evening.py). Pure Python (no Django).

The pool's rating changes are replayed in their order; at the end of each day on which the club
played (an evening), every player known so far is placed under the club's rule (standing.py,
with that day as the inactivity reference): ranked players by rating, the others unranked. The
result for a player starts at their first day; on days they did not play their rank can still
move (others played, or they became inactive).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Hashable, Iterable

from .standing import ClubCalendar, RankRule, is_ranked


@dataclass(frozen=True)
class Row:
    """One rating change, in the pool's order: the player's rating after it and career games."""

    player: Hashable
    day: date
    rating: float  # the figure the table ranks by (systems.LeagueSystem.ranks_by): the Elo rating, or
    # the predictive rating's low end (rating - 2 RD)
    games: int


@dataclass(frozen=True)
class DayRank:
    day: date
    rank: int | None  # None: not ranked that day (short of games, or inactive)
    ranked: int  # how many players were ranked that day
    played: bool  # the player played that day


def rank_history(
    rows: Iterable[Row], rule: RankRule, players: Iterable[Hashable] | None = None
) -> dict[Hashable, list[DayRank]]:
    """Per player (all, or only `players`), their rank after each club day from their first on."""
    want = set(players) if players is not None else None
    rating: dict[Hashable, float] = {}
    games: dict[Hashable, int] = {}
    last_day: dict[Hashable, date] = {}
    out: dict[Hashable, list[DayRank]] = {}
    played_today: set = set()
    day: date | None = None
    calendar = ClubCalendar(rule)  # the club's evenings so far: its breaks are no one's absence

    def close(d: date) -> None:
        calendar.add(d)
        # the ranked players are ordered by (rating desc, id): a player's place is one more than
        # the ranked players before them (a count, not a sort: this runs once per club day)
        ranked = [(-rating[p], str(p)) for p in rating if is_ranked(games[p], last_day[p], d, rule, calendar)]
        for p in rating if want is None else want & rating.keys():
            key = (-rating[p], str(p))
            place = (
                1 + sum(1 for k in ranked if k < key) if is_ranked(games[p], last_day[p], d, rule, calendar) else None
            )
            out.setdefault(p, []).append(DayRank(d, place, len(ranked), p in played_today))

    for r in rows:
        if day is not None and r.day != day:
            close(day)
            played_today = set()
        day = r.day
        rating[r.player] = r.rating
        games[r.player] = r.games
        last_day[r.player] = r.day
        played_today.add(r.player)
    if day is not None:
        close(day)
    return out
