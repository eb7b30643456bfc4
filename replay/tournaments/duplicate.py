"""Duplicate Tichu pages: the movement round by round, every board's results with their
matchpoints, the TD's adjustment of a board (AVG, AVG+, AVG-) and the board sheets (PDF, TD only:
they show the deals). The rules are the core's (games.tournament: movement, boards_json)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import tournament as core
from games.tournament import MAX_PAIRS, MIN_PAIRS, movement
from games.tournaments import duplicate_boards, selectors, visibility

from .views import _append, _can_run, _tournament

SEATS = ("North", "East", "South", "West")
ADJUSTMENTS = ("AVG", "AVG+", "AVG-")


if TYPE_CHECKING:
    from games.tournaments.models import Tournament


def _duplicate(request: HttpRequest, pk: int) -> Tournament:
    tournament = _tournament(request, pk)
    if not duplicate_boards.is_duplicate(tournament):
        raise Http404("not a duplicate tournament")
    return tournament


def _field(state: core.TournamentState) -> list[str]:
    """The pairs in movement order: round 1's entries in registration order (as the core pairs)."""
    if state.rounds:
        first = state.rounds[0]
        seated = {e for t in first.tables.values() for s in t.sides for e in s} | set(first.byes)
        return [e for e in state.entries if e in seated]
    return state.active_entries()


def movement_rows(state: core.TournamentState) -> tuple[list[dict[str, Any]], str | None]:
    """The movement as the TD reads it: per round, each table's pairs (name and number) and boards,
    and who sits out; the rounds already paired as the stream has them."""
    field = _field(state)
    names = {e: state.entries[e].name for e in state.entries}
    if not MIN_PAIRS <= len(field) <= MAX_PAIRS:
        return [], f"a movement is for {MIN_PAIRS} to {MAX_PAIRS} pairs; this field has {len(field)}"
    per_round = state.header["hands_per_round"] or 3
    plan = movement(len(field), per_round)
    rounds = []
    for number, meetings in enumerate(plan["rounds"], 1):
        paired = state.rounds[number - 1] if number <= len(state.rounds) else None
        if paired is not None:
            tables = [
                {
                    "table": t.number,
                    "ns": names[t.sides[0][0]],
                    "ew": names[t.sides[1][0]],
                    "ns_no": field.index(t.sides[0][0]) + 1 if t.sides[0][0] in field else "-",
                    "ew_no": field.index(t.sides[1][0]) + 1 if t.sides[1][0] in field else "-",
                }
                for t in sorted(paired.tables.values(), key=lambda t: t.number)
            ]
            out = [names[e] for e in paired.byes]
        else:
            tables = [
                {
                    "table": m.table,
                    "ns": names[field[m.ns - 1]],
                    "ew": names[field[m.ew - 1]],
                    "ns_no": m.ns,
                    "ew_no": m.ew,
                }
                for m in meetings
            ]
            sit = plan["sit_outs"].get(number)
            out = [names[field[sit - 1]]] if sit else []
        first = (number - 1) * per_round + 1
        rounds.append(
            {
                "round": number,
                "boards": list(range(first, first + per_round)),
                "tables": tables,
                "sit_out": out,
                "paired": paired is not None,
                "closed": bool(paired and paired.closed),
            }
        )
    return rounds, None


def _board_rows(state: core.TournamentState) -> list[dict[str, Any]]:
    names = {e: state.entries[e].name for e in state.entries}
    out = []
    for rnd in core.boards_json(state)["rounds"]:
        for board in rnd["boards"]:
            rows = [{**r, "ns": names[r["north_south"][0]], "ew": names[r["east_west"][0]]} for r in board["results"]]
            out.append({**board, "round": rnd["round"], "results": rows})
    return out


@never_cache
def duplicate_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _duplicate(request, pk)
    state = visibility.reader_state(tournament, request.user)  # an open round's results: the TD's only
    rounds, problem = movement_rows(state)
    can_run = _can_run(request, tournament.club)
    scored = [(r.number, t.number) for r in state.rounds if not r.closed for t in r.tables.values() if t.result]
    return render(
        request,
        "tournaments/duplicate.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "state": state,
            "movement": rounds,
            "problem": problem,
            "boards": _board_rows(state),
            "can_run": can_run,
            "adjustable": scored,
            "adjustments": ADJUSTMENTS,
            "per_round": state.header["hands_per_round"],
        },
    )


