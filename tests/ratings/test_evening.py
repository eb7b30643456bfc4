"""games.ratings.evening: which evening a game is on, in the club's time zone (pure)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ratings.evening import evening_of, evening_start

#: West of UTC, the site's default, central Europe, far east (no DST), far east (southern DST).
ZONES = ["America/New_York", "UTC", "Europe/Berlin", "Asia/Tokyo", "Pacific/Auckland"]

instants = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2060, 1, 1), timezones=st.just(timezone.utc))


@settings(max_examples=400, deadline=None)
@given(instants, st.one_of(st.sampled_from(ZONES), st.timezone_keys()))
def test_an_evening_is_the_local_date_six_hours_earlier_on_the_wall_clock(instant, name):
    tz = ZoneInfo(name)
    wall = instant.astimezone(tz).replace(tzinfo=None)  # the clock on the club's wall
    assert evening_of(instant, name) == (wall - timedelta(hours=6)).date()
    assert evening_of(instant, tz) == evening_of(instant, name)


@settings(max_examples=400, deadline=None)
@given(instants, st.sampled_from(ZONES))
def test_an_evening_starts_at_six_local_and_holds_every_game_until_the_next_six(instant, name):
    day = evening_of(instant, name)
    assert evening_start(day, name) <= instant < evening_start(day + timedelta(days=1), name)
    start = evening_start(day, name).astimezone(ZoneInfo(name))
    assert (start.date(), start.time()) == (day, time(6))


def _local(name: str, d: date, hh: int, mm: int = 0) -> datetime:
    """A wall-clock time in the zone, as the UTC instant the server stores."""
    return datetime(d.year, d.month, d.day, hh, mm, tzinfo=ZoneInfo(name)).astimezone(timezone.utc)


#: Nights the clocks change (Berlin: the last Sundays of March and October 2026; New York: the
#: second Sunday of March and the first of November 2026; Auckland: the first Sunday of April and
#: the last of September 2026) and the nights before them, plus ordinary ones.
NIGHTS = [
    date(2026, 3, 28),
    date(2026, 3, 29),
    date(2026, 10, 24),
    date(2026, 10, 25),
    date(2026, 3, 7),
    date(2026, 3, 8),
    date(2026, 10, 31),
    date(2026, 11, 1),
    date(2026, 4, 4),
    date(2026, 4, 5),
    date(2026, 9, 26),
    date(2026, 9, 27),
    date(2026, 1, 15),
    date(2026, 7, 15),
    date(2026, 12, 31),
]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(ZONES),
    st.sampled_from(NIGHTS) | st.dates(date(2000, 1, 1), date(2050, 1, 1)),
    st.integers(18, 23),
    st.integers(0, 59),
    st.integers(0, 5),
    st.integers(0, 59),
)
def test_a_night_from_the_evening_until_half_past_five_is_one_evening(name, night, h1, m1, h2, m2):
    first = _local(name, night, h1, m1)
    after_midnight = _local(name, night + timedelta(days=1), h2, m2)
    assert evening_of(first, name) == evening_of(after_midnight, name) == night
    # and the next morning at six is the next day's evening
    assert evening_of(_local(name, night + timedelta(days=1), 6), name) == night + timedelta(days=1)


def test_the_examples_of_the_docs():
    berlin, ny = "Europe/Berlin", "America/New_York"
    # Berlin, 19:00 to 01:30 across the night the clocks go back (25 October 2026): one evening,
    # though the UTC dates (17:00 on the 24th, 00:30 on the 25th) differ
    assert evening_of(_local(berlin, date(2026, 10, 24), 19), berlin) == date(2026, 10, 24)
    assert evening_of(_local(berlin, date(2026, 10, 25), 1, 30), berlin) == date(2026, 10, 24)
    # 00:30 in Berlin is 22:30 UTC the day before: the evening is the local one, not UTC's
    assert evening_of(datetime(2026, 1, 14, 23, 30, tzinfo=timezone.utc), berlin) == date(2026, 1, 14)
    # New York: 20:00 to 23:30 local is 01:00 to 04:30 UTC the next day, still that evening
    assert evening_of(datetime(2026, 1, 16, 1, tzinfo=timezone.utc), ny) == date(2026, 1, 15)
    assert evening_of(datetime(2026, 1, 16, 4, 30, tzinfo=timezone.utc), ny) == date(2026, 1, 15)
    # Tokyo: 19:00 local is 10:00 UTC the same day, 01:30 local is 16:30 UTC the day before's
    assert evening_of(datetime(2026, 1, 15, 16, 30, tzinfo=timezone.utc), "Asia/Tokyo") == date(2026, 1, 15)
    # the cut-off is the caller's to choose
    assert evening_of(_local(berlin, date(2026, 1, 15), 7), berlin, ends_at=time(8)) == date(2026, 1, 14)
