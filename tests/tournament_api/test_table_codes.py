"""Table codes: each table gets a code for the evening (one card) that records that table's current
game, and nothing else, without an account; it ends when the tournament finishes, or when the TD
revokes or reissues it; every write made with it is recorded as made with it."""

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
        by_table[row["table"]]["pins"] = row["pins"]  # each side's PIN: ns, ew
    return tid, by_table


def post_hand(client, game: int, expected_seq: int = 0, **headers):
    return client.post(
        f"/api/games/{game}/events/", {"expected_seq": expected_seq, "events": [HAND]}, format="json", **headers
    )


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
    assert {r["printed"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json()} == set(codes), (
        "making the games again keeps the live codes"
    )


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
    assert (
        client.post(
            f"/api/tournaments/{tid}/events/",
            {"expected_seq": 0, "events": [{"type": "round_closed", "round": 1}]},
            format="json",
        ).status_code
        == 401
    )
    assert client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/code/").status_code == 401
    assert client.get(f"/api/tournaments/{tid}/rounds/1/codes/").status_code == 401
    assert (
        client.post(
            "/api/games/", {"club": "home", "variant": "nanking", "players": ["a", "b", "c", "d"]}, format="json"
        ).status_code
        == 401
    )
    assert Event.objects.filter(game_id=tables[2]["game"]).count() == 0
    assert with_code("ACDE-FGHJ").get(f"/api/games/{tables[1]['game']}/").status_code == 401, "unknown code"
    assert with_code("not a code").get(f"/api/games/{tables[1]['game']}/").status_code == 401


def results_from_games(client, tid: int, round_number: int, tables: dict[int, dict]) -> None:
    for number, table in tables.items():
        assert post_hand(client, table["game"]).status_code == 201
        response = client.post(
            f"/api/tournaments/{tid}/rounds/{round_number}/tables/{number}/result-from-game/", {}, format="json"
        )
        assert response.status_code == 201


@pytest.mark.django_db
def test_a_tables_code_is_its_card_for_the_evening(club, scorer_client):
    tid, tables = published_round(scorer_client)
    results_from_games(scorer_client, tid, 1, tables)
    seq = Tournament.objects.get(pk=tid).seq
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq).status_code == 201
    code = tables[1]["code"]
    refused = post_hand(with_code(code), tables[1]["game"], expected_seq=1)
    assert refused.json()["code"] == "result_sent", "the closed round's game no longer changes with the code"
    assert scorer_client.get(f"/api/tournaments/{tid}/rounds/1/codes/").json() != [], "the code outlives its round"

    pair_next_round(scorer_client, tid)
    games = {g["table"]: g["game"] for g in scorer_client.post(f"/api/tournaments/{tid}/rounds/2/games/").json()}
    codes = {r["table"]: r["printed"] for r in scorer_client.get(f"/api/tournaments/{tid}/rounds/2/codes/").json()}
    assert codes == {n: t["code"] for n, t in tables.items()}, "round 2 is played with round 1's cards"
    assert post_hand(with_code(code), games[1]).status_code == 201, "the card opens the table's new game"
    assert post_hand(with_code(code), tables[1]["game"], expected_seq=1).status_code == 401, "not the old one"
    assert post_hand(with_code(code), games[2]).status_code == 401, "nor another table's"
    assert TableCodeWrite.objects.get(game_id=games[1]).code.code == table_codes.normalise(code)

    results_from_games(scorer_client, tid, 2, {2: {"game": games[2]}})
    assert (
        scorer_client.post(f"/api/tournaments/{tid}/rounds/2/tables/1/result-from-game/", {}, format="json").status_code
        == 201
    )
    seq = Tournament.objects.get(pk=tid).seq
    assert (
        append(
            scorer_client, tid, [{"type": "round_closed", "round": 2}, {"type": "tournament_finished"}], seq
        ).status_code
        == 201
    )
    assert post_hand(with_code(code), games[1], expected_seq=1).status_code == 401, "the finish ends the cards"
    assert set(TableCode.objects.filter(tournament_id=tid).values_list("end_reason", flat=True)) == {"finished"}


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


def finish_table(client, game: int) -> None:
    """One hand a round (the header's hands_per_round): the game is over after it."""
    response = post_hand(client, game)
    assert response.status_code == 201 and response.json()["status"] == "finished", response.json()


@pytest.mark.django_db
def test_the_table_records_its_result_and_the_other_side_confirms_with_the_code(club, scorer_client):
    from games.tournaments.models import TournamentEvent

    tid, tables = published_round(scorer_client)
    client, game = with_code(tables[1]["code"]), tables[1]["game"]
    url = f"/api/games/{game}/tournament-table/"
    ns, ew = tables[1]["pins"]["ns"], tables[1]["pins"]["ew"]
    assert client.post(url, {"action": "record", "pin": ns}, format="json").json()["code"] == "game_not_finished"
    finish_table(client, game)
    assert client.get(url).json()["confirmation"] is None
    assert client.post(url, {"action": "record", "pin": ns}, format="json").status_code == 201
    assert client.post(url, {"action": "record", "pin": ns}, format="json").json()["code"] == "result_exists"
    view = client.get(url).json()
    assert (view["score"], view["confirmation"], view["sent_by_side"]) == ([70, 30], "unconfirmed", 0)
    assert client.post(url, {"action": "confirm", "pin": ew}, format="json").status_code == 201
    assert (
        client.post(url, {"action": "dispute", "reason": "no", "pin": ew}, format="json").json()["code"]
        == "result_confirmed"
    )
    assert client.get(url).json()["confirmation"] == "confirmed"
    written = TournamentEvent.objects.filter(tournament_id=tid, type__in=["result_recorded", "result_confirmed"])
    assert written.count() == 2
    assert all(
        e.recorded_by_id is None and e.table_code.code == table_codes.normalise(tables[1]["code"]) for e in written
    ), "the writes name the code"
    # the code cannot answer for the other table, even through this endpoint
    assert client.get(f"/api/games/{tables[2]['game']}/tournament-table/").status_code == 401
    # the TD's correction still changes a confirmed result
    response = scorer_client.post(
        f"/api/tournaments/{tid}/rounds/1/tables/1/result-from-game/", {"reason": "checked the sheet"}, format="json"
    )
    assert response.status_code == 201
    assert client.get(url).json()["confirmation"] == "corrected"


