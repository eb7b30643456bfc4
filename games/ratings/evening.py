"""Which evening a game belongs to. Pure Python (no Django): the one rule every "day" of the
ratings and the league uses (evenings on the player page, rank history, inactivity, periods).

A club evening runs past midnight (19:00 to 01:30 in Berlin), so the calendar date of a game is
not its evening, and the UTC date is not even the local one. The evening of an instant is the
local date, in the club's time zone (Club.time_zone), of its wall-clock time minus the early
morning cut-off: a game finished at 01:30 local belongs to the evening before, one at 06:00 or
later to the new day. Wall clock, not elapsed hours, so that the night the clocks change is an
evening like any other.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

#: When a night's evening ends, local time: nobody starts a club evening before 06:00.
EVENING_ENDS = time(6)


def zone(tz: tzinfo | str) -> tzinfo:
    """A time zone from its IANA name (Club.time_zone) or as it is."""
    return ZoneInfo(tz) if isinstance(tz, str) else tz


def evening_of(instant: datetime, tz: tzinfo | str, ends_at: time = EVENING_ENDS) -> date:
    """The local date of the evening `instant` (timezone-aware) falls in."""
    local = instant.astimezone(zone(tz))
    day = local.date()
    return day if local.time() >= ends_at else day - timedelta(days=1)


def evening_start(day: date, tz: tzinfo | str, ends_at: time = EVENING_ENDS) -> datetime:
    """The instant (UTC) evening `day` begins: `ends_at` local on that date. The games of
    evenings first..last are those finished in [evening_start(first), evening_start(last + 1))."""
    return datetime.combine(day, ends_at, tzinfo=zone(tz)).astimezone(timezone.utc)
