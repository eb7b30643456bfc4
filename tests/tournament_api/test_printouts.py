"""The TD's printouts as PDF, read back as text (pypdf): table cards with the codes, pairings by
table and by name, blank score sheets with the hands numbered and the check column, standings and
crosstable."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from tests.tournament_api.test_table_codes import finish_table, published_round, with_code


def pdf_text(response) -> str:
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture
def td(scorer):
    client = Client()
    client.force_login(scorer)
    return client


@pytest.mark.django_db
def test_table_cards_carry_each_tables_code(club, scorer_client, td):
    tid, tables = published_round(scorer_client)
    text = pdf_text(td.get(f"/tournaments/{tid}/rounds/1/cards.pdf"))
    for number, table in tables.items():
        assert f"Table {number}" in text
        assert table["code"] in text
        assert f"/t/{table['code'].replace('-', '')}/" in text
    assert "Anna & Ben" in text and "Gus & Hanna" in text
    assert Client().get(f"/tournaments/{tid}/rounds/1/cards.pdf").status_code in (403, 302), "codes: TD only"


@pytest.mark.django_db
def test_pairings_by_table_and_by_name(club, scorer_client, td):
    tid, _tables = published_round(scorer_client)
    text = pdf_text(Client().get(f"/tournaments/{tid}/rounds/1/pairings.pdf"))
    by_table, by_name = text.split("seats by name")
    assert "pairings by table" in by_table
    names = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hanna"]
    positions = [by_name.index(n) for n in names]
    assert positions == sorted(positions), "by player's name: alphabetical"
    assert all(by_name.count(seat) == 2 for seat in ("North", "East", "South", "West")), "each player's seat"


@pytest.mark.django_db
def test_score_sheets_number_the_rounds_hands(club, scorer_client, td):
    from tests.tournament_api import test_api

    header = {**test_api.HEADER, "hands_per_round": 6}
    tid = test_api.create(scorer_client, header=header)["id"]
    test_api.register_pairs(scorer_client, tid)
    test_api.pair_next_round(scorer_client, tid)
    reader = PdfReader(io.BytesIO(td.get(f"/tournaments/{tid}/rounds/1/sheets.pdf").content))
    assert len(reader.pages) == 2, "one sheet a table"
    page = reader.pages[0].extract_text()
    words = " ".join(page.split())  # the columns' headings wrap in their cells
    assert "table 1" in words and "Check = 100" in words
    lines = page.split("\n")
    numbers = [line.strip() for line in lines if line.strip() in {str(n) for n in range(1, 10)}]
    assert numbers == ["1", "2", "3", "4", "5", "6"], lines


@pytest.mark.django_db
def test_standings_and_crosstable(club, scorer_client, td):
    tid, tables = published_round(scorer_client)
    for table in tables.values():
        finish_table(with_code(table["code"]), table["game"])
        assert (
            with_code(table["code"])
            .post(
                f"/api/games/{table['game']}/tournament-table/",
                {"action": "record", "pin": table["pins"]["ns"]},
                format="json",
            )
            .status_code
            == 201
        )
    text = pdf_text(Client().get(f"/tournaments/{tid}/standings.pdf"))
    standings, crosstable = text.split("crosstable", 1)
    order = [r["name"] for r in scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]]
    positions = [standings.index(name) for name in order]
    assert positions == sorted(positions), "in the core's order"
    winners = {
        r["name"]
        for r in scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
        if r["points"] == 70
    }
    assert len(winners) == 2
    for row in scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]:
        after = standings.split(row["name"], 1)[1].split()  # the row's cells follow its name
        assert after[:3] == [str(row["vp"]), str(row["points"]), str(row["difference"])], standings
    assert "70:30" in crosstable and "30:70" in crosstable
    assert Client().get(f"/tournaments/{tid}/rounds/9/pairings.pdf").status_code == 404
    assert Client().get(f"/tournaments/{tid}/rounds/1/nonsense.pdf").status_code == 404


def test_the_printed_qr_code_is_segnos_matrix():
    """draw_qr draws runs of dark modules; put back together they are segno's matrix."""
    import segno
    from reportlab.lib.units import mm

    from replay.tournaments.printouts import draw_qr

    rects = []

    class Path:
        def rect(self, x, y, w, h):
            rects.append((x, y, w, h))

    class Canvas:
        def beginPath(self):
            return Path()

        def saveState(self):
            pass

        def restoreState(self):
            pass

        def setFillColor(self, _color):
            pass

        def drawPath(self, _path, **_kw):
            pass

    url = "https://club.example/t/ACDEFGHJ/"
    matrix = [list(row) for row in segno.make(url, error="m").matrix]
    size = 32 * mm
    draw_qr(Canvas(), url, 0, 0, size)
    cell = size / (len(matrix) + 4)
    drawn = [[0] * len(matrix) for _ in matrix]
    for x, y, w, _h in rects:
        row = round((size - y) / cell) - 3
        for col in range(round(x / cell) - 2, round((x + w) / cell) - 2):
            drawn[row][col] = 1
    assert drawn == [[1 if v else 0 for v in row] for row in matrix]


