"""Small server-rendered SVG charts on a real time axis (the site's CSP allows no scripts from
elsewhere, and none are needed). Pure Python (no Django).

* `rating_chart`: one point per game, in the order and at about the time it was played: the Elo
  table's line and the predictive rating's line with its 95% range as a band. The axis is time,
  stretched where games crowd (`GameAxis`): every game is at least half the average spacing from
  the one before, so an evening's five games are five points side by side, not a vertical
  sliver on one date, and a break of more than a year and a fifth of the span shown is shortened
  to that (nine years between an imported archive and tonight are not most of the chart). Ticks sit at
  their dates on the stretched axis. Each point carries its game's why line (a tooltip; the page's
  script shows it on a tap: replay/static/site/rating_chart.js).
* `rank_chart`: a step line of the player's rank after each club day (first place at the top).
Dates on the axis are ticks at whole days, months or years, chosen by the span shown, at the
club's local midnights in both charts (a New York game at 20:00 is 01:00 UTC the next day: it
sits before that day's tick, not after it); the rank chart's evenings sit on their own date's
tick (local midnight), so a night the clocks change is 23 or 25 hours wide, as in the rating chart.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone, tzinfo
from html import escape
from typing import Sequence

W, H = 640, 240
PAD_L, PAD_R, PAD_T, PAD_B = 48, 12, 14, 30
ELO_COLOUR, PRED_COLOUR, BAND_COLOUR = "#b35900", "#1f5fa8", "#1f5fa8"


@dataclass(frozen=True)
class GamePoint:
    at: datetime
    elo: float
    rating: float
    rd: float
    label: str = ""  # the point's tooltip (the game and its why line)


def _ts(d: datetime | date, tz: tzinfo = timezone.utc) -> float:
    """An instant's timestamp; a day's (a club evening's) is its local midnight in `tz`."""
    if isinstance(d, datetime):
        return d.timestamp()
    return datetime(d.year, d.month, d.day, tzinfo=tz).timestamp()


EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def time_ticks(
    lo: float, hi: float, max_ticks: int = 6, months: Sequence[str] = EN_MONTHS, tz: tzinfo = timezone.utc
) -> list[tuple[float, str]]:
    """Ticks at whole years, months (1st), weeks or days between two timestamps, at midnight in
    `tz`, at most about `max_ticks` of them. `months`: the months' short names in the reader's
    language."""
    a = datetime.fromtimestamp(lo, tz=tz)
    b = datetime.fromtimestamp(hi, tz=tz)
    span_days = (hi - lo) / 86400
    ticks: list[datetime] = []
    if span_days > 730:
        step = max(1, round(span_days / 365 / max_ticks))
        y = a.year + 1
        while y <= b.year:
            ticks.append(datetime(y, 1, 1, tzinfo=tz))
            y += step
        fmt = "%Y"
    elif span_days > 60:
        step = max(1, round(span_days / 30.4 / max_ticks))
        y, m = (a.year, a.month + 1) if a.month < 12 else (a.year + 1, 1)
        while datetime(y, m, 1, tzinfo=tz) <= b:
            ticks.append(datetime(y, m, 1, tzinfo=tz))
            m += step
            while m > 12:
                y, m = y + 1, m - 12
        fmt = "{b} %Y"
    else:
        step = max(1, round(span_days / max_ticks))
        d = datetime(a.year, a.month, a.day, tzinfo=tz) + timedelta(days=1)  # wall clock: midnight stays
        while d <= b:
            ticks.append(d)
            d += timedelta(days=step)
        fmt = "%d {b}"
    return [(t.timestamp(), t.strftime(fmt.replace("{b}", months[t.month - 1].replace("%", "%%")))) for t in ticks]


class GameAxis:
    """Time stretched where games crowd and shortened over long breaks (the module docstring): a
    monotone, piecewise-linear map from a timestamp to a position, through one knot per game.
    Between two games the step is the time between them, at least `min_step` (half the average
    spacing over the span) and at most `max_step` (a fifth of the span, or a year if that is
    more: only a break of years is shortened); outside the games, time as it is."""

    def __init__(self, times: Sequence[float]):
        self.times = list(times)
        span = max(self.times[-1] - self.times[0], 86400.0) if self.times else 86400.0
        n = max(len(self.times) - 1, 1)
        min_step, max_step = 0.5 * span / n, max(span / 5, 365 * 86400.0)
        self.knots = [0.0]
        for a, b in zip(self.times, self.times[1:]):
            self.knots.append(self.knots[-1] + min(max(b - a, min_step), max(max_step, min_step)))

    def __call__(self, t: float) -> float:
        ts, us = self.times, self.knots
        if not ts:
            return t
        if t <= ts[0]:
            return t - ts[0]
        if t >= ts[-1]:
            return us[-1] + (t - ts[-1])
        i = bisect_right(ts, t)  # ts[i - 1] <= t < ts[i]
        a, b = ts[i - 1], ts[i]
        return us[i - 1] + (us[i] - us[i - 1]) * (t - a) / (b - a) if b > a else us[i]


class _Frame:
    """Maps (time, value) to the SVG's coordinates; `axis` maps time to a position first (the
    rating chart's GameAxis; the rank chart keeps plain time)."""

    def __init__(self, t0: float, t1: float, lo: float, hi: float, invert: bool = False, axis: GameAxis | None = None):
        self.axis = axis or (lambda t: t)
        u0, u1 = self.axis(t0), self.axis(t1)
        if u1 - u0 < 86400:  # a single evening: a day's width, centred
            mid = (u0 + u1) / 2
            u0, u1 = mid - 43200, mid + 43200
        self.t0, self.t1, self.u0, self.u1, self.lo, self.hi, self.invert = t0, t1, u0, u1, lo, hi, invert
        self.w, self.h = W - PAD_L - PAD_R, H - PAD_T - PAD_B

    def x(self, t: float) -> float:
        return round(PAD_L + self.w * (self.axis(t) - self.u0) / (self.u1 - self.u0), 1)

    def y(self, v: float) -> float:
        f = (v - self.lo) / (self.hi - self.lo)
        return round(PAD_T + self.h * (f if self.invert else 1 - f), 1)


def _head(title: str, css: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css}" role="img" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}"><title>{escape(title)}</title>'
    ]


