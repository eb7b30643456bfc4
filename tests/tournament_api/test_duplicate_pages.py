"""The TD's duplicate pages: the movement round by round, the board results with matchpoints,
a board adjusted to AVG+/AVG-, and the board sheets as PDF (read back with pypdf)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.tournament import board_packets
from games.tournaments import duplicate_boards
from games.tournaments.models import Tournament
from replay.tournaments.printouts import hand_lines
from tests.tournament_api.test_api import append, create, pair_next_round, register_pairs
from tests.tournament_api.test_printouts import pdf_text

HEADER = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 2}


@pytest.fixture
def td(scorer):
    client = Client()
    client.force_login(scorer)
    return client


def scored_round(client) -> int:
    tid = create(client, header=HEADER)["id"]
    register_pairs(client, tid)
    paired = pair_next_round(client, tid)
    seq = client.get(f"/api/tournaments/{tid}/").json()["seq"]
    lines = {1: [[100, 0], [20, 80]], 2: [[50, 50], [20, 80]]}
    events = [
        {"type": "result_recorded", "round": 1, "table": t["table"], "hands": lines[t["table"]]}
        for t in paired["tables"]
    ]
    assert append(client, tid, events, seq).status_code == 201
    return tid


@pytest.mark.django_db
def test_movement_and_board_results(club, scorer_client, td):
    tid = scored_round(scorer_client)
    visitor = Client().get(f"/tournaments/{tid}/duplicate/").content.decode()
    assert 'data-board="1"' in visitor and 'class="num mp"' not in visitor, (
        "an open round's results are the TD's only (tests/tournament_api/test_duplicate_visibility.py)"
    )
    assert "Board sheets" not in visitor, "the deals are not shown to a visitor"
    html = td.get(f"/tournaments/{tid}/duplicate/").content.decode()
    assert html.count('class="list movement"') == 3, "4 pairs: 3 rounds"
    assert "boards 1–2" in html and "boards 5–6" in html
    assert 'data-board="1"' in html and 'data-board="2"' in html
    board1 = html.split('data-board="1"')[1].split("</table>")[0]
    assert '<td class="num mp">1</td><td class="num mp">0</td>' in board1, "+100 beats 0"
    assert "Board sheets" in html
    assert "Boards and movement" in td.get(f"/tournaments/{tid}/").content.decode()


@pytest.mark.django_db
def test_a_board_adjusted_by_the_td(club, scorer_client, td):
    tid = scored_round(scorer_client)
    seq = Tournament.objects.get(pk=tid).seq
    response = td.post(
        f"/tournaments/{tid}/duplicate/adjust/",
        {"seq": seq, "table_ref": "1/1", "board": 2, "ns": "AVG+", "ew": "AVG-", "reason": "fouled"},
    )
    assert response.status_code == 302
    boards = td.get(f"/api/tournaments/{tid}/boards/").json()["rounds"][0]["boards"]
    adjusted = next(r for r in boards[1]["results"] if r["table"] == 1)
    assert adjusted["adjustment"] == ["AVG+", "AVG-"] and adjusted["matchpoints"] == [0.6, 0.4]
    record = td.get(f"/api/tournaments/{tid}/record/").json()["events"][-1]
    assert record["type"] == "result_corrected" and record["reason"] == "fouled"
    assert Client().post(f"/tournaments/{tid}/duplicate/adjust/", {"seq": seq}).status_code in (302, 403)
    assert Tournament.objects.get(pk=tid).seq == seq + 1, "a visitor's post stores nothing"


@pytest.mark.django_db
def test_board_sheets_show_each_deal_and_its_traveller(club, scorer_client, td):
    tid = scored_round(scorer_client)
    tournament = Tournament.objects.get(pk=tid)
    text = pdf_text(td.get(f"/tournaments/{tid}/boards.pdf"))
    for board in range(1, 7):
        assert f"board {board} (round {(board + 1) // 2})" in text
    north = hand_lines(duplicate_boards.deal(tournament, 1)[0])
    words = " ".join(text.split())  # a long line (three special cards) wraps in its column
    for line in north:
        assert line in words
    assert "dealer North" in text and "Traveller of board 1" in text and "top 1" in text
    one = pdf_text(td.get(f"/tournaments/{tid}/boards.pdf?round=2"))
    assert "board 3" in one and "board 1 " not in one
    assert Client().get(f"/tournaments/{tid}/boards.pdf").status_code in (302, 403), "the deals: TD only"


@pytest.mark.django_db
def test_board_sheets_with_grand_tichu_give_each_hand_in_its_two_packets(club, scorer_client, td):
    """The TD deals real cards as the games are dealt: the first eight cards a seat, then six."""
    tid = create(scorer_client, header={**HEADER, "grand_tichu": True})["id"]
    register_pairs(scorer_client, tid)
    pair_next_round(scorer_client, tid)
    tournament = Tournament.objects.get(pk=tid)
    text = pdf_text(td.get(f"/tournaments/{tid}/boards.pdf"))
    assert text.count("First eight:") == text.count("Then six:") == 4 * 6
    first, last = board_packets(1, tournament.board_secret)[0]
    board_1 = " ".join(text[text.index("board 1 (round 1)") : text.index("board 2 (round 1)")].split())
    eight, six = board_1.split("Then six:")[0], board_1.split("Then six:")[1]  # North's, at the top
    assert all(line in eight for line in hand_lines(first)) and all(line in six for line in hand_lines(last))
    plain = pdf_text(td.get(f"/tournaments/{scored_round(scorer_client)}/boards.pdf"))
    assert "First eight:" not in plain


@pytest.mark.django_db
def test_not_a_duplicate_tournament(club, scorer_client):
    tid = create(scorer_client)["id"]
    assert Client().get(f"/tournaments/{tid}/duplicate/").status_code == 404


@pytest.mark.django_db
def test_a_refused_adjustment_is_said_once_on_the_page(club, scorer_client, td):
    """The TD's pages show their messages beside their controls, not a second time under the
    site bar."""
    tid = scored_round(scorer_client)
    page = td.post(f"/tournaments/{tid}/duplicate/adjust/", {"table_ref": "", "board": ""}, follow=True)
    assert page.content.decode().count("Choose the round, table and board.") == 1


@pytest.mark.django_db
def test_board_sheets_in_ukrainian(club, scorer_client, td):
    """The board sheets' words (headings, seats, suits, special cards) in the reader's language."""
    from django.utils import translation

    tid = scored_round(scorer_client)
    tournament = Tournament.objects.get(pk=tid)
    text = pdf_text(td.get(f"/tournaments/{tid}/boards.pdf", HTTP_ACCEPT_LANGUAGE="uk"))
    with translation.override("uk"):
        north = hand_lines(duplicate_boards.deal(tournament, 1)[0])
        assert translation.pgettext("suit", "Swords") != "Swords"
    folded = " ".join(text.split())  # a long line (four special cards) wraps in its 60 mm cell
    assert [line for line in north if " ".join(line.split()) not in folded] == []
    assert not {"board", "round", "dealer", "Traveller", "Swords", "Special", "North"} & set(
        text.replace(":", " ").split()
    )