@require_POST
def duplicate_adjust(request: HttpRequest, pk: int) -> HttpResponse:
    """The TD gives a board of a scored table an adjustment instead of its result: a
    `result_corrected` of that table with the board's line replaced (reason required)."""
    tournament = _duplicate(request, pk)
    if not _can_run(request, tournament.club):
        raise PermissionDenied("adjustments are the TD's")
    state = selectors.state_at(tournament)
    try:
        number, table = (int(v) for v in request.POST.get("table_ref", "").split("/"))
        board = int(request.POST.get("board", ""))
    except ValueError:
        messages.error(request, _("Choose the round, table and board."))
        return redirect("tournaments:tournament-duplicate", pk=pk)
    rnd = selectors.round_of(state, number)
    target = rnd.tables.get(table) if rnd else None
    index = board - duplicate_boards.board_number(tournament, number, 0)
    ns, ew = request.POST.get("ns", ""), request.POST.get("ew", "")
    if (
        target is None
        or target.result is None
        or not 0 <= index < len(target.result["hands"] or [])
        or ns not in ADJUSTMENTS
        or ew not in ADJUSTMENTS
    ):
        messages.error(
            request, _("That table has no result for that board, or the adjustment is not AVG, AVG+ or AVG-.")
        )
        return redirect("tournaments:tournament-duplicate", pk=pk)
    lines = core.rounds_json(state)["rounds"][number - 1]["tables"]
    hands = next(t for t in lines if t["table"] == table)["result"]["hands"]
    hands[index] = {"adjustment": [ns, ew]}
    event = {
        "type": "result_corrected",
        "round": number,
        "table": table,
        "hands": hands,
        "reason": request.POST.get("reason", ""),
    }
    if _append(request, tournament, [event]):
        messages.success(
            request,
            _("Board %(board)s at table %(table)s: %(ns)s to North/South, %(ew)s to East/West.")
            % {"board": board, "table": table, "ns": ns, "ew": ew},
        )
    return redirect("tournaments:tournament-duplicate", pk=pk)


def board_sheets(tournament: Tournament, state: core.TournamentState, only_round: int | None) -> list[dict]:
    """The data of the board sheets: each board's deal and its traveller (the round's tables,
    with points and matchpoints where a result is in)."""
    rounds, _problem = movement_rows(state)
    results = {b["board"]: {r["table"]: r for r in b["results"]} for b in _board_rows(state)}
    out = []
    for rnd in rounds:
        if only_round is not None and rnd["round"] != only_round:
            continue
        for board in rnd["boards"]:
            hands = duplicate_boards.deal(tournament, board)
            traveller = []
            for t in rnd["tables"]:
                r = results.get(board, {}).get(t["table"])
                cells = (
                    [
                        *r.get("points", ["", ""]),
                        r.get("difference", r.get("adjustment") and "/".join(r["adjustment"])),
                        *r["matchpoints"],
                    ]
                    if r
                    else [""] * 5
                )
                traveller.append(
                    {
                        "table": t["table"],
                        "ns": f"{t['ns_no']} {t['ns']}",
                        "ew": f"{t['ew_no']} {t['ew']}",
                        "cells": cells,
                    }
                )
            # with Grand Tichu allowed, the cards are dealt in two packets (the first eight, then six)
            packets = duplicate_boards.packets(tournament, board)
            out.append(
                {
                    "board": board,
                    "round": rnd["round"],
                    "dealer": SEATS[(board - 1) % 4],
                    "hands": {SEATS[s]: hands[s] for s in range(4)},
                    "packets": {SEATS[s]: packets[s] for s in range(4)} if packets else None,
                    "traveller": traveller,
                    "top": max(len(rnd["tables"]) - 1, 0),
                }
            )
    return out


@never_cache
def boards_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """Board sheets (the deals): the TD's only, like the table codes."""
    from . import printouts
    from .table_cards import _pdf_response

    tournament = _duplicate(request, pk)
    if not _can_run(request, tournament.club):
        raise PermissionDenied("the board sheets show the deals: the tournament's scorers and admins only")
    only = request.GET.get("round")
    if only is not None and not only.isdigit():
        raise Http404("no such round")
    state = selectors.state_at(tournament)
    data = printouts.board_sheets_pdf(tournament.name, board_sheets(tournament, state, int(only) if only else None))
    return _pdf_response(data, f"tournament-{pk}-boards.pdf")
