"""The card codes are the same on the pages and in the API (issue #16): both read the engine's
words (`ma`, `ph`, `10s`, any case) and store the canonical code; Tien Zi Que's codes stay exact."""

from __future__ import annotations

import json

import pytest

from games import engine
from games.models import Event
from tests.api.test_append import append, create_game

pytestmark = pytest.mark.django_db


def test_typed_words_are_stored_as_card_codes(scorer_client, club):
    game_id = create_game(scorer_client, club)
    assert append(scorer_client, game_id, [{"type": "shuffle", "seat": 0}], expected_seq=0).status_code == 201
    seat = scorer_client.get(f"/api/games/{game_id}/legal/").json()["actions"][0]["seat"]
    check = json.dumps({"type": "draw", "seat": seat, "card": "PH"})
    assert scorer_client.get(f"/api/games/{game_id}/legal/", {"check": check}).json()["check"] == {"ok": True}
    response = append(scorer_client, game_id, [{"type": "draw", "seat": seat, "card": "ma"}], expected_seq=1)
    assert response.status_code == 201, response.json()
    assert Event.objects.get(game_id=game_id, seq=2).as_record_event()["card"] == "Mahjong"


def test_a_word_that_names_no_card_is_refused_as_before(scorer_client, club):
    game_id = create_game(scorer_client, club)
    append(scorer_client, game_id, [{"type": "shuffle", "seat": 0}], expected_seq=0)
    seat = scorer_client.get(f"/api/games/{game_id}/legal/").json()["actions"][0]["seat"]
    response = append(scorer_client, game_id, [{"type": "draw", "seat": seat, "card": "joker"}], expected_seq=1)
    assert response.status_code == 422 and response.json()["error"]["code"] == "unknown_card"


def test_every_tichu_card_has_its_code_and_its_short_words():
    for code in engine.TICHU_DECK:
        assert engine.card_code(code) == code and engine.card_code(code.lower()) == code
    assert {w: engine.card_code(w) for w in ("ma", "1", "do", "ph", "phx", "dr", "drg", "10j", "tJ", " ks ")} == {
        "ma": "Mahjong",
        "1": "Mahjong",
        "do": "Dog",
        "ph": "Phoenix",
        "phx": "Phoenix",
        "dr": "Dragon",
        "drg": "Dragon",
        "10j": "Tj",
        "tJ": "Tj",
        " ks ": "Ks",
    }
    assert engine.card_code("Dr", "tien-zi-que") == "Dr"  # the red Dragon of Tien Zi Que, not the Tichu Dragon
    assert engine.card_code("dr", "tien-zi-que") is None
    assert engine.canonical_event({"type": "push", "seat": 0, "cards": {"1": "ph", "2": "2s", "3": "dr"}}, "nanking")[
        "cards"
    ] == {"1": "Phoenix", "2": "2s", "3": "Dragon"}


def test_an_option_refused_names_the_option_in_its_params(scorer_client, club):
    response = scorer_client.post(
        "/api/games/",
        {"club": club.pk, "variant": "nanking", "players": ["A", "B", "C", "D"], "options": {"hands": 0}},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "malformed"
    assert body["params"] == {
        "option": "hands",
        "value": 0,
        "expected": "null or an integer >= 1",
        "rule": "option_int",
        "minimum": 1,
    }  # the rule and number its words take
