"""Standings a player can trust (issue 39 item 3): the predictive table ranks by the low end of the
95% range (rating - 2 RD), says so in one line and explains the "?"; its headers are words; and
"you" is marked on the league's tables, the player page and a tournament's standings."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from games.models import Club, Game, Membership, Player
from games.ratings.models import LeagueRules, RatingChange
from games.ratings.queries import league_table
from games.ratings.standing import RankRule
from games.ratings.systems import ELO, PREDICTIVE
from tests.ratings.rules import set_league_rules

pytestmark = pytest.mark.django_db
WHEN = datetime(2026, 12, 7, 19, tzinfo=timezone.utc)
# (name, predictive rating, RD, Elo, games): the "1511? ± 313" above 1663 and 1611
PLAYERS = [("Newt", 1511.0, 313.0, 1560.0, 6), ("Ann", 1663.0, 60.0, 1620.0, 120), ("Bob", 1611.0, 62.0, 1540.0, 140)]


@pytest.fixture
def league():
    club = Club.objects.create(slug="trust", name="Trust", visibility="public")
    game = Game.objects.create(club=club, variant="nanking")
    for side, (name, rating, rd, elo, games) in enumerate(PLAYERS):
        player = Player.objects.create(club=club, name=name)
        RatingChange.objects.create(
            game=game,
            player=player,
            club=club,
            variant="nanking",
            finished_at=WHEN,
            ordinal=0,
            side=side % 2,
            rating_before=rating,
            rating_after=rating,
            rd_before=rd,
            rd_after=rd,
            expected=0.5,
            score=1.0,
            games=games,
            elo_before=elo,
            elo_after=elo,
        )
    return club


def test_the_predictive_table_ranks_by_the_low_end_of_the_range_and_the_elo_table_by_rating(league):
    rule = RankRule(min_games=5, inactive_days=180)
    predictive = league_table(league.pk, "nanking", rule=rule)
    assert [(r.rank, r.player) for r in predictive.rows] == [(1, "Ann"), (2, "Bob"), (3, "Newt")]
    assert predictive.rows[2].provisional  # the "?"
    elo = league_table(league.pk, "nanking", table="elo", rule=rule)
    assert [r.player for r in elo.rows] == ["Ann", "Newt", "Bob"]
    assert PREDICTIVE.ranks_by(1511.0, 313.0) == 885.0 and ELO.ranks_by(1560.0, 0.0) == 1560.0


def test_the_player_page_ranks_the_same_way(league):
    newt = Player.objects.get(club=league, name="Newt")
    set_league_rules(league, leads_with=LeagueRules.LeadsWith.PREDICTIVE)
    page = Client().get(f"/players/{newt.pk}.json").json()
    assert (page["rank_history"][-1]["rank"], page["rank_history"][-1]["ranked"]) == (3, 3)


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _html(client, url: str) -> str:
    with translation.override("en"):
        return client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_league_page_says_how_it_ranks_explains_the_question_mark_and_names_its_columns(league):
    html = _html(Client(), "/clubs/trust/league/")
    assert 'id="ranking-rule"' in html and "Ranked by the low end of the range (rating − 2 deviations)" in html
    assert "A “?” after a rating: provisional" in html and 'abbr title="provisional' in html
    assert ">Last game</th>" in html and ">Double victories</th>" in html
    assert ">1-2</th>" not in html and ">Last</th>" not in html
    assert "docs/ratings.md" not in _html(Client(), f"/players/{Player.objects.get(name='Ann').pk}/")


def test_you_are_marked_on_the_league_and_your_player_page(league):
    user = get_user_model().objects.create_user(username="ann", password="pw")
    Membership.objects.create(club=league, user=user, role=Membership.Role.VIEWER)
    ann = Player.objects.get(club=league, name="Ann")
    ann.user = user
    ann.save()
    client = _signed_in(user)
    html = _html(client, "/clubs/trust/league/")
    assert html.count('class="you-badge"') == 2  # once in each table, on Ann's row
    assert f'<tr data-player="{ann.pk}" class=" mine"' in html
    assert 'id="you"' in _html(client, f"/players/{ann.pk}/")
    bob = Player.objects.get(club=league, name="Bob")
    assert 'id="you"' not in _html(client, f"/players/{bob.pk}/")
    assert "you-badge" not in _html(Client(), "/clubs/trust/league/")  # signed out: nobody is "you"


def test_you_are_marked_on_a_tournaments_standings(club, scorer_client, make_user):
    from tests.tournament_api.test_api import create, register_pairs

    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)  # Anna & Ben are entry e0
    user = make_user("anna")
    Player.objects.filter(club=club, name="Anna").update(user=user)  # the record names her by roster id
    mine = _html(_signed_in(user), f"/tournaments/{tid}/standings/")
    assert mine.count('class="you-badge"') == 1
    row = mine[mine.index('data-entry="e0"') :]
    assert row.index("you-badge") < row.index("</tr>")
    assert "you-badge" not in _html(Client(), f"/tournaments/{tid}/standings/")
    assert _html(_signed_in(user), f"/tournaments/{tid}/projector/").count('class="you-badge"') == 1  # as on every list