@pytest.mark.django_db
def test_a_dispute_is_shown_to_the_td_and_holds_the_round(club, scorer_client):
    tid, tables = published_round(scorer_client)
    for table in tables.values():
        client = with_code(table["code"])
        finish_table(client, table["game"])
        assert (
            client.post(
                f"/api/games/{table['game']}/tournament-table/",
                {"action": "record", "pin": table["pins"]["ns"]},
                format="json",
            ).status_code
            == 201
        )
    url = f"/api/games/{tables[2]['game']}/tournament-table/"
    ew = tables[2]["pins"]["ew"]
    assert (
        with_code(tables[2]["code"]).post(url, {"action": "dispute", "pin": ew}, format="json").json()["code"]
        == "reason_required"
    )
    assert (
        with_code(tables[2]["code"])
        .post(url, {"action": "dispute", "reason": "hand 1 was 60:40", "pin": ew}, format="json")
        .status_code
        == 201
    )
    seq = Tournament.objects.get(pk=tid).seq
    response = append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq)
    assert response.status_code == 422 and response.json()["code"] == "results_disputed"
    response = scorer_client.post(
        f"/api/tournaments/{tid}/rounds/1/tables/2/result-from-game/", {"reason": "looked at hand 1"}, format="json"
    )
    assert response.status_code == 201, "the TD's correction settles the dispute"
    assert append(scorer_client, tid, [{"type": "round_closed", "round": 1}], seq + 1).status_code == 201


@pytest.mark.django_db
def test_the_phone_sends_the_result_and_the_other_side_confirms_on_it(club, scorer_client, scorer):
    tid, tables = published_round(scorer_client)
    game = tables[1]["game"]
    phone = Client()
    assert phone.get(f"/t/{tables[1]['code']}/")["Location"] == f"/games/{game}/enter/"
    finish_table(with_code(tables[1]["code"]), game)
    assert phone.get(f"/t/{tables[1]['code']}/")["Location"] == f"/games/{game}/enter/result/", (
        "a finished game's code opens the result"
    )
    page = phone.get(f"/games/{game}/enter/result/").content.decode()
    assert 'id="send-result"' in page and 'id="send-pin"' in page
    phone.post(f"/games/{game}/enter/result/", {"action": "record", "pin": tables[1]["pins"]["ew"]})
    page = phone.get(f"/games/{game}/enter/result/").content.decode()
    assert 'id="confirm-result"' in page and ">70<" in page and ">30<" in page
    assert "North/South" in page.split('id="answer-side"')[1].split("</p>")[0], "the other side is named"
    phone.post(
        f"/games/{game}/enter/result/",
        {"action": "dispute", "reason": "hand 1 was 60:40", "pin": tables[1]["pins"]["ns"]},
    )
    assert 'data-confirmation="disputed"' in phone.get(f"/games/{game}/enter/result/").content.decode()
    assert phone.get(f"/games/{tables[2]['game']}/enter/result/").status_code == 302, "another table: sign in"

    td = Client()
    td.force_login(scorer)
    page = td.get(f"/tournaments/{tid}/").content.decode()
    assert 'id="disputed"' in page and "hand 1 was 60:40" in page
    assert f'href="/games/{game}/replay/"' in page.split('id="disputed"')[1].split("</p>")[0], (
        "from the dispute straight to the hands"
    )
    assert 'data-confirmation="disputed"' in page


@pytest.mark.django_db
def test_a_tables_game_feeds_the_clubs_ratings_like_any_other(club, scorer_client, django_capture_on_commit_callbacks):
    from games.ratings.models import RatingChange

    _tid, tables = published_round(scorer_client)
    game = tables[1]["game"]
    with django_capture_on_commit_callbacks(execute=True):
        finish_table(with_code(tables[1]["code"]), game)
    changes = RatingChange.objects.filter(game_id=game)
    assert changes.count() == 4, "the four players of the table are rated"
    assert {c.side for c in changes} == {0, 1}
    assert sorted(c.score for c in changes) == [0, 0, 1, 1], "North/South won 70:30"


@pytest.mark.django_db
@pytest.mark.parametrize("game", [2**63, 10**23])
def test_a_game_id_past_the_databases_range_is_no_table_not_a_server_error(scorer_client, game):
    """The id is a path's integer, any length; past the id column's range it names no game (the
    driver would refuse it in the table's lookup: a 500 on SQLite, found by fuzzing)."""
    url = f"/api/games/{game}/tournament-table/"
    for response in (scorer_client.get(url), scorer_client.post(url, {"action": "confirm"}, format="json")):
        assert response.status_code == 404, response.content
        assert response.json()["code"] == "not_found"
