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


# --- issue 37 finding 5: the filters a bot needs ---------------------------------------------------


def test_player_name_regardless_of_case_and_spaces(anon, club, games):
    ids, _ = games
    assert ids_of(anon, "player_name=%20aNN%20") == ids_of(anon, "player_name=Ann") == [ids[0], ids[1], ids[4], ids[5]]
    assert anon.get("/api/players/?name=ann").json()["count"] == 2  # one Ann a club


def test_finished_after_and_updated_since(anon, club, scorer, games):
    ids, now = games
    Game.objects.filter(pk=ids[0]).update(
        finished_at=now - dt.timedelta(hours=5), updated_at=now - dt.timedelta(hours=5)
    )
    Game.objects.filter(pk=ids[2]).update(
        finished_at=now - dt.timedelta(hours=1), updated_at=now - dt.timedelta(hours=1)
    )
    since = (now - dt.timedelta(hours=2)).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert ids_of(anon, f"finished_after={since}") == [ids[2]]
    long_ago = (now - dt.timedelta(days=9)).date().isoformat()
    assert ids_of(anon, f"finished_after={long_ago}") == [ids[0], ids[2]]
    untouched = set(ids) - {ids[0], ids[2]}
    assert set(ids_of(anon, f"updated_since={since}")) == untouched | {ids[2]}
    Game.objects.filter(pk__in=untouched).update(updated_at=now - dt.timedelta(days=3))
    append_events(game=ids[1], events=[grand_double(0)], expected_seq=0, user=scorer)  # an append moves it
    assert ids_of(anon, f"updated_since={since}") == sorted([ids[1], ids[2]])
    # an offset whose + the query string turned into a space is still read as +
    offset = (
        (now - dt.timedelta(hours=2)).astimezone(dt.timezone(dt.timedelta(hours=1))).strftime("%Y-%m-%dT%H:%M:%S+01:00")
    )
    assert (
        ids_of(anon, "finished_after=" + offset.replace("+", "%2B"))
        == ids_of(anon, "finished_after=" + offset)
        == [ids[2]]
    )


@pytest.mark.parametrize("name", ["finished_after", "updated_since", "date_after", "date_before", "created"])
@pytest.mark.parametrize("value", ["yesterday", "9999-12-31T00:00:00Z", "2026-13-01"])
def test_a_bad_date_names_the_real_parameter(anon, games, name, value):
    response = anon.get(f"/api/games/?{name}={value}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and list(body["errors"]) == [name]
    assert body["message"].startswith(f"{name}: {name} must be")


def test_ordering(anon, games):
    ids, _ = games
    oldest_first = [g["id"] for g in anon.get("/api/games/?ordering=created_at,id").json()["results"]]
    newest_first = [g["id"] for g in anon.get("/api/games/?ordering=-created_at,-id").json()["results"]]
    assert oldest_first == newest_first[::-1] and sorted(oldest_first) == sorted(ids)
    assert [g["id"] for g in anon.get("/api/games/?ordering=id").json()["results"]] == sorted(ids)
    refused = anon.get("/api/games/?ordering=password")
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["ordering"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/?player_nmae=Ann",
        "/api/games/?club=home&x=1",
        "/api/players/?nam=Ann",
        "/api/clubs/?q=1",
        "/api/games/{game}/?verbose=1",
        "/api/games/{game}/events/?afterr=3",
        "/api/games/{game}/state/?seq=1",
        "/api/tournaments/?clubb=1",
    ],
)
def test_unknown_query_parameters_are_refused_naming_them(anon, club, games, path):
    ids, _ = games
    response = anon.get(path.format(game=ids[0]))
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "unknown_parameters"
    unknown = path.split("?")[1].split("&")[-1].split("=")[0]
    assert unknown in body["message"]


def test_declared_parameters_are_accepted(anon, club, games):
    ids, _ = games
    for path in [
        "/api/games/?page=1&page_size=2&club=home&ordering=id&format=json",
        f"/api/games/{ids[0]}/events/?after=0&limit=2&wait=0",
        f"/api/games/{ids[0]}/state/?at=1",
        f"/api/games/{ids[0]}/legal/?check=%7B%7D",
        "/api/tournaments/?club=home",
    ]:
        assert anon.get(path).status_code in (200, 403), path  # legal: scorers only, but not a 400


def test_an_unknown_club_is_a_404(anon, games, make_club):
    for query in ("club=nowhere", "club_slug=nowhere", "club=999999"):
        response = anon.get(f"/api/games/?{query}")
        assert (response.status_code, response.json()["code"]) == (404, "not_found"), query
    make_club("secret", visibility="members")
    assert anon.get("/api/games/?club=secret").status_code == 404
    assert anon.get("/api/players/?club=secret").status_code == 404


def test_ids_are_integers_in_the_schema(anon):
    schema = anon.get("/api/schema/?format=json").json()
    params = {p["name"]: p["schema"] for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert params["player"]["type"] == "integer"
    assert params["finished_after"] == {"type": "string", "format": "date-time"}
    assert params["date_after"] == {"type": "string", "format": "date"}
    assert {"ordering", "updated_since", "player_name"} <= set(params) and "date" not in params
