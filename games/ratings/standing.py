"""Who is ranked in a league table, and the periods a table can show. Pure Python (no Django).

A club sets two rules (LeagueRules.min_games, LeagueRules.inactive_days; docs/ratings.md
"League rules"):

* **minimum games**: a player is ranked once they have that many rated games in the pool (their
  career, not the period: a season's first evening does not unrank everyone); until then the
  table says how many more games they need;
* **inactivity**: a player whose last game is more than `inactive_days` days older than the
  reference day is listed as inactive, below the ranked players (0 turns the rule off). The
  reference day is the club's latest rated game in the period shown, not today: a club that
  pauses for the summer, or an archive of old sheets, does not find everyone inactive. The days
  are the club's playing days (`ClubCalendar`): a break of the whole club longer than the rule's
  window (the years between an imported archive of 2012-17 and tonight's games) is no one's
  absence, so importing a club's past gives its regulars of then a ranked league, by the dates
  the games were played.

Ranked players are ordered by the table's ranking figure (`rating` here: systems.LeagueSystem.ranks_by,
the predictive table's rating - 2 RD); the unranked follow (the active players still short of
games first, fewest missing first, then the inactive), each group by rating.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

PERIODS = ("all", "season", "30d")
PERIOD_LABELS = {"all": "All time", "season": "This season", "30d": "Last 30 days"}


@dataclass(frozen=True)
class RankRule:
    min_games: int = 5
    inactive_days: int = 180  # 0: no inactivity rule


@dataclass(frozen=True)
class Status:
    ranked: bool
    games_to_rank: int  # 0 when the player has the games
    inactive: bool

    @property
    def note(self) -> str:
        """What the table says of an unranked player."""
        n = self.games_to_rank
        short = f"{n} more game{'s' if n != 1 else ''} until ranked" if n else ""
        if self.inactive:
            return "inactive" + (f"; {short}" if short else "")
        return short


class ClubCalendar:
    """The club's evenings with a rated game, in order, to count a player's absence in the club's
    playing time: the days from their last evening to the reference, less the club's *breaks*,
    the gaps between two of its evenings longer than the rule's window (nobody played for longer
    than a player may be away). Without breaks it is the plain count of days."""

    def __init__(self, rule: RankRule, days: Iterable[date] = ()) -> None:
        self.window = rule.inactive_days
        self.days: list[date] = []
        self._skipped: list[int] = []  # the break days up to each evening, cumulated
        for d in sorted(set(days)):
            self.add(d)

    def add(self, day: date) -> None:
        """The club played on `day` (after every evening added so far; an evening again is a no-op)."""
        if self.days and day <= self.days[-1]:
            return
        gap = (day - self.days[-1]).days if self.days else 0
        before = self._skipped[-1] if self._skipped else 0
        self.days.append(day)
        self._skipped.append(before + (gap if self.window and gap > self.window else 0))

    def breaks(self) -> list[tuple[date, int]]:
        """The first evening and each evening that ends a break, with the break days up to it: all
        that `absence` reads (a club's long history has thousands of evenings and few breaks; the
        league keeps this in its cache: queries.compute_table_figures)."""
        points: list[tuple[date, int]] = []
        for day, skipped in zip(self.days, self._skipped):
            if not points or skipped != points[-1][1]:
                points.append((day, skipped))
        return points

    @classmethod
    def from_breaks(cls, rule: RankRule, points: Iterable[tuple[date, int]]) -> ClubCalendar:
        """The calendar `breaks()` gave, for `absence` only (`add` needs every evening)."""
        calendar = cls(rule)
        for day, skipped in points:
            calendar.days.append(day)
            calendar._skipped.append(skipped)
        return calendar

    def _skipped_by(self, day: date) -> int:
        i = bisect_right(self.days, day) - 1
        return self._skipped[i] if i >= 0 else 0

    def absence(self, last_played: date, reference: date) -> int:
        """Days from `last_played` to `reference` that the club played through (breaks left out)."""
        return max(0, (reference - last_played).days - (self._skipped_by(reference) - self._skipped_by(last_played)))


def is_inactive(
    last_played: date, reference: date | None, rule: RankRule, calendar: ClubCalendar | None = None
) -> bool:
    """The inactivity rule (days, both plain dates; with the club's `calendar`, its breaks left out)."""
    if not rule.inactive_days or reference is None:
        return False
    away = calendar.absence(last_played, reference) if calendar is not None else (reference - last_played).days
    return away > rule.inactive_days


def is_ranked(
    career_games: int, last_played: date, reference: date | None, rule: RankRule, calendar: ClubCalendar | None = None
) -> bool:
    """The rule itself: enough games and not inactive (status() says why not)."""
    return career_games >= rule.min_games and not is_inactive(last_played, reference, rule, calendar)


def status(
    career_games: int, last_played: date, reference: date | None, rule: RankRule, calendar: ClubCalendar | None = None
) -> Status:
    """A player's standing under the club's rule. `last_played`: the evening of their last game;
    `reference`: the evening inactivity counts from (games.ratings.evening: the club's evenings,
    not the UTC dates of the games, which is why this takes no datetime); `calendar`: the club's
    evenings up to the reference, whose breaks are no one's absence."""
    missing = max(0, rule.min_games - career_games)
    inactive = is_inactive(last_played, reference, rule, calendar)
    return Status(ranked=career_games >= rule.min_games and not inactive, games_to_rank=missing, inactive=inactive)


def order_key(rating: float, name: str, player_id: int, st: Status) -> tuple:
    """Sort key of a table row: ranked by rating, then the active players short of games (fewest
    missing first), then the inactive."""
    group = 0 if st.ranked else 2 if st.inactive else 1
    return (group, st.games_to_rank, -rating, name, player_id)


def period_bounds(period: str, today: date, season_start_month: int = 1) -> tuple[date | None, date | None]:
    """(first day, last day) of a named period, both inclusive; None is open.

    all: everything; 30d: the 30 days ending today; season: from the first day of the club's
    season start month (the latest such day not after today) to today."""
    if period == "30d":
        return today - timedelta(days=29), today
    if period == "season":
        year = today.year if today.month >= season_start_month else today.year - 1
        return date(year, season_start_month, 1), today
    if period == "all":
        return None, None
    raise ValueError(f"unknown period {period!r}")
