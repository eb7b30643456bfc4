"""One source (issue 31, item 1): a table that has a game has that game's result, folded, on every
channel; a correction of such a table is an event on the game (`hand_corrected`), and the
opponents are asked again; a table without a game is corrected on the tournament's stream.

The probe: "Correct this result" changed the tournament to 440:260 while the game, its replay,
the club page and the league said 420:280; the TD's fix of the game itself (undo, hands entered
again) left the tournament at the old score, and "Take results from finished games" found nothing
to take."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Event, Game
from games.tournaments import selectors
from games.tournaments.models import Tournament, TournamentEvent
from tests.tournament_api.test_api import append
from tests.tournament_api.test_result_sides import sent, url
from tests.tournament_api.test_table_codes import HAND, finish_table, published_round, with_code

pytestmark = pytest.mark.django_db


def game_post(client, game: int, events: list[dict]):
    seq = Game.objects.get(pk=game).seq
    return client.post(f"/api/games/{game}/events/", {"expected_seq": seq, "events": events}, format="json")


def channels(client, tid: int, game: int, table: int = 1) -> dict:
    """The table's score as each channel says it: the game's score sheet, the API's rounds and
    standings, the results export (JSON, tables CSV), the table's own view."""
    score = client.get(f"/api/games/{game}/score/").json()["totals"]
    results = client.get(f"/api/tournaments/{tid}/results/").json()
    row = next(t for t in results["rounds"][0]["tables"] if t["table"] == table)
    sheet = list(csv.reader(io.StringIO(client.get(f"/api/tournaments/{tid}/results/?as=tables.csv").content.decode())))
    line = next(r for r in sheet[1:] if r[0] == "1" and r[1] == str(table))
    standings = client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    points = {s["entry"]: s["points"] for s in standings}
    ns, ew = row["north_south"][0], row["east_west"][0]
    return {
        "game": score,
        "results": row["score"],
        "csv": [int(line[4]), int(line[5])],
        "standings": [points[ns], points[ew]],
        "table_view": client.get(url(game)).json()["score"],
    }


def the_same(found: dict) -> list:
    values = {tuple(v) for v in found.values()}
    assert len(values) == 1, found
    return list(values.pop())


def test_a_correction_of_the_game_is_the_tables_everywhere_and_asks_the_opponents_again(club, scorer_client, scorer):
    tid, tables = published_round(scorer_client)
    table = tables[1]
    code = with_code(table["code"])
    finish_table(code, table["game"])
    sent(code, table, "ns")
    assert (
        code.post(url(table["game"]), {"action": "confirm", "pin": table["pins"]["ew"]}, format="json").status_code
        == 201
    )
    assert the_same(channels(scorer_client, tid, table["game"])) == [70, 30]
    # the TD corrects hand 1 on the game (the API's way: an event on the game)
    fixed = {
        "type": "hand_corrected",
        "hand": 1,
        "calls": {},
        "out": [0, 1, 2, 3],
        "points": [40, 60],
        "reason": "miscounted",
    }
    assert game_post(scorer_client, table["game"], [fixed]).status_code == 201
    assert the_same(channels(scorer_client, tid, table["game"])) == [40, 60]
    view = scorer_client.get(url(table["game"])).json()
    assert (view["confirmation"], view["asked_again"], view["game_changed"]) == ("unconfirmed", True, None)
    # asked again: the other side answers the new version
    assert (
        code.post(url(table["game"]), {"action": "confirm", "pin": table["pins"]["ew"]}, format="json").status_code
        == 201
    )
    view = scorer_client.get(url(table["game"])).json()
    assert (view["confirmation"], view["asked_again"]) == ("confirmed", False)
    confirmations = TournamentEvent.objects.filter(tournament_id=tid, type="result_confirmed").order_by("seq")
    assert [e.payload["hands"][0]["points"] for e in confirmations] == [[70, 30], [40, 60]], "history keeps both"
    # the game's history says it as a correction
    last = Event.objects.filter(game_id=table["game"]).order_by("seq").last()
    assert (last.type, last.payload["reason"]) == ("hand_corrected", "miscounted")


