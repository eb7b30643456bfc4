"""Game lists: filtered by club, player, variant, status and date (django-filter), paginated."""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.models import Club, Game, Membership, Player
from games.services import append_events, game_create
from tests.api.helpers import grand_double
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(club, scorer, make_club):
    """Five games in `club`, one in another public club; two finished; dated over three days."""
    other = make_club("other")
    Membership.objects.create(club=other, user=scorer, role="scorer")
    table = [
        (club, ["Ann", "Bob", "Cid", "Dee"], True, 3),
        (club, ["Ann", "Eve", "Cid", "Fay"], False, 3),
        (club, ["Gus", "Bob", "Hal", "Dee"], True, 2),
        (club, ["Gus", "Eve", "Hal", "Fay"], False, 1),
        (club, ["Ann", "Bob", "Hal", "Fay"], False, 1),
        (other, ["Ann", "Zed", "Yan", "Xi"], False, 1),
    ]
    now = timezone.now()
    ids = []
    for owner, names, finish, days_ago in table:
        game_id = game_create(club=owner, variant="nanking", options=None, players=names, user=scorer).body["id"]
        if finish:
            append_events(game=game_id, events=[grand_double(0)] * 3, expected_seq=0, user=scorer)
        Game.objects.filter(pk=game_id).update(created_at=now - dt.timedelta(days=days_ago))
        ids.append(game_id)
    return ids, now


def ids_of(client, query: str = "") -> list[int]:
    response = client.get(f"/api/games/?{query}")
    assert response.status_code == 200, response.json()
    return sorted(g["id"] for g in response.json()["results"])


def test_filters(anon, club, games):
    ids, now = games
    assert ids_of(anon) == sorted(ids)
    assert ids_of(anon, f"club={club.pk}") == ids[:5]
    assert ids_of(anon, "club_slug=other") == ids[5:]
    ann = Player.objects.get(club=club, name="Ann")
    assert ids_of(anon, f"player={ann.pk}") == [ids[0], ids[1], ids[4]]
    assert ids_of(anon, "player_name=Ann") == [ids[0], ids[1], ids[4], ids[5]]
    assert ids_of(anon, f"player_name=Ann&club={club.pk}&status=active") == [ids[1], ids[4]]
    assert ids_of(anon, "status=finished") == [ids[0], ids[2]]
    assert ids_of(anon, "variant=nanking") == sorted(ids)
    assert ids_of(anon, "variant=tientsin") == []
    two_days_ago = (now - dt.timedelta(days=2)).date().isoformat()
    three_days_ago = (now - dt.timedelta(days=3)).date().isoformat()
    assert ids_of(anon, f"date_after={two_days_ago}") == ids[2:]
    assert ids_of(anon, f"date_before={two_days_ago}") == ids[:3]
    assert ids_of(anon, f"date_after={two_days_ago}&date_before={two_days_ago}") == [ids[2]]
    assert ids_of(anon, f"created={three_days_ago}") == ids[:2]


@pytest.mark.parametrize("query", ["status=over", "club=a+b", "date_after=yesterday", "player=x"])
def test_bad_filter_values_are_json_400(anon, games, query):
    response = anon.get(f"/api/games/?{query}")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and response.json()["message"]


def test_pagination(anon, games):
    ids, _ = games
    first = anon.get("/api/games/?page_size=4").json()
    assert first["count"] == 6 and len(first["results"]) == 4 and first["next"] and first["previous"] is None
    second = anon.get(first["next"]).json()
    assert len(second["results"]) == 2 and second["next"] is None
    assert sorted(g["id"] for g in first["results"] + second["results"]) == sorted(ids)
    # Newest first.
    dates = [g["created_at"] for g in first["results"] + second["results"]]
    assert dates == sorted(dates, reverse=True)
    out_of_range = anon.get("/api/games/?page=9")
    assert out_of_range.status_code == 404 and out_of_range.json()["code"] == "not_found"


def test_private_club_games_only_for_members(club, games, make_user, anon):
    ids, _ = games
    Club.objects.filter(pk=club.pk).update(visibility="members")
    assert ids_of(anon) == ids[5:]
    assert ids_of(anon, "player_name=Ann") == ids[5:]
    viewer = make_user("viewer")
    Membership.objects.create(club=club, user=viewer, role="viewer")
    assert ids_of(client_for(viewer), "player_name=Ann") == [ids[0], ids[1], ids[4], ids[5]]


def test_list_query_count_does_not_grow_with_games(anon, games, django_assert_max_num_queries):
    # 4 for the page, and one for the games held from lists (games.holds: the open rounds of
    # duplicate tournaments in progress; none here)
    with django_assert_max_num_queries(5):
        response = anon.get("/api/games/?page_size=50")
    assert len(response.json()["results"]) == 6
    assert response.json()["results"][0]["players"]
