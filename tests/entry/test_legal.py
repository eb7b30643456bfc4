"""GET /api/games/{id}/legal/: the engine's legal actions and the facts of the deal and the
exchange, and ?check= (would the engine accept this now? nothing stored)."""
from __future__ import annotations

import json

import pytest

from games import engine
from games.models import Event
from games.services import append_events
from tests.conftest import client_for
from tests.entry.conftest import PLAYERS

pytestmark = pytest.mark.django_db

HAND = {"type": "hand_result", "calls": {"0": "tichu"}, "out": [0, 1, 2, 3], "points": [60, 40]}


def legal(client, game, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    response = client.get(f"/api/games/{game.pk}/legal/" + (f"?{query}" if query else ""))
    assert response.status_code == 200, response.content
    return response.json()


def test_between_hands_offers_the_shuffles_and_the_state(users, game):
    body = legal(client_for(users["scorer"]), game)
    assert body["seq"] == 0 and body["phase"] == "between_hands"
    assert body["actions"] == engine.legal_actions(engine.new_game("nanking", None, PLAYERS))
    assert body["state"]["players"] == PLAYERS
    assert body["can_undo"] is False and body["deal"] is None and body["pushes"] is None


def test_check_answers_without_storing(users, game):
    client = client_for(users["scorer"])
    ok = legal(client, game, check=json.dumps(HAND))
    assert ok["check"] == {"ok": True}
    bad = legal(client, game, check=json.dumps({**HAND, "points": [55, 40]}))
    assert bad["check"]["ok"] is False and bad["check"]["error"]["code"] == "result_invalid"
    assert "sum to 100" in bad["check"]["error"]["message"]
    assert not Event.objects.filter(game=game).exists()
    assert client.get(f"/api/games/{game.pk}/legal/?check=nope").status_code == 400


def test_every_position_of_a_played_hand_matches_the_engine(users, game):
    """Along a bot game's first hand: the actions, the bombs, the pile and the pushes are the
    engine's own answers at that point."""
    record = engine.random_game(3)
    client = client_for(users["scorer"])
    state = engine.new_game("nanking", None, PLAYERS)
    hand_end = [i for i, e in enumerate(record["events"]) if e["type"] == "shuffle"][1]
    seq = 0
    for event in record["events"][:hand_end]:
        append_events(game=game, events=[event], expected_seq=seq, user=users["scorer"])
        state.apply(event)
        seq += 1
        if seq % 7 and state.phase not in ("exchange", "dragon_gift"):
            continue
        body = legal(client, game)
        bombs = engine.bombs_out_of_turn(state)
        flat = [b for seat in bombs.values() for b in seat]
        assert body["seq"] == seq
        assert body["actions"] == [a for a in engine.legal_actions(state, include_pushes=False) if a not in flat]
        assert body["bombs_out_of_turn"] == {str(s): v for s, v in bombs.items()}
        assert body["state"] == engine.state_json(state)
        if state.phase == "deal":
            assert sorted(body["deal"]["pile"]) == sorted(a["card"] for a in body["actions"] if a["type"] == "draw")
            assert sum(body["deal"]["remaining"].values()) == len(body["deal"]["pile"])
        if state.phase == "exchange":
            assert all(body["pushes"][s] == {str(t): 1 for t in range(4) if str(t) != s} for s in body["pushes"])
        assert body["can_undo"] is True


def test_can_undo_follows_the_engine(users, game):
    client = client_for(users["scorer"])
    append_events(game=game, events=[HAND], expected_seq=0, user=users["scorer"])
    assert legal(client, game)["can_undo"] is True
    append_events(game=game, events=[{"type": "undo"}], expected_seq=1, user=users["scorer"])
    body = legal(client, game)
    assert body["can_undo"] is False and body["state"]["score_sheet"] == []


def test_a_game_with_rules_of_its_own_answers_with_its_own_list(users, home):
    """Tien Zi Que: the state and the engine's own legal list; no deal or exchange facts."""
    from games.models import Game
    from games.services import game_create

    body = game_create(club=home, variant="tien-zi-que", options=None, players=["Ann", "Bob"], user=users["scorer"]).body
    game = Game.objects.get(pk=body["id"])
    answer = legal(client_for(users["scorer"]), game)
    assert answer["state"]["variant"] == "tien-zi-que"
    assert answer["deal"] is None and answer["pushes"] is None and answer["bombs_out_of_turn"] == {}
    from tests.entry.conftest import browser_client

    assert browser_client(users["scorer"]).get(f"/games/{game.pk}/enter/").status_code == 200
