"""When a Brettspielwelt game was played (``meta.played_at`` of its records).

A ``.tch`` log carries no date (not one line of the 2007 or the 2025 format has one). BSW dates its
games in the monthly index ``http://tichulog.brettspielwelt.de/YYYYMM``, and archives of the logs
keep that month as a folder (``202507/2410688.tch``, the layout of frohlfing/tichu's download):

- a log inside a ``YYYYMM`` folder was played in that month: the first of the month, 00:00 UTC;
- otherwise the date is estimated from the game id, which grows with time: piecewise linear
  between known ids (:data:`ANCHORS`). BSW's traffic was not constant, so between two anchors the
  estimate can be months off; the record says so (``meta.played_at_source``).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import PurePath

__all__ = ["ANCHORS", "played_at_from_id", "played_at_from_path", "played_at"]

_UTC = timezone.utc

#: (game id, when it was played), ascending. Id 1: the first entry of the 200701 index
#: (2007-01-09 19:03). 2,241,381: kalekundert/tich_me shipped this game in a commit of 2019-05-19, so
#: it was played at the latest then (taken as its date). 2,410,688: frohlfing/tichu's archive
#: files it under 202507 (taken as mid-month).
ANCHORS: tuple[tuple[int, datetime], ...] = (
    (1, datetime(2007, 1, 9, 19, 3, tzinfo=_UTC)),
    (2_241_381, datetime(2019, 5, 19, tzinfo=_UTC)),
    (2_410_688, datetime(2025, 7, 15, tzinfo=_UTC)),
)

FROM_FOLDER = "the month of the archive folder (YYYYMM) the log lies in"
FROM_ID = "estimated from the BSW game id (docs/importers.md: between known ids, can be months off)"

_MONTH = re.compile(r"^(20\d\d)(0[1-9]|1[0-2])$")


def _iso(when: datetime) -> str:
    return when.astimezone(_UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def played_at_from_id(game_id: int | str | None) -> str | None:
    """The estimated date of BSW game ``game_id`` (ISO 8601, UTC), or None for no numeric id and
    for an id so far past the last anchor that its estimate is past the calendar (year 9999): a
    log's id comes from outside (the API takes 12 digits, a file name any), and such an id dates
    nothing, as a log without one."""
    try:
        gid = int(str(game_id))
    except (TypeError, ValueError):
        return None
    if gid < 1:
        return None
    # beyond the last anchor: extrapolate with the last segment's rate
    for (a, ta), (b, tb) in zip(ANCHORS, ANCHORS[1:]):
        if gid <= b or (b, tb) == ANCHORS[-1]:
            try:
                return _iso(ta + (tb - ta) * ((gid - a) / (b - a)))
            except OverflowError:  # past datetime's range (or a float's, for the ratio)
                return None
    return None  # pragma: no cover - ANCHORS has at least two entries


def played_at_from_path(path: str | PurePath | None) -> str | None:
    """The first of the month of a log in a ``YYYYMM`` folder, or None."""
    if path is None:
        return None
    m = _MONTH.match(PurePath(path).parent.name)
    if not m:
        return None
    return _iso(datetime(int(m.group(1)), int(m.group(2)), 1, tzinfo=_UTC))


def played_at(*, path: str | PurePath | None = None, game_id: int | str | None = None) -> tuple[str, str] | None:
    """``(played_at, source)`` for a log: its archive folder's month, else the id's estimate."""
    when = played_at_from_path(path)
    if when is not None:
        return when, FROM_FOLDER
    when = played_at_from_id(game_id)
    if when is not None:
        return when, FROM_ID
    return None
