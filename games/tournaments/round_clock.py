"""A round's clock as the pages show it (issue 33, item 4): the projector, the director's page and
the pages a table's code opens (the entry page, the result page) count down to the same end.

The clock is the core's (`Round.clock`, from the `round_clock_started` the TD appended); here it
is only read at an instant: a closed round's or a finished tournament's clock is not shown (there
is nothing left to time)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from games import tournament as core
from games.tournament import utc_text


@dataclass(frozen=True)
class ClockView:
    round: int
    minutes: int
    ends_at: datetime
    #: the server's instant the page was drawn at: the page's script counts from it, so a phone
    #: whose own clock is wrong still counts down to the right end
    now: datetime
    seconds_left: int

    @property
    def ends_at_text(self) -> str:
        return utc_text(self.ends_at)

    @property
    def now_text(self) -> str:
        return utc_text(self.now)

    @property
    def left_text(self) -> str:
        """What is left, as the countdown writes it: m:ss, or h:mm:ss from an hour."""
        hours, rest = divmod(self.seconds_left, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def clock_view(state: core.TournamentState, round_number: int | None, now: datetime | None = None) -> ClockView | None:
    """The round's running (or run out) clock at `now`, or None: no clock started, the round is
    closed or not paired, or the tournament has finished."""
    if state.finished or round_number is None or not 1 <= round_number <= len(state.rounds):
        return None
    rnd = state.rounds[round_number - 1]
    if rnd.clock is None or rnd.closed:
        return None
    now = now or timezone.now()
    return ClockView(rnd.number, rnd.clock.minutes, rnd.clock.end, now, rnd.clock.seconds_left(now))