def test_the_tournament_page_corrects_a_game_table_on_its_game(club, scorer_client, scorer):
    tid, tables = published_round(scorer_client)
    table = tables[1]
    finish_table(with_code(table["code"]), table["game"])
    sent(with_code(table["code"]), table, "ns")
    td = Client()
    td.force_login(scorer)
    page = td.get(f"/tournaments/{tid}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'value="correct_hand"' in page
    seq = Tournament.objects.get(pk=tid).seq
    response = td.post(
        f"/tournaments/{tid}/act/",
        {
            "action": "correct_hand",
            "round": 1,
            "table": 1,
            "hand": 1,
            "call_0": "tichu",
            "out_0": 0,
            "out_1": 1,
            "points_0": 60,
            "reason": "Anna called Tichu",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tid).seq == seq, "nothing stored on the tournament's stream"
    assert the_same(channels(scorer_client, tid, table["game"])) == [160, 40]
    replay = td.get(f"/games/{table['game']}/replay/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "corrected by the tournament director" in replay or "hand_corrected" in replay
    # a typed correction of the table's score is refused: the game is the source
    typed = append(
        scorer_client,
        tid,
        [{"type": "result_corrected", "round": 1, "table": 1, "score": [90, 10], "reason": "typed"}],
        Tournament.objects.get(pk=tid).seq,
    )
    assert (typed.status_code, typed.json()["code"]) == (400, "correct_on_game")
    # a bad hand is refused in words and stores nothing
    bad = td.post(
        f"/tournaments/{tid}/act/",
        {"action": "correct_hand", "round": 1, "table": 1, "hand": 4, "out_0": 0, "points_0": 60, "reason": "x"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    ).content.decode()
    assert "Not stored" in bad
    assert the_same(channels(scorer_client, tid, table["game"])) == [160, 40]


def test_the_tds_fix_of_the_game_itself_is_the_tables_result(club, scorer_client):
    """The probe's second path: undo, the hand entered again; the table follows, the round waits
    while the game is open and closes on the new result without taking it again."""
    tid, tables = published_round(scorer_client)
    for table in tables.values():
        finish_table(with_code(table["code"]), table["game"])
        sent(with_code(table["code"]), table, "ns")
    game = tables[1]["game"]
    assert game_post(scorer_client, game, [{"type": "undo"}]).status_code == 201
    view = scorer_client.get(url(game)).json()
    assert (view["confirmation"], view["game_changed"]) == ("game_changed", {"sent": [70, 30], "now": None})
    closing = append(scorer_client, tid, [{"type": "round_closed", "round": 1}], Tournament.objects.get(pk=tid).seq)
    assert (closing.status_code, closing.json()["code"]) == (400, "result_out_of_step")
    assert game_post(scorer_client, game, [{**HAND, "points": [20, 80]}]).status_code == 201
    assert the_same(channels(scorer_client, tid, game)) == [20, 80]
    # taking it "again" is the TD's word that the game's result stands (it settles a dispute)
    again = scorer_client.post(
        f"/api/tournaments/{tid}/rounds/1/tables/1/result-from-game/", {"reason": "x"}, format="json"
    )
    assert again.status_code == 201
    view = scorer_client.get(url(game)).json()
    assert (view["score"], view["confirmation"]) == ([20, 80], "corrected")
    # a later change of the game asks the other side again, even after the TD's word
    assert (
        game_post(
            scorer_client,
            game,
            [{"type": "hand_corrected", "hand": 1, "out": [0, 1, 2, 3], "points": [25, 75], "reason": "r"}],
        ).status_code
        == 201
    )
    view = scorer_client.get(url(game)).json()
    assert (view["score"], view["confirmation"], view["asked_again"]) == ([25, 75], "unconfirmed", True)
    assert (
        append(
            scorer_client, tid, [{"type": "round_closed", "round": 1}], Tournament.objects.get(pk=tid).seq
        ).status_code
        == 201
    )


def test_a_table_without_a_game_is_corrected_on_the_stream(club, scorer_client):
    tid, tables = published_round(scorer_client)
    seq = Tournament.objects.get(pk=tid).seq
    assert (
        append(
            scorer_client, tid, [{"type": "result_recorded", "round": 1, "table": 2, "score": [110, 90]}], seq
        ).status_code
        == 201
    )
    assert (
        append(
            scorer_client,
            tid,
            [{"type": "result_corrected", "round": 1, "table": 2, "score": [120, 80], "reason": "sheet"}],
            seq + 1,
        ).status_code
        == 201
    )
    rounds = scorer_client.get(f"/api/tournaments/{tid}/results/").json()["rounds"][0]["tables"]
    assert next(t for t in rounds if t["table"] == 2)["score"] == [120, 80]


POINTS = st.integers(-5, 25).map(lambda k: 5 * k)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["game", "stream"]), POINTS), min_size=1, max_size=4))
def test_every_channel_is_a_fold_of_the_stored_events(club, scorer_client, corrections):
    """Random corrections, on the game (table 1) or on the stream (table 2, no game result): the
    API's results and standings and the CSV equal the core's fold of the stored tournament events
    with the games' stored events folded by the engine."""
    from games import tournament as core
    from games.engine import fold as engine_fold
    from games.engine import score_json

    tid, tables = published_round(scorer_client)
    game = tables[1]["game"]
    finish_table(with_code(tables[1]["code"]), game)
    sent(with_code(tables[1]["code"]), tables[1], "ns")
    append(
        scorer_client,
        tid,
        [{"type": "result_recorded", "round": 1, "table": 2, "score": [50, 50]}],
        Tournament.objects.get(pk=tid).seq,
    )
    for side, a in corrections:
        if side == "game":
            assert (
                game_post(
                    scorer_client,
                    game,
                    [{"type": "hand_corrected", "hand": 1, "out": [0, 1, 2, 3], "points": [a, 100 - a], "reason": "r"}],
                ).status_code
                == 201
            )
        else:
            assert (
                append(
                    scorer_client,
                    tid,
                    [{"type": "result_corrected", "round": 1, "table": 2, "score": [a + 50, 150 - a], "reason": "r"}],
                    Tournament.objects.get(pk=tid).seq,
                ).status_code
                == 201
            )
    # the fold of what is stored, by the two pure cores alone
    game_record = scorer_client.get(f"/api/games/{game}/record/").json()
    lines = core.hand_lines(score_json(engine_fold(game_record)))
    tournament = Tournament.objects.get(pk=tid)
    expected = core.fold(selectors.record(tournament), game_lines={game: lines})
    want = core.standings_json(expected)["standings"]
    got = scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert [(r["entry"], r["points"], r["vp"]) for r in got] == [(r["entry"], r["points"], r["vp"]) for r in want]
    rows = core.rounds_json(expected)["rounds"][0]["tables"]
    results = scorer_client.get(f"/api/tournaments/{tid}/results/").json()["rounds"][0]["tables"]
    assert [t["score"] for t in results] == [t["result"]["score"] for t in rows]
    assert scorer_client.get(f"/api/games/{game}/score/").json()["totals"] == rows[0]["result"]["score"]


