"""Duplicate Tichu in the tables' games: a duplicate tournament pairs its rounds from the
movement, every table's game is dealt the round's boards (the same cards to the same seats at
every table), the next board only once the hand is over, and the board results are scored by
matchpoints."""

from __future__ import annotations

import pytest

from games import engine
from games.models import Event
from games.tournament import board_packets
from games.tournaments.models import Tournament
from tests.tournament_api.test_api import create, pair_next_round, register_pairs
from tests.tournament_api.test_table_codes import with_code

HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 2}


def deals(game: int) -> dict[int, list[str]]:
    """seat -> cards of the last board dealt to the game."""
    events = [
        e.as_record_event() if hasattr(e, "as_record_event") else {"type": e.type, **e.payload}
        for e in Event.objects.filter(game_id=game).order_by("seq")
    ]
    out = {}
    for e in events:
        if e["type"] == "deal":
            out[e["seat"]] = e["cards"]
    return out


def play_out_hand(client, game: int) -> None:
    """Play the game's current hand to its end with the first legal action each time."""
    record = client.get(f"/api/games/{game}/record/").json()
    state = engine.fold(record)
    start = len(record["events"])
    events = []
    hands = len(state.history)
    while len(state.history) == hands and not state.over:
        action = engine.legal_actions(state)[0]
        state.apply(action)
        events.append(action)
    response = client.post(f"/api/games/{game}/events/", {"expected_seq": start, "events": events}, format="json")
    assert response.status_code == 201, response.json()


@pytest.mark.django_db
def test_tables_are_dealt_the_rounds_boards_alike(club, scorer_client):
    tid = create(scorer_client, header=HEADER)["id"]
    assert Tournament.objects.get(pk=tid).board_secret, "a duplicate tournament draws a secret for its boards"
    assert "board_secret" not in scorer_client.get(f"/api/tournaments/{tid}/").json()
    register_pairs(scorer_client, tid)
    paired = pair_next_round(scorer_client, tid)
    assert paired["explanation"]["boards"] == [1, 2]
    games = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()
    assert len(games) == 2
    first = [deals(g["game"]) for g in games]
    assert first[0] == first[1] and sorted(len(c) for c in first[0].values()) == [14] * 4, "board 1 everywhere"
    codes = {r["table"]: r["printed"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()}
    game = games[0]["game"]
    refused = with_code(codes[games[0]["table"]]).post(
        f"/api/games/{game}/tournament-table/", {"action": "deal"}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "not_at_hand_start"
    for g in games:
        play_out_hand(scorer_client, g["game"])
        response = with_code(codes[g["table"]]).post(
            f"/api/games/{g['game']}/tournament-table/", {"action": "deal"}, format="json"
        )
        assert response.status_code == 201 and response.json()["board"] == 2, response.json()
    second = [deals(g["game"]) for g in games]
    assert second[0] == second[1] != first[0], "board 2: another deal, the same at both tables"
    for g in games:
        play_out_hand(scorer_client, g["game"])
        again = scorer_client.post(f"/api/games/{g['game']}/tournament-table/", {"action": "deal"}, format="json")
        assert again.status_code == 400 and again.json()["code"] in ("boards_dealt", "not_at_hand_start")
        assert (
            scorer_client.post(
                f"/api/tournaments/{tid}/rounds/1/tables/{g['table']}/result-from-game/", {}, format="json"
            ).status_code
            == 201
        )
    boards = scorer_client.get(f"/api/tournaments/{tid}/boards/").json()["rounds"][0]["boards"]
    assert [b["board"] for b in boards] == [1, 2]
    for board in boards:
        assert sum(sum(r["matchpoints"]) for r in board["results"]) == 2, "top 1, two tables"
    standings = scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert sum(r["vp"] for r in standings) == 4


@pytest.mark.django_db
def test_grand_tichu_is_off_in_a_duplicate_tables_game(club, scorer_client):
    tid = create(scorer_client, header=HEADER)["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    game = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()[0]["game"]
    record = scorer_client.get(f"/api/games/{game}/record/").json()
    assert record["options"]["grand_tichu"] is False
    on = create(scorer_client, header={**HEADER, "grand_tichu": True})["id"]
    register_pairs(scorer_client, on)
    pair_next_round(scorer_client, on)
    game = scorer_client.post(f"/api/tournaments/{on}/rounds/1/games/").json()[0]["game"]
    assert scorer_client.get(f"/api/games/{game}/record/").json()["options"]["grand_tichu"] is True
    # a table scored at the table is dealt the whole board at once, as its two packets: the first
    # eight cards a seat (the same at every table, board_packets), then the last six
    secret = Tournament.objects.get(pk=on).board_secret
    dealt = [e.payload for e in Event.objects.filter(game_id=game, type="deal").order_by("seq")]
    assert [(d["seat"], sorted(d["cards"])) for d in dealt] == [
        (s, first) for s, (first, _) in enumerate(board_packets(1, secret))
    ] + [(s, last) for s, (_, last) in enumerate(board_packets(1, secret))]


@pytest.mark.django_db
def test_boards_are_not_dealt_outside_duplicate(club, scorer_client):
    tid = create(scorer_client)["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    game = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()[0]["game"]
    assert not deals(game)
    response = scorer_client.post(f"/api/games/{game}/tournament-table/", {"action": "deal"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "not_duplicate"
