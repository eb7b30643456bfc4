"""Watching on a delay the club sets (issue 34 item 5): a club's watchers see its online tables as
they stood `watch_delay_events` events ago (OnlineSettings; 0 live); the seats see the present.

Counted in events, not seconds: the position so many events back is fixed by the record alone (no
clock, the same on every server), and a table that pauses does not catch up to the present while
the watcher looks. What a delayed watcher is shown is decided in `games.online.selectors.watch_view`
(the one place the watch page and its poll read); its poll waits for the event that moves the
delayed position (`poll_after`), so the answer never tells how far the table has gone past it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import selectors
from games.models import Club, Membership
from games.services import InvalidInput, WriteForbidden

from .models import OnlineSettings

#: the longest delay a club may set (events; a hand of Tichu is some 60)
MAX_EVENTS = 500


def delay_events(club_id: int) -> int:
    """The club's watching delay in events, 0 when its watchers follow live."""
    return OnlineSettings.objects.filter(club_id=club_id).values_list("watch_delay_events", flat=True).first() or 0


def shown_seq(seq: int, delay: int, active: bool) -> int:
    """The position a watcher sees of a game at `seq`: `delay` events back while it is played
    (never before the start); the whole game once it is over (its replay opens then)."""
    return max(0, seq - delay) if active else seq


def poll_after(after: int, delay: int) -> int:
    """The stored seq a delayed watcher's poll (seen `after`) waits past: the event that moves
    the position it is shown, not the first one after it."""
    return after + delay if after >= 0 else after


def set_delay_events(*, club: Club, events: int, user) -> OnlineSettings:
    """The club's admin sets its watchers' delay: 0 (live) to MAX_EVENTS events."""
    if selectors.membership_role(user, club) != Membership.Role.ADMIN:
        raise WriteForbidden(_("the watching delay is set by an admin of club “%(club)s”") % {"club": club.slug})
    if isinstance(events, bool) or not isinstance(events, int) or not 0 <= events <= MAX_EVENTS:
        raise InvalidInput(
            _("the watching delay is from 0 (live) to %(max)d events") % {"max": MAX_EVENTS}, code="invalid"
        )
    row, _created = OnlineSettings.objects.update_or_create(club=club, defaults={"watch_delay_events": events})
    return row