def test_the_game_page_and_the_replay_say_the_tables_result_with_its_vp(club, scorer_client, scorer):
    """Item 3: under DTM the game's pages say the table's VP (the tournament's count), and the score
    sheet says a corrected hand as such."""
    from tests.tournament_api.test_api import create, register_pairs

    tid = create(
        scorer_client,
        header={"entrants": "pairs", "system": "swiss", "scoring": "dtm", "rounds": 1, "hands_per_round": 2},
    )["id"]
    register_pairs(scorer_client, tid)
    from tests.tournament_api.test_api import pair_next_round

    pair_next_round(scorer_client, tid)
    games = {g["table"]: g["game"] for g in scorer_client.post(f"/api/tournaments/{tid}/rounds/1/games/").json()}
    game = games[1]
    two = [HAND, {**HAND, "points": [45, 55]}]
    assert game_post(scorer_client, game, two).status_code == 201
    assert scorer_client.post(url(game), {"action": "record"}, format="json").status_code == 201
    td = Client()
    td.force_login(scorer)
    for page in (f"/games/{game}/", f"/games/{game}/replay/", f"/tournaments/{tid}/"):
        text = td.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "2 : 2 VP" in text, page
    assert (
        game_post(
            scorer_client,
            game,
            [{"type": "hand_corrected", "hand": 2, "out": [0, 1, 2, 3], "points": [55, 45], "reason": "miscounted"}],
        ).status_code
        == 201
    )
    sheet = td.get(f"/games/{game}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "4 : 0 VP" in sheet and "corrected by the tournament director: miscounted; was 45:55" in sheet
    assert "4 : 0 VP" in td.get(f"/games/{game}/enter/result/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "4 : 0 VP" in td.get(f"/tournaments/{tid}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # the club page's latest evening says the table's VP beside the game's score
    evening = td.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    latest = evening.split('id="latest-evening"', 1)[1].split("</section>", 1)[0]
    assert "4 : 0 VP" in latest and latest.count(" VP") == 1, latest


def test_the_entry_page_of_a_game_whose_result_a_tournament_holds_warns(club, scorer_client, scorer):
    """An undo on such a game changes the table's result: the entry page says so before it."""
    _tid, tables = published_round(scorer_client)
    td = Client()
    td.force_login(scorer)
    game = tables[1]["game"]
    assert 'id="tournament-result-warning"' not in td.get(f"/games/{game}/enter/").content.decode()
    finish_table(with_code(tables[1]["code"]), game)
    sent(with_code(tables[1]["code"]), tables[1], "ns")
    # the game is over: the TD opens the entry page to undo
    page = td.get(f"/games/{game}/enter/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="tournament-result-warning"' in page and "an undo too, changes the table's result" in page


def test_a_visitor_and_a_table_code_read_the_games_pages(club, scorer_client):
    """The game's tournament line is read as the reader may see the tournament (a visitor, a
    table code's holder: no TD's rights)."""
    _tid, tables = published_round(scorer_client)
    game = tables[1]["game"]
    finish_table(with_code(tables[1]["code"]), game)
    sent(with_code(tables[1]["code"]), tables[1], "ns")
    assert Client().get(f"/games/{game}/replay/", HTTP_ACCEPT_LANGUAGE="en").status_code in (200, 404)
    phone = Client()
    phone.get(f"/t/{tables[1]['code']}/")
    assert phone.get(f"/games/{game}/enter/").status_code in (200, 302)
