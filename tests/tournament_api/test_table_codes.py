"""Table codes: each table of a published round gets a code that records that table's game, and
nothing else, without an account; it ends when the round closes, or when the TD revokes or
reissues it; every write made with it is recorded as made with it."""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Event
from games.tournaments import table_codes
from games.tournaments.models import TableCode, TableCodeWrite, Tournament
from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs

HAND = {"type": "hand_result", "calls": {}, "out": [0, 1, 2, 3], "points": [70, 30]}


def with_code(code: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"TableCode {code}")
    return client


def published_round(client) -> tuple[int, dict[int, dict]]:
    """A tournament of four pairs with round 1 paired and its games made; table -> {game, code}."""
    tid = create(client)["id"]
    register_pairs(client, tid)
    pair_next_round(client, tid)
    games = client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()
    codes = client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()
    by_table = {g["table"]: {"game": g["game"]} for g in games}
    for row in codes:
        by_table[row["table"]]["code"] = row["printed"]
    return tid, by_table


def post_hand(client, game: int, expected_seq: int = 0, **headers):
    return client.post(f"/api/games/{game}/events/", {"expected_seq": expected_seq, "events": [HAND]},
                       format="json", **headers)


@pytest.mark.django_db
def test_publishing_a_round_gives_each_table_a_code(club, scorer_client):
    tid, tables = published_round(scorer_client)
    assert sorted(tables) == [1, 2]
    codes = [t["code"] for t in tables.values()]
    assert len(set(codes)) == 2
    for code in codes:
        assert len(code) == 9 and code[4] == "-"
        assert table_codes.normalise(code) is not None
        assert not set(code.replace("-", "")) & set("0O1IL5S2Z8B"), "no look-alike characters"
    again = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/")
    assert again.status_code == 201
    assert {r["printed"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()} == set(codes), \
        "making the games again keeps the live codes"


@pytest.mark.django_db
def test_a_code_records_its_own_game_and_the_write_names_it(club, scorer_client):
    tid, tables = published_round(scorer_client)
    code, game = tables[1]["code"], tables[1]["game"]
    response = post_hand(with_code(code.lower().replace("-", "")), game)  # typed loosely
    assert response.status_code == 201, response.json()
    event = Event.objects.get(game_id=game, seq=1)
    assert event.recorded_by_id is None
    write = TableCodeWrite.objects.get(game_id=game)
    assert (write.first_seq, write.last_seq) == (1, 1)
    assert write.code.code == table_codes.normalise(code)
    assert (write.code.round, write.code.table) == (1, 1)
    # a write by the TD's own account is not attributed to a code
    assert post_hand(scorer_client, tables[2]["game"]).status_code == 201
    assert not TableCodeWrite.objects.filter(game_id=tables[2]["game"]).exists()


@pytest.mark.django_db
def test_a_code_cannot_write_another_game_or_anything_else(club, scorer_client):
    tid, tables = published_round(scorer_client)
    client = with_code(tables[1]["code"])
    assert post_hand(client, tables[2]["game"]).status_code == 401
    assert client.post(f"/api/tournaments/{tid}/events/",
                       {"expected_seq": 0, "events": [{"type": "round_closed", "round": 1}]},
                       format="json").status_code == 401
    assert client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 401
    assert client.get(f"/api/tournaments/{tid}/rounds/1/codes/").status_code == 401
    assert client.post("/api/games/", {"club": "home", "variant": "nanking", "players": ["a", "b", "c", "d"]},
                       format="json").status_code == 401
    assert Event.objects.filter(game_id=tables[2]["game"]).count() == 0
    assert with_code("ACDE-FGHJ").get(f"/api/games/{tables[1]['game']}/").status_code == 401, "unknown code"
    assert with_code("not a code").get(f"/api/games/{tables[1]['game']}/").status_code == 401


@pytest.mark.django_db
def test_a_code_ends_when_its_round_closes(club, scorer_client):
    tid, tables = published_round(scorer_client)
    for number, table in tables.items():
        assert post_hand(scorer_client, table["game"]).status_code == 201
        response = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/tables/{number}/result-from-game/", {},
                                      format="json")
        assert response.status_code == 201
    seq = Tournament.objects.get(pk=tid).seq
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq).status_code == 201
    assert post_hand(with_code(tables[1]["code"]), tables[1]["game"], expected_seq=1).status_code == 401
    assert set(TableCode.objects.filter(tournament_id=tid).values_list("end_reason", flat=True)) == {"round_closed"}
    assert scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json() == []


@pytest.mark.django_db
def test_the_td_revokes_and_reissues_a_code(club, scorer_client):
    tid, tables = published_round(scorer_client)
    old = tables[1]["code"]
    response = scorer_client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/code/")
    assert response.status_code == 201
    new = response.json()["printed"]
    assert new != old
    assert post_hand(with_code(old), tables[1]["game"]).status_code == 401, "a reissued code stops working"
    assert post_hand(with_code(new), tables[1]["game"]).status_code == 201
    assert scorer_client.delete(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 204
    assert post_hand(with_code(new), tables[1]["game"], expected_seq=1).status_code == 401, "revoked"
    assert [r["table"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()] == [2]
    assert scorer_client.post(f"/api/tournaments/{tid}/rounds/1/tables/9/code/").json()["code"] == "table_not_found"


@pytest.mark.django_db
def test_only_the_clubs_scorers_see_and_change_codes(club, scorer_client, make_user, anon):
    tid, _tables = published_round(scorer_client)
    from tests.conftest import client_for

    outsider = client_for(make_user("outsider"))
    assert outsider.get(f"/api/tournaments/{tid}/rounds/1/codes/").status_code == 403
    assert outsider.post(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 403
    assert anon.get(f"/api/tournaments/{tid}/rounds/1/codes/").status_code in (401, 403)


@pytest.mark.django_db
def test_a_code_holders_idempotency_key_replays(club, scorer_client):
    tid, tables = published_round(scorer_client)
    client = with_code(tables[1]["code"])
    first = post_hand(client, tables[1]["game"], HTTP_IDEMPOTENCY_KEY="hand-1")
    again = post_hand(client, tables[1]["game"], HTTP_IDEMPOTENCY_KEY="hand-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Event.objects.filter(game_id=tables[1]["game"]).count() == 1
    assert TableCodeWrite.objects.filter(game_id=tables[1]["game"]).count() == 1


@pytest.mark.django_db
def test_the_code_page_opens_the_tables_entry_and_nothing_else(club, scorer_client):
    tid, tables = published_round(scorer_client)
    browser = Client()
    response = browser.get(f"/t/{tables[1]['code'].replace('-', '')}/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{tables[1]['game']}/enter/"
    assert browser.get(response["Location"]).status_code == 200
    assert browser.get(f"/games/{tables[2]['game']}/enter/").status_code == 302, "another game: sign in first"
    assert browser.get(f"/t/{tables[1]['code']}/").status_code == 302
    assert browser.get("/t/ACDEFGHJ/").status_code == 404
    assert browser.get("/t/?code=nonsense").status_code == 200
    scorer_client.delete(f"/api/tournaments/{tid}/rounds/1/tables/1/code/")
    assert browser.get(f"/games/{tables[1]['game']}/enter/").status_code == 302, "revoked: the session's code ends"
