"""Imported history counts for activity by the games' own dates (issue 39 finding 3): a club that
imports its sheets of 2012-17 and plays again tonight keeps its regulars of then ranked; the years
in between, when nobody played, are no one's absence (standing.ClubCalendar). The league table,
the player page and the rank history say the same; a player who stopped while the club played on
is inactive as before."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games.engine import random_game
from games.models import Club, Player
from games.ratings import services
from games.ratings.queries import league_table
from games.ratings.standing import ClubCalendar, RankRule, status
from games.services import game_import

REGULARS = ["Ann", "Bob", "Cid", "Dee"]
RULE = RankRule(min_games=5, inactive_days=180)


@given(st.lists(st.integers(1, 180), min_size=1, max_size=30), st.integers(0, 29), st.integers(1, 400))
def test_without_a_break_longer_than_the_window_absence_is_the_plain_count_of_days(gaps, at, window):
    days = [date(2012, 1, 1)]
    for g in gaps:
        days.append(days[-1] + timedelta(days=min(g, window)))
    calendar = ClubCalendar(RankRule(5, window), days)
    last, ref = days[min(at, len(days) - 1)], days[-1]
    assert calendar.absence(last, ref) == (ref - last).days


def test_a_break_of_the_whole_club_is_no_ones_absence_but_playing_on_without_them_is():
    cal = ClubCalendar(RULE, [date(2017, 10, 3), date(2017, 10, 10), date(2026, 12, 7)])
    assert status(100, date(2017, 10, 10), date(2026, 12, 7), RULE, cal).ranked  # 0 days of the club's play missed
    assert status(100, date(2017, 10, 3), date(2026, 12, 7), RULE, cal).ranked  # 7 days
    # without the calendar (the plain rule) both were inactive: 9 years
    assert status(100, date(2017, 10, 10), date(2026, 12, 7), RULE).inactive
    played_on = ClubCalendar(RULE, [date(2017, 10, 3)] + [date(2017, 10, 3) + timedelta(weeks=w) for w in range(1, 40)])
    assert status(100, date(2017, 10, 3), played_on.days[-1], RULE, played_on).inactive


def _play(club, names, when: str, seed: int) -> None:
    game_import(club=club, record={**random_game(seed, players=names), "meta": {"played_at": when}}, user=None)


@pytest.mark.django_db
def test_a_club_that_imports_its_past_and_plays_tonight_has_a_ranked_league():
    club = Club.objects.create(slug="hist", name="History", visibility="public")
    for k in range(6):  # Ivy's last games, March 2016: the club played on without her for 200 days
        _play(
            club,
            ["Ivy", "Bob", "Cid", "Dee"],
            (date(2016, 3, 1) + timedelta(days=k)).isoformat() + "T19:00:00Z",
            seed=50 + k,
        )
    for k in range(21):  # the regulars' history, every ten days from March to October 2016
        _play(club, REGULARS, (date(2016, 3, 8) + timedelta(days=10 * k)).isoformat() + "T19:00:00Z", seed=k)
    _play(club, ["Eve", "Fay", "Gus", "Hal"], "2026-12-07T19:00:00Z", seed=99)  # tonight, others
    services.recompute_club(club.pk)
    table = league_table(club.pk, "nanking", rule=RULE, tz="UTC")
    ranked = {r.player for r in table.rows if r.rank is not None}
    assert ranked == set(REGULARS), [(r.player, r.note) for r in table.rows]
    assert [r.player for r in table.rows if r.inactive] == ["Ivy"]
    ann = Player.objects.get(club=club, name="Ann")
    page = Client().get(f"/players/{ann.pk}.json").json()
    assert page["inactive"] is False and page["standing_note"] == ""
    assert page["rank_history"][-1]["rank"] is not None, page["rank_history"][-1]
