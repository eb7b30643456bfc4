"""A round's clock (issue 33, item 4): the TD starts it, the tables and the projector count down.

The core has no clock of its own (it is deterministic): the `round_clock_started` event carries
the instant it started (`started_at`, an ISO 8601 date-time with its UTC offset, given by whoever
appends it: the service, the command line) and its length in minutes; the round's end is read off
the two. A later `round_clock_started` for the same round replaces the clock (the TD restarts
it after a false start, or gives the round more time).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from .limits import MAX_CLOCK_MINUTES
from .record import integer, malformed


@dataclass(frozen=True)
class RoundClock:
    minutes: int
    #: the event's instant as given (kept as written: the record is the truth)
    started_at: str
    #: event index of the `round_clock_started` that set it
    index: int

    @property
    def start(self) -> datetime:
        return parse_instant(self.started_at)

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.minutes)

    def as_json(self) -> dict[str, Any]:
        return {"minutes": self.minutes, "started_at": self.started_at, "ends_at": utc_text(self.end)}

    def seconds_left(self, now: datetime) -> int:
        """Whole seconds until the end at `now` (an aware datetime); 0 once it has passed."""
        return max(0, int((self.end - now).total_seconds()))


def parse_instant(value: Any) -> datetime:
    """An ISO 8601 date-time with its UTC offset (`2026-03-14T19:30:00Z`, `...+01:00`); a date
    alone or a time without its offset is refused: the tables read it in their own time zones."""
    when = None
    if isinstance(value, str) and 10 < len(value) <= 40:
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            when = None
    if when is None or when.tzinfo is None or when.utcoffset() is None:
        raise malformed(
            f"round_clock_started: 'started_at' is a date and time with its UTC offset "
            f"(e.g. 2026-03-14T19:30:00Z), not {str(value)[:40]!r}",
            type="round_clock_started",
            rule="started_at",
        )
    return when


def utc_text(when: datetime) -> str:
    """An instant as the record writes it: UTC, to the second, with a Z."""
    return when.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def clock_from_event(event: dict[str, Any], index: int) -> RoundClock:
    """The clock an event starts, its shape checked (`malformed` otherwise)."""
    minutes = integer(event, "minutes", 1, high=MAX_CLOCK_MINUTES)
    started_at = event.get("started_at")
    parse_instant(started_at)  # refuses anything but a date-time string with its offset
    return RoundClock(minutes, str(started_at), index)