@pytest.mark.django_db
def test_results_json_names_entrants_tables_hands_and_links_each_game(club, scorer_client):
    tid, tables = published_round(scorer_client)
    for table in tables.values():
        finish_table(with_code(table["code"]), table["game"])
        with_code(table["code"]).post(
            f"/api/games/{table['game']}/tournament-table/",
            {"action": "record", "pin": table["pins"]["ns"]},
            format="json",
        )
    body = Client().get(f"/api/tournaments/{tid}/results/").json()
    assert body["format"] == "tichu-tournament-results/1"
    assert body["event"]["name"] == "Thursday" and body["event"]["club"] == "home"
    assert {tuple(e["players"]) for e in body["entrants"]} == {
        ("Anna", "Ben"),
        ("Cleo", "Dan"),
        ("Eva", "Finn"),
        ("Gus", "Hanna"),
    }
    rows = body["rounds"][0]["tables"]
    assert [r["table"] for r in rows] == [1, 2]
    for row in rows:
        assert row["score"] == [70, 30] and row["hands"] == [{"points": [70, 30], "double_victory": None}]
        assert row["record"].endswith(f"/api/games/{row['game']}/record/")
        assert Client().get(row["record"]).status_code == 200
    assert [r["name"] for r in body["standings"]] == [
        r["name"] for r in scorer_client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    ]


@pytest.mark.django_db
def test_results_as_csv_and_xlsx(club, scorer_client):
    import csv

    from openpyxl import load_workbook

    tid, tables = published_round(scorer_client)
    for table in tables.values():
        finish_table(with_code(table["code"]), table["game"])
        with_code(table["code"]).post(
            f"/api/games/{table['game']}/tournament-table/",
            {"action": "record", "pin": table["pins"]["ns"]},
            format="json",
        )
    standings = list(
        csv.reader(io.StringIO(Client().get(f"/api/tournaments/{tid}/results/?as=standings.csv").content.decode()))
    )
    assert standings[0][:2] == ["rank", "name"] and len(standings) == 5
    table_rows = list(
        csv.reader(io.StringIO(Client().get(f"/api/tournaments/{tid}/results/?as=tables.csv").content.decode()))
    )
    assert [r[4:6] for r in table_rows[1:]] == [["70", "30"], ["70", "30"]]
    book = load_workbook(io.BytesIO(Client().get(f"/api/tournaments/{tid}/results/?as=xlsx").content))
    assert book.sheetnames == ["standings", "tables"]

    def number(v):
        try:
            return float(v)
        except (TypeError, ValueError):
            return "" if v is None else v  # an empty cell

    assert [[number(c.value) for c in row] for row in book["standings"].iter_rows()][1:] == [
        [number(v) for v in r] for r in standings[1:]
    ]
    assert standings[0][-1] == "performance" and all(r[-1] == "" for r in standings[1:]), (
        "one round played: no performance yet (games.tournament.performance.MIN_TABLES)"
    )
    assert Client().get(f"/api/tournaments/{tid}/results/?as=pdf").json()["code"] == "invalid"


