"""Print-ready HTML beside the PDFs: pairings by table and by name, blank score sheets with the
round's hands numbered and the 100-point check column."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournament_api import test_api
from tests.tournament_api.test_table_codes import published_round


@pytest.mark.django_db
def test_pairings_page_by_table_and_by_name(club, scorer_client):
    tid, _tables = published_round(scorer_client)
    html = Client().get(f"/tournaments/{tid}/rounds/1/pairings/").content.decode()
    by_table, by_name = html.split('id="by-name"')
    assert 'id="by-table"' in by_table and "pairings by table" in by_table
    rows = re.findall(
        r'<tr data-seat="([NESW])"><td>([^<]+)</td><td class="num">(\d+)</td><td>([^<]+)</td>'
        r"<td>([^<]+)</td></tr>",
        by_name,
    )
    assert [r[1] for r in rows] == sorted(r[1] for r in rows) and len(rows) == 8, "each player, by name"
    assert sorted(r[0] for r in rows) == sorted("NESW" * 2), "a seat each: North, East, South, West"
    seat = {r[1]: (r[2], r[3], r[4]) for r in rows}
    assert seat["Anna"][0] == seat["Ben"][0] and seat["Anna"][2] == "Ben", "partners at one table"
    assert "print.css" in html and "/rounds/1/pairings.pdf" in html


@pytest.mark.django_db
def test_score_sheets_number_the_hands_and_carry_the_check_column(club, scorer_client):
    tid = test_api.create(scorer_client, header={**test_api.HEADER, "hands_per_round": 6})["id"]
    test_api.register_pairs(scorer_client, tid)
    test_api.pair_next_round(scorer_client, tid)
    html = Client().get(f"/tournaments/{tid}/rounds/1/sheets/").content.decode()
    assert html.count('class="print-page sheet landscape"') == 2, "one sheet a table"
    sheet = html.split('data-table="1"')[1].split("</section>")[0]
    assert re.findall(r'class="num hand-no">(\d+)<', sheet) == ["1", "2", "3", "4", "5", "6"]
    assert 'class="check">Check = 100</th>' in sheet
    assert sheet.count('<td class="check">') == 7, "a check cell on every hand and on the sum"


@pytest.mark.django_db
def test_duplicate_sheets_number_the_rounds_boards(club, scorer_client):
    header = {"entrants": "pairs", "system": "duplicate", "scoring": "matchpoints", "hands_per_round": 3}
    tid = test_api.create(scorer_client, header=header)["id"]
    test_api.register_pairs(scorer_client, tid)
    test_api.pair_next_round(scorer_client, tid)
    sheet = Client().get(f"/tournaments/{tid}/rounds/1/sheets/").content.decode()
    assert '<th scope="col">Board</th>' in sheet
    assert re.findall(r'class="num hand-no">(\d+)<', sheet.split('data-table="1"')[1].split("</section>")[0]) == [
        "1",
        "2",
        "3",
    ]


@pytest.mark.django_db
def test_a_round_that_does_not_exist(club, scorer_client):
    tid = test_api.create(scorer_client)["id"]
    assert Client().get(f"/tournaments/{tid}/rounds/1/pairings/").status_code == 404
    assert Client().get(f"/tournaments/{tid}/rounds/1/sheets/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "says", "vp"),
    [
        (
            {"scoring": "dtm"},
            [
                "a double victory scores 100",
                "Tichu ±100; no Grand Tichu.",
                "VP per hand: 2 to the side with more points, 1 each on a draw, 3 for a double victory",
            ],
            True,
        ),
        ({"scoring": "round_vp"}, ["a double victory scores 200", "Tichu ±100, Grand Tichu ±200."], False),
    ],
)
def test_a_sheet_prints_the_rules_of_the_tournaments_game_and_a_vp_column_under_dtm(
    club, scorer_client, header, says, vp
):
    tid = test_api.create(scorer_client, header={**test_api.HEADER, **header})["id"]
    test_api.register_pairs(scorer_client, tid)
    test_api.pair_next_round(scorer_client, tid)
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/tournaments/{tid}/rounds/1/sheets/").content.decode()
    sheet = html.split('data-table="1"')[1].split("</section>")[0]
    for line in says:
        assert line in sheet
    assert ("Grand Tichu ±200" in sheet) is not vp
    assert ('<th scope="col">VP N/S</th>' in sheet and '<th scope="col">VP E/W</th>' in sheet) is vp
    heads = re.findall(r'<th scope="col"[^>]*>', sheet)
    cells = re.findall(r"<td", sheet.split("</tr>")[1])  # the first hand's row: a cell under every heading
    assert len(cells) == len(heads) - 1
