"""A club's evenings on its pages are local ones (Club.time_zone, games.ratings.evening): a night
that runs past midnight, or past midnight UTC, is one evening on the player page, in the rank
history, in a period of the league and on the club page (its games' times at the club's clock)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from bench.ratings_lab.fixtures import load_history
from games.models import Club
from games.ratings import services
from games.ratings.types import GameResult, HandDetail

NAMES = {k: k.title() for k in ("anna", "ben", "clara", "dirk")}
PAIRINGS = [
    (("anna", "ben"), ("clara", "dirk")),
    (("anna", "clara"), ("ben", "dirk")),
    (("anna", "dirk"), ("ben", "clara")),
]


def at(zone: str, d: date, hh: int, mm: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, hh, mm, tzinfo=ZoneInfo(zone))


def night(zone: str, d: date, times: list[tuple[int, int]], k0: int) -> list[GameResult]:
    """Games at these local times, from the evening of `d` into the next morning."""
    out = []
    for j, (hh, mm) in enumerate(times):
        day = d if hh >= 12 else d + timedelta(days=1)
        a, b = PAIRINGS[j % 3]
        score = 600 if j % 2 else 400
        out.append(
            GameResult(
                k0 + j,
                at(zone, day, hh, mm).timestamp(),
                (a, b),
                (score, 1000 - score),
                0 if score > 500 else 1,
                4,
                hand_details=(HandDetail((score - 500, 0)),) * 4,
            )
        )
    return out


def club_with(zone: str, games: list[GameResult]) -> tuple[Club, dict]:
    club = Club.objects.create(name=zone, slug=zone.lower().replace("/", "-").replace("_", "-"), time_zone=zone)
    pid = load_history(club, games, names=NAMES)
    services.recompute_club(club.pk)
    return club, {NAMES[k]: v for k, v in pid.items()}


# Berlin: a winter night 19:00-01:30 CET (01:30 is 00:30 UTC the next day), and the night the
# clocks go forward (29 March 2026, 02:00 CET -> 03:00 CEST) until 03:30 CEST (01:30 UTC).
WINTER, SPRING = date(2026, 1, 15), date(2026, 3, 28)
BERLIN = night("Europe/Berlin", WINTER, [(19, 0), (20, 15), (21, 30), (23, 0), (0, 30), (1, 30)], 0) + night(
    "Europe/Berlin", SPRING, [(19, 30), (22, 0), (0, 45), (1, 50), (3, 30)], 100
)


@pytest.mark.django_db
def test_a_berlin_night_past_midnight_is_one_evening_on_the_player_page():
    club, pid = club_with("Europe/Berlin", BERLIN)
    assert len({datetime.fromtimestamp(g.finished_at, tz=timezone.utc).date() for g in BERLIN}) == 4  # UTC: 4 dates
    c = Client()
    page = c.get(f"/players/{pid['Anna']}.json").json()
    assert [(e["label"], e["games"]) for e in page["evenings"]] == [("2026-01-15", 6), ("2026-03-28", 5)]
    assert {g["evening"] for g in page["history"]} == {"2026-01-15", "2026-03-28"}
    assert [d["day"] for d in page["rank_history"]] == ["2026-01-15", "2026-03-28"]
    html = c.get(f"/players/{pid['Anna']}/").content.decode()
    table = html.split('id="evenings-table"')[1].split("</table>")[0]
    assert table.count("<tr>") == 1 + 2  # the head and two evenings
    # a period of evenings holds the whole night, the hours after midnight too
    one = c.get(f"/clubs/{club.slug}/league.json?from=2026-01-15&to=2026-01-15").json()
    assert one["games"] == 6 and one["rules"]["time_zone"] == "Europe/Berlin"
    assert c.get(f"/clubs/{club.slug}/league.json?from=2026-01-16&to=2026-03-27").json()["games"] == 0
    # and the club page's latest evening is the whole of the last night
    detail = c.get(f"/clubs/{club.slug}/").content.decode()
    assert '<time datetime="2026-03-28">' in detail
    latest = detail.split('id="latest-evening"')[1].split("</section>")[0]
    assert "5 games" in latest
    # its games at the club's clock: 03:30 CEST, not the 01:30 UTC the server keeps
    assert '<time datetime="2026-03-29T03:30:00+02:00">' in detail
    assert '<time datetime="2026-01-15T19:00:00+01:00">' in detail


@pytest.mark.django_db
def test_the_zone_decides_the_evening_west_of_utc():
    """New York, 19:00-02:30 EST is 00:00-07:30 UTC the next day: one evening there, though in
    UTC the last game would be after the cut-off of the next day."""
    d = date(2026, 2, 5)
    games = night("America/New_York", d, [(19, 0), (21, 0), (23, 30), (2, 30)], 0)
    club, pid = club_with("America/New_York", games)
    page = Client().get(f"/players/{pid['Anna']}.json").json()
    assert [(e["label"], e["games"]) for e in page["evenings"]] == [("2026-02-05", 4)]
    Club.objects.filter(pk=club.pk).update(time_zone="UTC")  # the same games counted in UTC
    page = Client().get(f"/players/{pid['Anna']}.json").json()
    assert [(e["label"], e["games"]) for e in page["evenings"]] == [("2026-02-05", 3), ("2026-02-06", 1)]
