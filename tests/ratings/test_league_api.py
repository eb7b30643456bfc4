"""The league in the API (`/api/clubs/{club}/league/`, `/api/players/{id}/ratings/`) and the
league pages' JSON read with a token: the same figures as the pages, the same visibility."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.authtoken.models import Token

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games.models import Club, Membership
from games.ratings import services
from games.ratings.models import LeagueRules
from games.ratings.systems import SYSTEMS, in_order
from tests.conftest import client_for
from tests.ratings.rules import set_league_rules


@pytest.fixture
def history(db):
    club = Club.objects.create(name="Tuesday", slug="tuesday")
    _, games = synthetic_history(40, 7, seed=3)
    pid = load_history(club, games)
    services.recompute_club(club.pk)
    return club, pid


def _page_json(path: str, token: str | None = None, **query):
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return Client().get(path, query, HTTP_ACCEPT_LANGUAGE="en", **headers)


def test_the_league_api_shows_both_tables_as_the_page_does(history, anon):
    club, _ = history
    body = anon.get(f"/api/clubs/{club.slug}/league/").json()
    page = _page_json(f"/clubs/{club.slug}/league.json").json()
    assert [t["key"] for t in body["tables"]] == ["elo", "predictive"]  # the club leads with Elo (default)
    tables = {t["key"]: t for t in body["tables"]}
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("low", "high")} for r in rows]
    assert strip(tables["predictive"]["rows"]) == page["rows"]
    assert strip(tables["elo"]["rows"]) == page["elo"]["rows"]
    assert tables["elo"]["parameters"] == {
        k: page["elo"][k] for k in ("k", "provisional_k", "provisional_games", "initial")
    }
    assert tables["predictive"]["system"] == page["system"]
    for key in ("games", "rules", "recomputed_at", "reference", "leads_with", "period", "from", "to", "club"):
        assert body[key] == page[key], key
    assert body["games"] == 40
    for t in body["tables"]:
        ranked = [r for r in t["rows"] if r["rank"] is not None]
        assert [r["rank"] for r in ranked] == list(range(1, len(ranked) + 1))
        for r in t["rows"]:
            assert r["low"] == pytest.approx(r["rating"] - 2 * r["rd"])
            assert r["high"] == pytest.approx(r["rating"] + 2 * r["rd"])
    assert all(r["rd"] == 0 for r in tables["elo"]["rows"])
    assert all(r["rd"] > 0 for r in tables["predictive"]["rows"])


def test_the_table_the_club_leads_with_comes_first(history, anon):
    club, _ = history
    set_league_rules(club, leads_with=LeagueRules.LeadsWith.PREDICTIVE)
    body = anon.get(f"/api/clubs/{club.pk}/league/").json()
    assert body["leads_with"] == "predictive"
    assert [t["key"] for t in body["tables"]] == ["predictive", "elo"]


def test_a_period_counts_only_its_games(history, anon):
    club, _ = history
    whole = anon.get(f"/api/clubs/{club.slug}/league/").json()
    first_day = min(r["last_played"] for t in whole["tables"] for r in t["rows"])[:10]
    body = anon.get(f"/api/clubs/{club.slug}/league/", {"to": "1999-01-01"}).json()
    assert (body["period"], body["to"], body["games"]) == ("custom", "1999-01-01", 0)
    assert all(t["rows"] == [] for t in body["tables"])
    assert first_day  # the history's games are all after 1999
    page = _page_json(f"/clubs/{club.slug}/league.json", period="30d").json()
    assert anon.get(f"/api/clubs/{club.slug}/league/", {"period": "30d"}).json()["games"] == page["games"]


@pytest.mark.parametrize(
    "query, code",
    [
        ({"variant": "chess"}, "invalid"),
        ({"period": "week"}, "invalid"),
        ({"from": "2026-02-30"}, "invalid_date"),
        ({"to": "9999-12-31"}, "invalid_date"),
        ({"table": "elo"}, "unknown_parameters"),
    ],
)
def test_a_bad_query_is_a_400_in_words(history, anon, query, code):
    club, pid = history
    player = next(iter(pid.values()))
    with translation.override("en"):
        for path in (f"/api/clubs/{club.slug}/league/", f"/api/players/{player}/ratings/"):
            response = anon.get(path, query)
            assert response.status_code == 400, path
            assert response.json()["code"] == code
            assert response.json()["message"]


def test_a_players_ratings_are_the_player_pages_history(history, anon):
    club, pid = history
    player = next(iter(pid.values()))
    body = anon.get(f"/api/players/{player}/ratings/").json()
    page = _page_json(f"/players/{player}.json").json()
    assert body["history"] == page["history"]
    assert body["history"], "the player has rated games"
    for key in ("rating", "rd", "elo", "games", "wins", "provisional", "ranked", "rank_history", "period"):
        assert body[key] == page[key], key
    last = body["history"][-1]
    assert (body["rating"], body["elo"]) == (last["rating_after"], last["elo_after"])
    league = {t["key"]: t for t in anon.get(f"/api/clubs/{club.slug}/league/").json()["tables"]}
    row = next(r for r in league["elo"]["rows"] if r["player_id"] == player)
    assert row["rating"] == body["elo"] and row["career_games"] == body["games"]


def test_a_player_unknown_or_of_a_hidden_club_is_a_404(history, anon, make_user):
    club, pid = history
    player = next(iter(pid.values()))
    assert anon.get("/api/players/999999/ratings/").status_code == 404
    assert anon.get("/api/clubs/no-such-club/league/").status_code == 404
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.MEMBERS)
    assert anon.get(f"/api/players/{player}/ratings/").status_code == 404


@pytest.fixture
def private_league(history, make_user):
    club, pid = history
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.MEMBERS)
    member, outsider = make_user("member"), make_user("outsider")
    Membership.objects.create(club=club, user=member, role=Membership.Role.VIEWER)
    return club, pid, member, outsider


def test_a_members_only_league_is_read_with_a_members_token_only(private_league, anon):
    club, pid, member, outsider = private_league
    player = next(iter(pid.values()))
    paths = [f"/api/clubs/{club.slug}/league/", f"/api/players/{player}/ratings/"]
    for path in paths:
        assert anon.get(path).status_code == 404
        assert client_for(outsider).get(path).status_code == 404
        assert client_for(member).get(path).status_code == 200
    token = Token.objects.get(user=member).key
    for path in (f"/clubs/{club.slug}/league.json", f"/clubs/{club.slug}/league.csv", f"/players/{player}.json"):
        assert _page_json(path).status_code == 404
        assert _page_json(path, Token.objects.get(user=outsider).key).status_code == 404
        response = _page_json(path, token)
        assert response.status_code == 200, path
        assert "Authorization" in response["Vary"]
    assert _page_json(f"/clubs/{club.slug}/league.json", token).json()["games"] == 40


def test_an_unknown_token_on_a_page_download_is_a_401(history):
    club, _ = history
    response = _page_json(f"/clubs/{club.slug}/league.json", "not-a-token")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert response["WWW-Authenticate"] == "Token"


def test_the_registry_names_the_tables_a_club_may_lead_with():
    assert list(SYSTEMS) == list(LeagueRules.LeadsWith.values)
    assert [s.key for s in in_order("predictive")] == ["predictive", "elo"]
    assert SYSTEMS["elo"].has_deviation is False and SYSTEMS["predictive"].has_deviation is True


def test_the_league_operations_are_in_the_openapi_document(anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    league = schema["paths"]["/api/clubs/{id}/league/"]["get"]
    ratings = schema["paths"]["/api/players/{id}/ratings/"]["get"]
    assert (league["operationId"], ratings["operationId"]) == ("clubs_league_retrieve", "players_ratings_retrieve")
    period = {"variant", "period", "from", "to"}
    paging = {"history", "before", "after", "limit"}  # a player's games come a page at a time
    for op, model, query in ((league, "League", period), (ratings, "PlayerRatings", period | paging)):
        content = op["responses"]["200"]["content"]["application/json"]
        assert content["schema"]["$ref"].endswith(f"/{model}Output")
        assert content["examples"], "an example answer"
        assert {p["name"] for p in op["parameters"] if p["in"] == "query"} == query
