"""Strict event payloads (issue 14, finding 8): an event carries only the fields of its type
(record-format.md section 3), within bounded sizes; anything else is refused with a code and
nothing is stored (the log is append-only: what is stored stays for ever)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from games.engine import random_record
from games.models import Event, Game
from tests.api.helpers import PLAYERS, hand, record

pytestmark = pytest.mark.django_db


def _first_of_each_type() -> dict[str, tuple[list[dict], int]]:
    """A nanking event stream and the index of the first event of each of the 12 types."""
    found: dict[str, tuple[list[dict], int]] = {}
    for options in ({}, {"deal_method": "western"}):
        events = random_record(11, options=options, max_hands=1)["events"]
        for i, event in enumerate(events):
            found.setdefault(event["type"], (events, i))
    found["hand_result"] = ([hand()], 0)
    found["undo"] = ([hand(), {"type": "undo"}], 1)
    found["penalty"] = ([hand(), hand(), {"type": "penalty", "seat": 0, "reason": "missed_wish"}], 2)
    return found


EVENTS = _first_of_each_type()


def new_game(client, club) -> int:
    return client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": PLAYERS}, format="json"
    ).json()["id"]


@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_an_unknown_field_on_any_event_type_is_refused_on_append(scorer_client, club, kind):
    events, index = EVENTS[kind]
    game_id = new_game(scorer_client, club)
    if index:
        # the penalty's stream is not played to its end: the penalty is checked, not applied
        assert (
            scorer_client.post(
                f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": events[:index]}, format="json"
            ).status_code
            == 201
        )
    bad = {**events[index], "comment": "nice play"}
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": index, "events": [bad]}, format="json"
    )
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["code"] == "malformed" and body["index"] == 0 and "comment" in body["message"]
    assert Game.objects.get(pk=game_id).seq == index
    # the payload column is JSON text (games.streams.models.JSONTextField): read, not queried inside
    assert not any("comment" in e.payload for e in Event.objects.filter(game_id=game_id))
    check = scorer_client.get(f"/api/games/{game_id}/legal/?check={quote(json.dumps(bad))}").json()["check"]
    assert check["ok"] is False and check["error"]["code"] == "malformed"


def test_a_two_megabyte_comment_is_not_stored(scorer_client, club):
    game_id = new_game(scorer_client, club)
    bad = {**hand(), "comment": "x" * 2_000_000}
    response = scorer_client.post(
        f"/api/games/{game_id}/events/", {"expected_seq": 0, "events": [hand(), bad]}, format="json"
    )
    assert response.status_code == 422 and response.json()["index"] == 1
    assert not Event.objects.exists()


def test_an_imported_record_with_an_unknown_event_field_is_400_malformed(scorer_client, club):
    bad = record([hand(), {**hand(), "note": 1}])
    response = scorer_client.post(f"/api/games/import/?club={club.pk}", bad, format="json")
    assert response.status_code == 422 or response.status_code == 400
    body = response.json()
    assert body["code"] == "malformed" and "note" in body["message"]
    assert not Game.objects.exists()


def test_the_records_meta_stays_free_form(scorer_client, club):
    """The record's extension point is its top-level `meta` (importers keep provenance there)."""
    response = scorer_client.post(
        f"/api/games/import/?club={club.pk}",
        record([hand()], meta={"source": "club night", "table": {"no": 3}}),
        format="json",
    )
    assert response.status_code == 201, response.content
    assert scorer_client.get(f"/api/games/{response.json()['id']}/record/").json()["meta"]["table"] == {"no": 3}


@pytest.mark.parametrize("name", ["x" * 101, " "])
def test_a_player_name_is_at_most_100_characters(scorer_client, club, name):
    players = ["Ann", "Bob", "Cid", name]
    created = scorer_client.post(
        "/api/games/", {"club": club.pk, "variant": "nanking", "players": players}, format="json"
    )
    assert created.status_code == 400 and created.json()["code"] in ("invalid", "malformed")
    imported = scorer_client.post(
        f"/api/games/import/?club={club.pk}", record([hand()], players=players), format="json"
    )
    assert imported.status_code == 400 and imported.json()["code"] in ("invalid", "malformed")
    assert not Game.objects.exists()
