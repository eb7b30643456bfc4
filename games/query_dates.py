"""A date in a query string (`?from=2026-01-15&to=2026-03-27`), parsed in one place with bounds;
and a date-time (`?finished_after=2026-01-15T20:00:00Z`, the API's game lists), with the same bounds.

A date is the ISO form `YYYY-MM-DD` between `MIN_DATE` and `MAX_DATE`. The bounds keep every
computation on it inside the calendar: a period's end is the start of the evening after it (plus
a day, then the club's time zone), and `?to=9999-12-31` overflowed there (a 500, issue 30); no game
of a club falls outside them. Every date query parameter (the league and player pages, their JSON
and CSV) goes through `parse_query_date`; a refusal is a `QueryDateError` with a stable code
(`invalid_date`) and a message in the request's language naming the parameter and the bounds.
"""

from __future__ import annotations

from datetime import date, datetime, time
from datetime import timezone as dt_timezone

from django.utils.translation import gettext as _

MIN_DATE = date(1900, 1, 1)
MAX_DATE = date(2999, 12, 31)


class QueryDateError(ValueError):
    code = "invalid_date"

    def __init__(self, name: str, raw: str) -> None:
        self.params = {"parameter": name, "value": raw[:40], "min": MIN_DATE.isoformat(), "max": MAX_DATE.isoformat()}
        self.message = (
            _("%(parameter)s must be a date YYYY-MM-DD from %(min)s to %(max)s, not “%(value)s”") % self.params
        )
        super().__init__(self.message)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "params": self.params}


def parse_query_date(name: str, raw: str | None) -> date | None:
    """The date `raw` names (None when it is absent or empty); QueryDateError when it is not an
    ISO date within the bounds."""
    if not raw:
        return None
    try:
        # fromisoformat takes other forms too (20260115, 2026-W03-4): a query date is YYYY-MM-DD
        day = date.fromisoformat(raw) if len(raw) == 10 and raw[4] == raw[7] == "-" else None
    except ValueError:
        day = None
    if day is None or not MIN_DATE <= day <= MAX_DATE:
        raise QueryDateError(name, raw)
    return day


class QueryDateTimeError(QueryDateError):
    def __init__(self, name: str, raw: str) -> None:
        ValueError.__init__(self)
        self.params = {"parameter": name, "value": raw[:40], "min": MIN_DATE.isoformat(), "max": MAX_DATE.isoformat()}
        self.message = (
            _(
                "%(parameter)s must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SS, with Z or an offset; "
                "UTC without) or a date, from %(min)s to %(max)s, not “%(value)s”"
            )
            % self.params
        )
        self.args = (self.message,)


def parse_query_datetime(name: str, raw: str | None) -> datetime | None:
    """The instant `raw` names, aware (None when absent or empty): an ISO 8601 date-time (`Z` or an
    offset; UTC without one; a `+` of the offset that the query string turned into a space is read
    as `+`), or a date alone (its midnight, UTC); its day within the bounds of `parse_query_date`.
    QueryDateTimeError otherwise."""
    if not raw:
        return None
    text = raw.strip()
    if len(text) == 10:
        try:
            return datetime.combine(parse_query_date(name, text), time(), tzinfo=dt_timezone.utc)
        except QueryDateError:
            raise QueryDateTimeError(name, raw) from None
    if len(text) > 19 and text[-6] == " ":  # `+01:00` unencoded in a URL arrives as ` 01:00`
        text = text[:-6] + "+" + text[-5:]
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00")) if len(text) >= 16 and text[10] == "T" else None
    except ValueError:
        when = None
    if when is None or not MIN_DATE <= when.date() <= MAX_DATE:
        raise QueryDateTimeError(name, raw)
    return when if when.tzinfo is not None else when.replace(tzinfo=dt_timezone.utc)
