"""Every date query parameter is bounded (issue 30: `/clubs/{c}/league/?to=9999-12-31` answered
500): the league and player pages, their JSON and CSV take `from`/`to` as YYYY-MM-DD between
1900-01-01 and 2999-12-31 (games/query_dates.py), and answer anything else 400 `invalid_date`."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation

from games.models import Player
from games.query_dates import MAX_DATE, MIN_DATE, QueryDateError, parse_query_date

BAD = [
    "to=9999-12-31",
    "from=0001-01-01",
    "to=3000-01-01",
    "from=1899-12-31",
    "to=2026-13-01",
    "from=20260115",
    "to=2026-W03-4",
    "from=yesterday",
    "to=2026-01-15T00:00",
]
GOOD = ["", f"from={MIN_DATE}", f"to={MAX_DATE}", f"from={MIN_DATE}&to={MAX_DATE}", "from=2026-01-15&to=2026-01-15"]


def paths(club, player) -> list[str]:
    return [
        f"/clubs/{club.slug}/league/",
        f"/clubs/{club.slug}/league.json",
        f"/clubs/{club.slug}/league.csv",
        f"/players/{player.pk}/",
        f"/players/{player.pk}.json",
        f"/players/{player.pk}.csv",
    ]


@pytest.fixture
def player(club):
    return Player.objects.create(club=club, name="Ann")


@pytest.mark.django_db
@pytest.mark.parametrize("query", BAD)
def test_a_date_out_of_bounds_or_not_a_date_is_400(club, player, query):
    for path in paths(club, player):
        response = Client().get(f"{path}?{query}")
        assert response.status_code == 400, (path, query, response.status_code)
        if path.endswith(".json"):
            body = json.loads(response.content)
            assert body["code"] == "invalid_date" and body["params"]["max"] == "2999-12-31", body
        else:
            assert "YYYY-MM-DD" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("query", GOOD)
def test_dates_within_the_bounds_are_read(club, player, query):
    for path in paths(club, player):
        assert Client().get(f"{path}?{query}").status_code == 200, (path, query)


@pytest.mark.django_db
def test_the_league_form_offers_the_bounds(club):
    page = Client().get(f"/clubs/{club.slug}/league/").content.decode()
    assert 'name="to" value="" min="1900-01-01" max="2999-12-31"' in page


def test_the_parser_names_the_parameter_and_the_bounds():
    assert parse_query_date("from", None) is None and parse_query_date("from", "") is None
    assert parse_query_date("to", "2999-12-31") == MAX_DATE
    with translation.override("en"), pytest.raises(QueryDateError) as err:
        parse_query_date("to", "9999-12-31")
    assert err.value.params == {"parameter": "to", "value": "9999-12-31", "min": "1900-01-01", "max": "2999-12-31"}
    assert "to must be a date" in err.value.message
