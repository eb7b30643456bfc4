"""Print-ready HTML pages beside the PDFs (docs/tournament.md, "Printouts"): the round's pairings
by table and by name, and a blank score sheet per table with the round's hands numbered and the
100-point check column (and a VP column where VP are counted per hand), under the rules of the
tournament's game (`printouts.sheet_rules`). The same data as the PDFs (`table_cards._round_tables`, the columns of
`printouts.SHEET_COLUMNS`); the print CSS puts each part on its own page and hides the site."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.cache import never_cache

from . import printouts, seat_list
from .table_cards import _round_tables
from .views import _tournament

#: The score sheet's columns (printouts.SHEET_COLUMNS, English on the PDFs) for the catalogues.
SHEET_COLUMN_WORDS = [
    gettext_noop("Hand"),
    gettext_noop("Calls N/S"),
    gettext_noop("Calls E/W"),
    gettext_noop("Card pts N/S"),
    gettext_noop("Card pts E/W"),
    gettext_noop("Check = 100"),
    gettext_noop("Bonus N/S"),
    gettext_noop("Bonus E/W"),
    gettext_noop("Hand N/S"),
    gettext_noop("Hand E/W"),
    gettext_noop("Total N/S"),
    gettext_noop("Total E/W"),
    gettext_noop("VP N/S"),
    gettext_noop("VP E/W"),
]


@never_cache
def pairings_page(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    state, rnd, tables = _round_tables(tournament, round_number)
    byes = [state.entries[e].name for e in rnd.byes]
    return render(
        request,
        "tournaments/print_pairings.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "round": round_number,
            "tables": tables,
            "byes": byes,
            "by_name": seat_list.seat_rows(state, round_number),
        },
    )


@never_cache
def sheets_page(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    state, _rnd, tables = _round_tables(tournament, round_number)
    hands = state.header["hands_per_round"] or 0
    duplicate = state.header["system"] == "duplicate"
    columns = printouts.sheet_columns(state.header)
    first_board = (round_number - 1) * hands + 1
    numbers = [first_board + i for i in range(hands)] if duplicate else list(range(1, hands + 1))
    return render(
        request,
        "tournaments/print_sheets.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "round": round_number,
            "tables": tables,
            "columns": [_(c) for c in columns],
            "numbers": numbers,
            "blank": range(len(columns) - 1),
            "duplicate": duplicate,
            "target": state.header.get("target"),
            "rules": printouts.sheet_rules(state.header),
        },
    )
