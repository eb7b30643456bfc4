"""Import of aragos/tichu-tournament's tournament JSON: its example tournament (the scores
transcribed in tests/tournament/test_duplicate.py) becomes a duplicate tournament of 7 rounds of
3 boards, and our standings give each pair the matchpoints aragos published."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client

from games.models import Player
from games.tournaments.models import Tournament, TournamentEvent
from tests.tournament.test_duplicate import HANDS, PAIR_MPS


def aragos_example(**change) -> dict:
    hands = [
        {
            "board_no": b,
            "ns_pair": ns,
            "ew_pair": ew,
            "calls": {"north": "", "east": "T", "west": "", "south": ""},
            "ns_score": s_ns,
            "ew_score": s_ew,
        }
        for b, ns, ew, s_ns, s_ew, _, _ in HANDS
    ]
    hands[0]["notes"] = "a note"
    players = [{"pair_no": 1, "name": "Michael", "email": "m@example.invalid"}, {"pair_no": 1, "name": "Nora"}]
    return {"name": "Tournament Name", "no_pairs": 7, "no_boards": 21, "players": players, "hands": hands, **change}


def import_aragos(client, data, **extra):
    return client.post(
        "/api/tournaments/import/", {"club": "home", "format": "aragos", "results": data, **extra}, format="json"
    )


@pytest.mark.django_db
def test_the_example_tournament_gives_aragos_matchpoints(club, scorer_client):
    response = import_aragos(scorer_client, aragos_example())
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.header["system"] == "duplicate" and tournament.header["hands_per_round"] == 3
    assert tournament.status == "finished"
    standings = Client().get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert {row["entry"]: row["vp"] for row in standings} == {f"p{n}": mp for n, mp in PAIR_MPS.items()}
    assert standings[0]["entry"] == "p3", "pair 3 won with 20.5"
    names = {row["entry"]: row["name"] for row in standings}
    assert names["p1"] == "Michael & Nora" and names["p2"] == "Pair 2"
    # what has no place in our events is kept with the tournament, not dropped
    kept = tournament.source["aragos"]
    assert kept["emails"] == {"1": ["m@example.invalid"]} and len(kept["hands"]) == 63
    assert kept["hands"][0]["notes"] == "a note"
    # every board's results and matchpoints on the boards JSON
    boards = Client().get(f"/api/tournaments/{tid}/boards/").json()
    board14 = next(b for r in boards["rounds"] for b in r["boards"] if b["board"] == 14)
    assert sorted(tuple(x["matchpoints"]) for x in board14["results"]) == [(0.5, 1.5), (0.5, 1.5), (2, 0)]


def _bad(**change):
    return aragos_example(**change)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data,code",
    [
        (_bad(hands=aragos_example()["hands"][3:]), "aragos_incomplete"),
        ({**aragos_example(), "no_pairs": "7"}, "malformed"),
        ([1, 2], "malformed"),
    ],
)
def test_unreadable_aragos_files_are_refused_and_nothing_is_stored(club, scorer_client, data, code):
    before = (Tournament.objects.count(), TournamentEvent.objects.count(), Player.objects.count())
    response = import_aragos(scorer_client, data)
    assert response.status_code == 400 and response.json()["code"] == code, response.json()
    assert (Tournament.objects.count(), TournamentEvent.objects.count(), Player.objects.count()) == before


@pytest.mark.django_db
def test_adjustments_map_and_avg_plus_plus_is_refused(club, scorer_client):
    data = aragos_example()
    data["hands"][0].update(ns_score="AVG+", ew_score="AVG-")
    response = import_aragos(scorer_client, data)
    assert response.status_code == 201, response.json()
    boards = Client().get(f"/api/tournaments/{response.json()['id']}/boards/").json()
    board1 = boards["rounds"][0]["boards"][0]["results"]
    adjusted = next(r for r in board1 if r.get("adjustment"))
    assert adjusted["adjustment"] == ["AVG+", "AVG-"] and adjusted["matchpoints"] == [1.2, 0.8]
    data["hands"][0].update(ns_score="AVG++", ew_score="AVG--")
    response = import_aragos(scorer_client, data)
    assert response.status_code == 400 and response.json()["code"] == "aragos_unmappable"


@pytest.mark.django_db
def test_boards_in_other_sets_become_shorter_rounds_and_a_pair_twice_on_a_board_is_refused(club, scorer_client):
    data = aragos_example()
    for h in data["hands"]:  # boards 2 and 4 swap: the sets are no longer three consecutive boards
        h["board_no"] = {2: 4, 4: 2}.get(h["board_no"], h["board_no"])
    response = import_aragos(scorer_client, data)
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    assert Tournament.objects.get(pk=tid).header["hands_per_round"] == 1, "21 rounds of one board"
    standings = Client().get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert {row["entry"]: row["vp"] for row in standings} == {f"p{n}": mp for n, mp in PAIR_MPS.items()}
    data = aragos_example()
    twice = next(h for h in data["hands"] if h["board_no"] == 1 and h["ns_pair"] == 5)
    twice["ew_pair"] = 1  # pair 1 already plays board 1 against pair 7
    response = import_aragos(scorer_client, data)
    assert response.status_code == 400 and response.json()["code"] == "aragos_unmappable", response.json()


@pytest.mark.django_db
def test_the_command_reads_aragos(club, scorer_client, tmp_path, capsys):
    path = tmp_path / "aragos.json"
    path.write_text(json.dumps(aragos_example()))
    call_command("import_tournament", str(path), "--club", "home", "--user", "scorer", "--aragos", "--name", "Cup")
    body = json.loads(capsys.readouterr().out)
    assert Tournament.objects.get(pk=body["id"]).name == "Cup"


@pytest.mark.django_db
def test_an_imported_duplicate_round_trips_through_our_format(club, scorer_client):
    """aragos JSON -> our tournament -> our results format -> a new tournament -> the same JSON
    (matchpoints, adjustments and all)."""
    data = aragos_example()
    data["hands"][0].update(ns_score="AVG+", ew_score="AVG-")
    tid = import_aragos(scorer_client, data).json()["id"]
    first = Client().get(f"/api/tournaments/{tid}/results/").json()
    assert first["event"]["header"]["system"] == "duplicate"
    response = scorer_client.post("/api/tournaments/import/", {"club": "home", "results": first}, format="json")
    assert response.status_code == 201, response.json()
    copy = Tournament.objects.get(pk=response.json()["id"])
    assert copy.board_secret and copy.board_secret != Tournament.objects.get(pk=tid).board_secret
    again = Client().get(f"/api/tournaments/{copy.pk}/results/").json()
    assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)
