"""No event, however mangled, makes the API answer 5xx: a field of any JSON value in an append, a
`legal?check` or an import is refused with a coded 4xx (or accepted where the rules allow it).
A smaller sample than the engine's own property tests (tests/engine/test_event_shapes.py)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import random_record
from tests.api.helpers import PLAYERS
from tests.engine.event_fields import FAMILY_FIELDS, JSON_VALUES

pytestmark = pytest.mark.django_db

RECORD = random_record(5, max_hands=1)
PREFIX = 40  # events appended before the fuzzing: the hand is in its play phase
API_SAMPLE = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def mangled(data, index: int) -> dict:
    """The record's event at `index` with one of its type's fields set to an arbitrary value."""
    event = dict(RECORD["events"][index])
    field = data.draw(st.sampled_from(FAMILY_FIELDS[event["type"]] + ["type"]))
    event[field] = data.draw(JSON_VALUES)
    return event


def assert_not_5xx(response) -> None:
    assert response.status_code < 500, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    if response.status_code >= 400:
        assert isinstance(response.json()["code"], str)


@pytest.fixture
def game_at_prefix(scorer_client, club):
    game_id = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS}, format="json"
    ).json()["id"]
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": RECORD["events"][:PREFIX]}, format="json"
    )
    assert response.status_code == 201, response.content
    return game_id


def post_json(client, url: str, body) -> object:
    # json.dumps writes NaN and Infinity as the bare words: the parser must refuse them (400)
    return client.generic("POST", url, json.dumps(body), content_type="application/json")


@API_SAMPLE
@given(offset=st.integers(0, 20), data=st.data())
def test_a_mangled_append_is_never_a_server_error(scorer_client, game_at_prefix, offset, data):
    seq = scorer_client.get(f"/api/games/{game_at_prefix}/").json()["seq"]
    event = mangled(data, min(seq + offset, len(RECORD["events"]) - 1))
    assert_not_5xx(
        post_json(scorer_client, f"/api/games/{game_at_prefix}/events/", {"expected_seq": seq, "events": [event]})
    )


@API_SAMPLE
@given(offset=st.integers(0, 20), data=st.data())
def test_a_mangled_legal_check_is_never_a_server_error(scorer_client, game_at_prefix, offset, data):
    event = mangled(data, PREFIX + offset)
    raw = json.dumps(event)
    assert_not_5xx(scorer_client.get(f"/api/games/{game_at_prefix}/legal/?check={quote(raw)}"))


@API_SAMPLE
@given(index=st.integers(0, len(RECORD["events"]) - 1), data=st.data())
def test_a_mangled_import_is_never_a_server_error(scorer_client, club, index, data):
    events = list(RECORD["events"])
    events[index] = mangled(data, index)
    assert_not_5xx(post_json(scorer_client, f"/api/games/import/?club={club.pk}", {**RECORD, "events": events}))


# --- the probe's cases, on every channel -------------------------------------------------------

FIRST_PLAY = next(i for i, e in enumerate(RECORD["events"]) if i >= PREFIX and e["type"] == "play")


@pytest.mark.parametrize("field", ["phoenix", "wish", "to"])
@pytest.mark.parametrize("value", [[], {}])
def test_a_play_with_a_list_or_object_field_is_a_coded_error_everywhere(scorer_client, club, field, value):
    game_id = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS}, format="json"
    ).json()["id"]
    events = RECORD["events"]
    assert (
        scorer_client.post(
            f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": events[:FIRST_PLAY]}, format="json"
        ).status_code
        == 201
    )
    bad = {**events[FIRST_PLAY], field: value}
    append = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": FIRST_PLAY, "events": [bad]}, format="json"
    )
    assert append.status_code == 422 and append.json()["error"]["code"] == "malformed", append.content
    check = scorer_client.get(f"/api/games/{game_id}/legal/?check={quote(json.dumps(bad))}")
    assert check.status_code == 200 and check.json()["check"]["error"]["code"] == "malformed", check.content
    imported = scorer_client.post(
        f"/api/games/import/?club={club.pk}", {**RECORD, "events": events[:FIRST_PLAY] + [bad]}, format="json"
    )
    assert imported.status_code in (400, 422) and imported.json()["code"] == "malformed", imported.content