def _axes(
    fr: _Frame, y_labels: Sequence[tuple[float, str]], months: Sequence[str] = EN_MONTHS, tz: tzinfo = timezone.utc
) -> list[str]:
    parts = [
        f'<line x1="{PAD_L}" y1="{PAD_T}" x2="{PAD_L}" y2="{PAD_T + fr.h}" stroke="#888"/>',
        f'<line x1="{PAD_L}" y1="{PAD_T + fr.h}" x2="{PAD_L + fr.w}" y2="{PAD_T + fr.h}" stroke="#888"/>',
    ]
    for v, text in y_labels:
        y = fr.y(v)
        parts.append(
            f'<line x1="{PAD_L}" y1="{y}" x2="{PAD_L + fr.w}" y2="{y}" stroke="#e4e4e4"/>'
            f'<text x="{PAD_L - 5}" y="{y + 4}" text-anchor="end" font-size="12">{escape(text)}</text>'
        )
    last_x = -1e9
    for t, text in time_ticks(fr.t0, fr.t1, months=months, tz=tz):
        x = fr.x(t)
        if x - last_x < 7 * len(text) + 8:  # crowded (a break the game axis shortened): one label per place
            continue
        last_x = x
        parts.append(
            f'<line x1="{x}" y1="{PAD_T + fr.h}" x2="{x}" y2="{PAD_T + fr.h + 4}" stroke="#888"/>'
            f'<text x="{x}" y="{H - 8}" text-anchor="middle" font-size="12">{escape(text)}</text>'
        )
    return parts


def _empty(title: str, css: str, text: str) -> str:
    return "".join(_head(title, css)) + (
        f'<text x="{W / 2}" y="{H / 2}" text-anchor="middle">{escape(text)}</text></svg>'
    )