@pytest.mark.django_db
def test_results_exports_cannot_carry_a_formula(club, scorer_client):
    """Issue #14 finding 13 for the tournament exports: a name that starts like a formula stays
    text in the CSV and the XLSX."""
    from openpyxl import load_workbook

    from tests.tournament_api.test_api import append, create

    tid = create(scorer_client)["id"]
    evil = '=HYPERLINK("http://example.invalid","x")'
    events = [
        {"type": "entry_registered", "entry": "a", "players": [evil, "Ben"]},
        {"type": "entry_registered", "entry": "b", "players": ["Cleo", "Dan"]},
    ]
    assert append(scorer_client, tid, events, 0).status_code == 201
    text = Client().get(f"/api/tournaments/{tid}/results/?as=standings.csv").content.decode()
    assert evil not in text.replace("'" + evil, "")  # only ever behind the apostrophe
    assert "'=HYPERLINK" in text
    book = load_workbook(io.BytesIO(Client().get(f"/api/tournaments/{tid}/results/?as=xlsx").content))
    values = [c.value for row in book["standings"].iter_rows() for c in row if isinstance(c.value, str)]
    assert not any(v.startswith("=") for v in values)
    assert any(v.startswith("'=HYPERLINK") for v in values)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "uk"])
def test_the_pdfs_speak_the_readers_language(club, scorer_client, td, lang):
    """The PDFs' words come from the catalogue (Accept-Language), in a font that has the letters:
    the Ukrainian text reads back as Cyrillic, not as the empty boxes of ReportLab's Helvetica."""
    from django.utils import translation

    tid, tables = published_round(scorer_client)
    with translation.override(lang):
        words = [
            translation.gettext("North/South"),
            translation.gettext("East/West"),
            translation.gettext("Table code"),
            translation.gettext("Check = 100"),
        ]
    assert "North/South" not in words
    cards = pdf_text(td.get(f"/tournaments/{tid}/rounds/1/cards.pdf", HTTP_ACCEPT_LANGUAGE=lang))
    pairings = pdf_text(td.get(f"/tournaments/{tid}/rounds/1/pairings.pdf", HTTP_ACCEPT_LANGUAGE=lang))
    sheets = " ".join(pdf_text(td.get(f"/tournaments/{tid}/rounds/1/sheets.pdf", HTTP_ACCEPT_LANGUAGE=lang)).split())
    assert words[2] in cards and words[0] in pairings and words[1] in pairings and words[3] in sheets
    for text in (cards, pairings, sheets):
        assert "round" not in text and "Table code" not in text and "pairings" not in text


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["de", "uk"])
def test_a_tournament_error_speaks_the_requests_language(club, scorer_client, lang):
    """The tournament API's own coded errors: `message` in the request's language, `code` as in English."""
    tid, _tables = published_round(scorer_client)
    url = f"/api/tournaments/{tid}/results/?as=nonsense"
    english, said = Client().get(url, HTTP_ACCEPT_LANGUAGE="en"), Client().get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert english.status_code == said.status_code == 400
    assert english.json()["code"] == said.json()["code"] == "invalid"
    assert english.json()["message"].startswith("as= is json") and said.json()["message"] != english.json()["message"]
    assert "or" not in said.json()["message"].split()


@pytest.mark.django_db
def test_a_dtm_sheet_pdf_prints_dtms_rules_and_a_vp_column(club, scorer_client, td):
    from tests.tournament_api import test_api

    tid = test_api.create(scorer_client, header={**test_api.HEADER, "scoring": "dtm"})["id"]
    test_api.register_pairs(scorer_client, tid)
    test_api.pair_next_round(scorer_client, tid)
    words = " ".join(pdf_text(td.get(f"/tournaments/{tid}/rounds/1/sheets.pdf", HTTP_ACCEPT_LANGUAGE="en")).split())
    assert "a double victory scores 100" in words and "no Grand Tichu" in words and "Grand Tichu ±200" not in words
    assert "VP N/S" in words and "VP E/W" in words and "VP per hand" in words
