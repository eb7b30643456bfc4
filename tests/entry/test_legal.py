"""GET /api/games/{id}/legal/: the engine's legal actions and the facts of the deal and the
exchange, the penalties the engine accepts now, and ?check= (would the engine accept this now?
nothing stored)."""

from __future__ import annotations

import json

import pytest

from games import engine
from games.models import Event, Game
from games.services import append_events, game_create
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

    body = game_create(
        club=home, variant="tien-zi-que", options=None, players=["Ann", "Bob"], user=users["scorer"]
    ).body
    game = Game.objects.get(pk=body["id"])
    answer = legal(client_for(users["scorer"]), game)
    assert answer["state"]["variant"] == "tien-zi-que"
    assert answer["deal"] is None and answer["pushes"] is None and answer["bombs_out_of_turn"] == {}
    assert answer["penalties"] == []  # no wish in Tien Zi Que: the engine refuses a penalty
    from tests.entry.conftest import browser_client

    assert browser_client(users["scorer"]).get(f"/games/{game.pk}/enter/").status_code == 200


def missed_wish(seat: int) -> dict:
    return {"type": "penalty", "seat": seat, "reason": "missed_wish"}


def test_penalties_are_offered_in_the_play_of_a_hand_only(users, game):
    """Along a bot game's first hand: no penalty between hands, in the deal or in the exchange;
    a missed wish by any seat while the hand is played (and while a Dragon trick waits to be given,
    as the engine has it), a wish pending or not. `actions` never lists them."""
    record = engine.random_game(3)
    client = client_for(users["scorer"])
    hand_end = [i for i, e in enumerate(record["events"]) if e["type"] == "shuffle"][1]
    assert legal(client, game)["penalties"] == []  # between hands
    seen = set()
    for seq, event in enumerate(record["events"][:hand_end], start=1):
        append_events(game=game, events=[event], expected_seq=seq - 1, user=users["scorer"])
        body = legal(client, game)
        seen.add((body["phase"], body["state"].get("wish") is not None))
        if body["phase"] in ("play", "dragon_gift"):
            assert body["penalties"] == [missed_wish(s) for s in range(4)], seq
        else:
            assert body["penalties"] == [], (seq, body["phase"])
        assert not any(a["type"] == "penalty" for a in body["actions"])
    # the hand went through every phase, and was played with a wish pending and without
    assert {"deal", "exchange", "play", "dragon_gift"} <= {phase for phase, _ in seen}
    assert ("play", True) in seen and ("play", False) in seen


def test_an_offered_penalty_is_accepted_and_ends_the_hand(users, game):
    """At the bot hand's pending wish (an 8, the seat to play holding two): the offered event
    appended as it is ends the hand with the engine's penalty line; then none is offered."""
    events = engine.random_game(3)["events"]
    wished = next(i for i, e in enumerate(events) if e.get("wish")) + 1
    append_events(game=game, events=events[:wished], expected_seq=0, user=users["scorer"])
    client = client_for(users["scorer"])
    body = legal(client, game)
    assert body["phase"] == "play" and body["state"]["wish"] == "8"
    offered = body["penalties"][body["turn"]]
    assert offered == missed_wish(body["turn"])
    append_events(game=game, events=[offered], expected_seq=wished, user=users["scorer"])
    after = legal(client, game)
    assert after["phase"] == "between_hands" and after["penalties"] == []
    line = after["state"]["score_sheet"][-1]
    assert line["kind"] == "penalty" and line["penalty"] == {"seat": body["turn"], "reason": "missed_wish"}
    offender_team = next(i for i, team in enumerate(after["state"]["teams"]) if body["turn"] in team)
    assert line["card_points"][offender_team] == 0 and line["card_points"][1 - offender_team] == 200


def test_no_penalty_in_a_variant_without_a_wish(users, home):
    """Grand Seigneur has no wish: in its play the engine accepts no penalty."""
    players = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    body = game_create(club=home, variant="grand-seigneur", options=None, players=players, user=users["scorer"]).body
    gs = Game.objects.get(pk=body["id"])
    events = engine.random_game(3, variant="grand-seigneur", players=players)["events"]
    state = engine.new_game("grand-seigneur", None, players)
    for seq, event in enumerate(events, start=1):  # noqa: B007 - seq is read after the loop
        state.apply(event)
        if state.phase == "play":
            break
    append_events(game=gs, events=events[:seq], expected_seq=0, user=users["scorer"])
    answer = legal(client_for(users["scorer"]), gs)
    assert answer["phase"] == "play" and answer["actions"]
    assert answer["penalties"] == []