def rating_chart(
    points: Sequence[GamePoint],
    title: str = "Rating history",
    legend: tuple[str, str] = ("Elo table", "predictive (band: 95% range)"),
    months: Sequence[str] = EN_MONTHS,
    tz: tzinfo = timezone.utc,
    empty: str = "No rated games yet",
) -> str:
    """One point per game at its instant; the axis's days in `tz`, the club's zone. `empty` is
    what the chart says when there is nothing to draw (the caller's language)."""
    if not points:
        return _empty(title, "rating-chart", empty)
    ts = [_ts(p.at) for p in points]
    vals = [p.elo for p in points] + [p.rating - 2 * p.rd for p in points] + [p.rating + 2 * p.rd for p in points]
    lo, hi = min(vals), max(vals)
    if hi - lo < 40:
        lo, hi = (hi + lo) / 2 - 20, (hi + lo) / 2 + 20
    step = 50 if hi - lo < 400 else 100 if hi - lo < 1000 else 250
    lo, hi = step * (lo // step), step * (hi // step + 1)
    fr = _Frame(ts[0], ts[-1], lo, hi, axis=GameAxis(ts))
    ys = [(v, f"{v:.0f}") for v in _range(lo, hi, step * max(1, round((hi - lo) / step / 5)))]
    parts = _head(title, "rating-chart") + _axes(fr, ys, months, tz)
    band = [f"{fr.x(t)},{fr.y(p.rating + 2 * p.rd)}" for t, p in zip(ts, points)] + [
        f"{fr.x(t)},{fr.y(p.rating - 2 * p.rd)}" for t, p in reversed(list(zip(ts, points)))
    ]
    parts.append(
        f'<polygon class="band" fill="{BAND_COLOUR}" fill-opacity="0.12" stroke="none" points="{" ".join(band)}"/>'
    )
    for cls, colour, get, dash in (
        ("predictive", PRED_COLOUR, lambda p: p.rating, ""),
        ("elo", ELO_COLOUR, lambda p: p.elo, ' stroke-dasharray="5 3"'),
    ):
        coords = " ".join(f"{fr.x(t)},{fr.y(get(p))}" for t, p in zip(ts, points))
        parts.append(
            f'<polyline class="{cls}" fill="none" stroke="{colour}" stroke-width="1.8"{dash} points="{coords}"/>'
        )
    for t, p in zip(ts, points):  # one point per game, its tooltip the game and its reason
        parts.append(
            f'<circle class="game" cx="{fr.x(t)}" cy="{fr.y(p.elo)}" r="2.6" fill="{ELO_COLOUR}">'
            f"<title>{escape(p.label)}</title></circle>"
        )
    elo_words, predictive_words = legend
    x2 = PAD_L + max(100, 40 + 7 * len(elo_words))  # the second key after the first's words (about 7 px a letter)
    parts.append(
        f'<g font-size="12"><line x1="{PAD_L + 8}" y1="{PAD_T + 6}" x2="{PAD_L + 28}" y2="{PAD_T + 6}" '
        f'stroke="{ELO_COLOUR}" stroke-width="2" stroke-dasharray="5 3"/>'
        f'<text x="{PAD_L + 32}" y="{PAD_T + 10}">{escape(elo_words)}</text>'
        f'<line x1="{x2}" y1="{PAD_T + 6}" x2="{x2 + 20}" y2="{PAD_T + 6}" '
        f'stroke="{PRED_COLOUR}" stroke-width="2"/>'
        f'<text x="{x2 + 24}" y="{PAD_T + 10}">{escape(predictive_words)}</text></g>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _range(lo: float, hi: float, step: float) -> list[float]:
    out, v = [], lo
    while v <= hi + 1e-9:
        out.append(v)
        v += step
    return out


def rank_chart(
    days: Sequence[tuple[date, int | None, bool]],
    title: str = "Rank history",
    months: Sequence[str] = EN_MONTHS,
    tz: tzinfo = timezone.utc,
    empty: str = "Not ranked yet",
) -> str:
    """A step line of the rank after each club day (date, rank or None, the player played that
    day); days unranked leave a gap; a point marks each day the player played (not every club
    day: a long history would be thousands of points). The days are the club's evenings in `tz`
    (games.ratings.evening), each on its date's tick, the ticks at midnight in `tz`."""
    ranked = [(d, r) for d, r, played in days if r is not None and played]
    if not any(r is not None for _, r, _ in days):
        return _empty(title, "rank-chart", empty)
    worst = max(r for _, r, _ in days if r is not None)
    fr = _Frame(_ts(days[0][0], tz), _ts(days[-1][0], tz), 1, max(worst, 2), invert=True)
    step = max(1, round((max(worst, 2) - 1) / 5))
    parts = _head(title, "rank-chart") + _axes(
        fr, [(float(v), f"#{v}") for v in range(1, max(worst, 2) + 1, step)], months, tz
    )
    runs: list[list[str]] = [[]]
    prev_y: float | None = None
    for d, r, _ in days:
        if r is None:
            if runs[-1]:
                runs.append([])
            prev_y = None
            continue
        x, y = fr.x(_ts(d, tz)), fr.y(r)
        if prev_y is not None:
            runs[-1].append(f"{x},{prev_y}")
        runs[-1].append(f"{x},{y}")
        prev_y = y
    for run in runs:
        if run:
            parts.append(f'<polyline fill="none" stroke="{PRED_COLOUR}" stroke-width="1.8" points="{" ".join(run)}"/>')
    for d, r in ranked:
        parts.append(
            f'<circle cx="{fr.x(_ts(d, tz))}" cy="{fr.y(r)}" r="2" fill="{PRED_COLOUR}">'
            f"<title>{d.isoformat()}: #{r}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
