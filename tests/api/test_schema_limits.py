"""The OpenAPI document is exactly as strict as the server about the query integers (`after`,
`at`, `limit`, `wait`) and the Idempotency-Key header (games/api/limits.py, one home for both):
the schema's bounds are read from the served document, and the server accepts the values at
those bounds and refuses the values just outside them with a coded 400."""

from __future__ import annotations

import re

import pytest

from games.models import Player
from tests.api.helpers import PLAYERS
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

UINT_PARAMETERS = {"after", "at", "limit", "wait"}


@pytest.fixture
def schema(anon):
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def parameters(schema: dict, name: str, location: str) -> dict[tuple[str, str], dict]:
    """Every operation's parameter `name` in `location`: {(path, method): its schema}."""
    found = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter["name"] == name and parameter["in"] == location:
                    found[path, method] = parameter["schema"]
    return found


def test_the_schema_bounds_every_query_integer_as_the_server_does(schema):
    found = {name: parameters(schema, name, "query") for name in UINT_PARAMETERS}
    # the game's and the tournament's events and states (the tournament's `at` on each of its views),
    # the club's feed, and a player's rating history's pages (its cursors)
    assert {path for path, _ in found["after"]} == {
        "/api/games/{id}/events/",
        "/api/tournaments/{id}/events/",
        "/api/clubs/{id}/feed/",
        "/api/players/{id}/ratings/",
    }
    assert {"/api/games/{id}/state/", "/api/tournaments/{id}/standings/"} <= {path for path, _ in found["at"]}
    found["before"] = parameters(schema, "before", "query")
    assert set(found["before"]) == {("/api/players/{id}/ratings/", "get")}
    for name, where in found.items():
        assert where, name
        for (path, method), said in where.items():
            if (name, path) == ("limit", "/api/players/{id}/ratings/"):  # a page of a history: its own bound
                assert said == {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}
                continue
            assert said == {"type": "integer", "minimum": 0, "maximum": 999_999_999}, (name, path, method)


def test_the_schema_bounds_the_idempotency_key_as_the_server_does(schema):
    where = parameters(schema, "Idempotency-Key", "header")
    assert {
        ("/api/games/", "post"),
        ("/api/games/{id}/events/", "post"),
        ("/api/games/import/", "post"),
        ("/api/tournaments/", "post"),
        ("/api/tournaments/{id}/events/", "post"),
    } <= set(where)
    for said in where.values():
        assert said["type"] == "string" and said["minLength"] == 1 and said["maxLength"] == 255
        pattern = re.compile(said["pattern"])
        assert pattern.search("k" * 255) and pattern.search("!~a-Z_0") and not pattern.search("k" * 256)
        for outside in (" ", "\x7f", "é", "a b", "\t"):
            assert not pattern.search(f"key{outside}"), repr(outside)


@pytest.fixture
def ids(scorer, club):
    """A game and a tournament, without events, which the scorer may read and write."""
    client = client_for(scorer)
    game = client.post("/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS}, format="json")
    tournament = client.post(
        "/api/tournaments/",
        {
            "club": club.pk,
            "name": "T",
            "header": {
                "entrants": "pairs",
                "system": "swiss",
                "scoring": "round_vp",
                "rounds": 2,
                "hands_per_round": 1,
            },
        },
        format="json",
    )
    assert game.status_code == tournament.status_code == 201
    player = Player.objects.get(club=club, name=PLAYERS[0]).pk
    return {"game": game.json()["id"], "tournament": tournament.json()["id"], "player": player}


@pytest.mark.parametrize(
    "url, name",
    [
        ("/api/games/{game}/events/", "after"),
        ("/api/games/{game}/events/", "limit"),
        ("/api/games/{game}/events/", "wait"),
        ("/api/games/{game}/state/", "at"),
        ("/api/tournaments/{tournament}/events/", "after"),
        ("/api/tournaments/{tournament}/standings/", "at"),
        ("/api/players/{player}/ratings/", "before"),
        ("/api/players/{player}/ratings/", "after"),
        ("/api/players/{player}/ratings/", "limit"),
    ],
)
def test_the_server_refuses_a_query_integer_outside_the_schemas_bounds(schema, scorer_client, ids, url, name):
    url = url.format(**ids)
    path = re.sub(r"/\d+/", "/{id}/", url)
    said = parameters(schema, name, "query")[path, "get"]
    low, high = said["minimum"], said["maximum"]
    assert scorer_client.get(f"{url}?{name}={low}").status_code == 200
    if name != "at":  # `at` past the last event is out_of_range, a bound the schema cannot know
        assert scorer_client.get(f"{url}?{name}={high if name != 'wait' else low}").status_code == 200
    for outside in (low - 1, high + 1, "1.0", "+1", " 1", "1\n", "", "x"):
        response = scorer_client.get(url, {name: str(outside)})
        assert response.status_code == 400, (outside, response.content)
        assert response.json()["code"] == "invalid", outside


@pytest.mark.parametrize("url", ["/api/games/{game}/events/", "/api/tournaments/{tournament}/events/"])
def test_the_server_refuses_an_idempotency_key_outside_the_schemas_bounds(schema, scorer_client, ids, url):
    url = url.format(**ids)
    said = parameters(schema, "Idempotency-Key", "header")[re.sub(r"/\d+/", "/{id}/", url), "post"]
    longest = "k" * said["maxLength"]
    body = {
        "expected_seq": 0,
        "events": [{"type": "shuffle", "seat": 0}]
        if "games" in url
        else [{"type": "entry_registered", "entry": "e0", "players": ["Anna", "Ben"]}],
    }
    for outside in (longest + "k", "", "a key", "key\x7f"):
        assert not re.search(said["pattern"], outside) or not said["minLength"] <= len(outside) <= said["maxLength"]
        response = scorer_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=outside)
        assert response.status_code == 400, (outside, response.content)
        assert response.json()["code"] == "invalid_idempotency_key", outside
    assert re.search(said["pattern"], longest)
    accepted = scorer_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=longest)
    assert accepted.status_code == 201, accepted.content
