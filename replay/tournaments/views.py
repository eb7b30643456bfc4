"""The tournament director's pages, the public standings and the projector view.

Every write goes through `games.tournaments.services` with the `seq` the page was drawn at: a
form left open while someone else changed the tournament is refused (nothing stored) and the
page shows the latest state. What an event may do is the core's decision; its refusals are shown
with their reason. Reads follow the club's visibility (members-only: 404 to outsiders).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from games import selectors as game_selectors
from games import tournament as core
from games.services import SeqConflict, ServiceError
from games.tournament import MIN_TABLES, PRESETS, SYSTEMS
from games.tournaments import online_tables, refusal_words, result_sides, round_clock, selectors, services, visibility
from games.tournaments.brackets import club_brackets
from games.tournaments.leagues import club_leagues
from games.tournaments.performance import performances
from games.tournaments.seasons import club_seasons
from replay.site_nav import SiteNav
from replay.tournaments.refusals import refusal

from . import explanation_words, seat_list, short_round
from .forms import (
    SCORING_LABELS,
    SYSTEM_LABELS,
    AdjustForm,
    RegisterForm,
    ScoreLineForm,
    SeasonForm,
    TournamentForm,
    parse_entries,
)

STATUS_LABELS = {
    "waiting": gettext_lazy("not started"),
    "playing": gettext_lazy("in play"),
    "finished": gettext_lazy("game over, result not taken"),
    "result": gettext_lazy("result entered"),
    "paper": gettext_lazy("result entered (paper)"),
    "none": gettext_lazy("no game"),
}


if TYPE_CHECKING:
    from games.models import Club, Game
    from games.tournaments.models import Tournament


def _club(request: HttpRequest, slug: str) -> Club:
    return get_object_or_404(game_selectors.clubs_visible(request.user), game_selectors.club_q(slug))  # slug or id


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    try:
        return selectors.tournament_get(request.user, pk)
    except Http404:
        raise Http404("no such tournament") from None


def _can_run(request: HttpRequest, club: Club) -> bool:
    return game_selectors.can_write(request.user, club)


def club_tournaments(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    return render(request, "tournaments/list.html", list_context(request, club))


def list_context(request: HttpRequest, club, season_form: SeasonForm | None = None) -> dict[str, Any]:
    """The club's tournaments page: its evenings, its seasons, knockout brackets and leagues, and the form of a new
    season (as the TD sent it, with its errors, when it was refused: replay/tournaments/seasons.py)."""
    return {
        "club": club,
        "tournaments": selectors.club_tournaments(club),
        "can_run": _can_run(request, club),
        "seasons": club_seasons(club),  # a season is a series of these evenings (issue 36)
        "brackets": club_brackets(club),  # knockout brackets (issue 36)
        "leagues": club_leagues(club),  # a league's matches are fixed in advance (issue 36, item 2)
        "season_form": season_form or SeasonForm(),
    }


@login_required
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    if not _can_run(request, club):
        raise Http404("no such page")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        seed = random.SystemRandom().randrange(1, 2**31)  # recorded in the header: every draw replays
        try:
            body = services.tournament_create(
                club=club, name=form.cleaned_data["name"], header=form.header(seed), user=request.user
            ).body
        except ServiceError as err:
            _refuse_header(form, err)
        else:
            messages.success(request, _("Tournament created. Register the entries, then pair round 1."))
            return redirect("tournaments:tournament", pk=body["id"])
    return render(request, "tournaments/new.html", {"club": club, "form": form, "form_rules": _form_rules()})


def _form_rules() -> dict[str, Any]:
    """What the new-tournament form's script needs: the core's systems per entrants and the
    presets (which fit which stays the core's: games.tournament.record), and its two sentences."""
    return {
        "systems": {k: list(v) for k, v in SYSTEMS.items()},
        "scorings": list(PRESETS),
        "words": {
            "system_moved": _("The system is now “%(system)s”: it fits the entrants."),
            "scoring_moved": _("The scoring is now “%(scoring)s”: it fits the system."),
        },
    }


def _header_advice(rule: str, params: dict) -> tuple[str | None, str] | None:
    """(the form field, what to do) for the core's refusals of a header the form can lead to."""
    if rule == "system":
        if params.get("entrants") == "individuals":
            return "system", _(
                "Individuals get a new partner each round: choose “Individual” or “Manual” as the system."
            )
        return "system", _(
            "Fixed pairs play Swiss, round robin, duplicate or manual: choose one of those as the system."
        )
    if rule == "duplicate_matchpoints":
        return "scoring", _(
            "A duplicate tournament is scored by matchpoints, and matchpoints need the duplicate "
            "system: choose both, or neither."
        )
    if rule == "dtm_hands":
        return "length", _("DTM counts victory points per hand: make a round a number of hands.")
    if rule == "too_many_boards":
        return "hands_per_round", _(
            "Choose fewer rounds or fewer boards per round (at most %(limit)s boards in all)."
        ) % {"limit": params.get("limit")}
    if rule == "grand_tichu":
        return "grand_tichu", _("Grand Tichu is a choice of duplicate tournaments only: leave it unticked.")
    return None


def _refuse_header(form: TournamentForm, err: ServiceError) -> None:
    """Put the refusal at the field it is about, as what to do; the code goes to `data-code`."""
    advice = _header_advice(getattr(err, "params", {}).get("rule", ""), getattr(err, "params", {}))
    if advice is None:
        form.add_error(None, refusal(err))
        return
    field, words = advice
    form.add_error(field, format_html('<span class="refusal" data-code="{}">{}</span>', err.code, words))


# --- what the pages show ------------------------------------------------------------------------


@dataclass
class TableView:
    number: int
    sides: list[dict[str, Any]]
    status: str
    status_label: str
    game: Game | None
    result: dict | None
    history: int
    confirmation: str | None = None  # the other side's answer (core.CONFIRMATION) once there is a result
    dispute_reason: str | None = None
    # the result's game is open again ({"sent", "now": None}: result_sides.out_of_step): the round
    # waits for it (`confirmation` "game_changed")
    changed: dict | None = None
    #: the result is the game's (issue 31): it is corrected on the game, hand by hand
    from_game: bool = False
    #: the game changed after the other side answered: they are asked again
    asked_again: bool = False
    #: the game's four players by seat (a hand correction's calls and order out)
    seat_names: list[str] | None = None
    #: the table's VP as the standings count them (None without a result, or without VP)
    vp: list | None = None
    #: played online: each seat's player and link, for the TD (games/tournaments/online_tables.py)
    online: list[dict] | None = None
    #: the TD's short round: (hands played, reason), or None (issue 31, item 2)
    short: tuple[int, str] | None = None
    #: the hand (or board) numbers the paper and correction forms ask for: a short round's fewer
    line_numbers: list[int] | None = None


SEATS_AT_TABLE = 4


def _entry_name(state: core.TournamentState, entry_id: str) -> str:
    return state.entries[entry_id].name


def _side_label(side: int, entrants: str) -> str:
    return (_("North/South"), _("East/West"))[side]


def _table_views(tournament: Tournament, state: core.TournamentState, rnd) -> list[TableView]:
    links = selectors.table_games(tournament, rnd.number)
    views = []
    for number, table in sorted(rnd.tables.items()):
        link = links.get(number)
        game = link.game if link else None
        if table.result is not None:
            status = "result" if table.result.get("game") is not None or game is not None else "paper"
        elif game is None:
            status = "none"
        elif game.status == game_selectors.GameStatus.FINISHED:
            status = "finished"
        else:
            status = "playing" if game.seq else "waiting"
        sides = [
            {
                "label": _side_label(i, state.header["entrants"]),
                "names": " & ".join(_entry_name(state, e) for e in side),
                "score": table.result["score"][i] if table.result else None,
            }
            for i, side in enumerate(table.sides)
        ]
        changed = result_sides.out_of_step(table, link)
        confirmation = (table.confirmation if changed is None else "game_changed") if table.result else None
        from_game = bool(table.result and game is not None and table.result.get("game") == game.pk)
        seat_names = [s.player.name for s in sorted(game.seats.all(), key=lambda s: s.seat)] if from_game else None
        views.append(
            TableView(
                number,
                sides,
                status,
                STATUS_LABELS[status],
                game,
                table.result,
                len(table.history),
                confirmation,
                table.dispute_reason,
                changed,
                from_game,
                table.reasked,
                seat_names,
                services.table_vp(state, rnd.number, number) if table.result else None,
                short=table.short,
            )
        )
    return views


def _is_readers(nav: SiteNav, club_id: int, player: object) -> bool:
    """Whether a tournament's player is the reader: named by roster id (stored records) or by name."""
    if not nav.player_ids:
        return False
    if isinstance(player, int) and not isinstance(player, bool):
        return player in nav.player_ids
    return str(player).strip().lower() in nav.names_in(club_id)


def _round_ends(record: dict) -> dict[int, int]:
    """round number -> the number of events up to and including its `round_closed`."""
    return {e["round"]: i + 1 for i, e in enumerate(record["events"]) if e["type"] == "round_closed"}


def _standings_context(tournament: Tournament, request: HttpRequest) -> dict[str, Any]:
    record = visibility.reader_record(tournament, request.user)
    ends = _round_ends(record)
    after_round = request.GET.get("round")
    upto = None
    if after_round is not None:
        if not after_round.isdigit() or int(after_round) not in ends:
            raise Http404("that round is not closed")
        upto = ends[int(after_round)]
    state = selectors.fold(tournament, record, upto)
    standings = core.standings_json(state)
    crosstable = core.crosstable_json(state)
    games = selectors.table_games(tournament)
    names = {e.id: e.name for e in state.entries.values()}
    rounds = [r.number for r in state.rounds]
    rows = []
    for line in crosstable["crosstable"]:
        cells = {c["round"]: c for c in line["rounds"]}
        row_cells = []
        for number in rounds:
            cell = cells.get(number, {"kind": "absent"})
            link = games.get((number, cell.get("table"))) if cell.get("table") else None
            row_cells.append(
                {
                    **cell,
                    "opponent_names": " & ".join(names[o] for o in cell.get("opponents", [])),
                    "replay": reverse("replay:game-replay", args=[link.game_id]) if link else None,
                }
            )
        rows.append({"name": line["name"], "cells": row_cells})
    perf = performances(tournament, state) if upto is None else {}
    nav = SiteNav(request.user)  # "you" on the reader's own entry

    def is_mine(entry_id: str) -> bool:
        entry = state.entries.get(entry_id)
        return entry is not None and any(_is_readers(nav, tournament.club_id, p) for p in entry.players)

    lines = [
        {**line, "perf": perf.get(line["entry"], {}), "mine": is_mine(line["entry"])} for line in standings["standings"]
    ]
    return {
        "standings": lines,
        "summary": standings,
        "crosstable_rows": rows,
        "rounds": rounds,
        # the column appears once some entry has played enough for its figure (MIN_TABLES): a
        # column of dashes before that says nothing and costs a phone its width
        "show_performance": any(p.get("performance") is not None for p in perf.values()),
        "perf_min_tables": MIN_TABLES,
        "closed_rounds": sorted(ends),
        "after_round": int(after_round) if after_round else None,
        "unit": {"points": _("Points"), "matchpoints": _("MP")}.get(state.header["scoring"], _("VP")),
    }


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    state = visibility.reader_state(tournament, request.user)
    can_run = _can_run(request, tournament.club)
    current = state.current_round
    planned = _planned_rounds(state)
    context: dict[str, Any] = {
        "tournament": tournament,
        "club": tournament.club,
        "state": state,
        "can_run": can_run,
        "system_label": SYSTEM_LABELS[state.header["system"]],
        "scoring_label": SCORING_LABELS[state.header["scoring"]],
        "entries": list(state.entries.values()),
        "current": current,
        "tables": (tables := _table_views(tournament, state, current) if current else []),
        "unconfirmed": [t for t in tables if t.confirmation == "unconfirmed"],
        "disputed": [t for t in tables if t.confirmation == "disputed"],
        "changed": [t for t in tables if t.changed is not None],
        "byes": [_entry_name(state, e) for e in current.byes] if current else [],
        "can_pair": can_run
        and not state.finished
        and (current is None or current.closed)
        and len(state.rounds) < planned,
        "rounds_left": planned - len(state.rounds),
        "planned_rounds": planned,
        "register_form": RegisterForm(),
        "adjust_form": _adjust_form(state),
        # DTM: the paper and correction forms take each hand's line (VP are counted from them)
        "hand_numbers": list(range(1, (state.header["hands_per_round"] or 0) + 1))
        if state.preset.unit == "hand"
        else None,
        "board_numbers": [
            (current.number - 1) * state.header["hands_per_round"] + i + 1
            for i in range(state.header["hands_per_round"])
        ]
        if current and state.header["system"] == "duplicate"
        else None,
        # the round's clock (issue 33, item 4) and the length the form offers: the last one started
        "clock": round_clock.clock_view(state, current.number) if current else None,
        "clock_minutes": _last_clock_minutes(state),
        "clock_max_minutes": core.MAX_CLOCK_MINUTES,
        **short_round.form_context(state, current, tables),
        **_standings_context(tournament, request),
    }
    if can_run and current:
        _online_links(request, tournament, current.number, tables)
    lines = context["board_numbers"] or context["hand_numbers"]
    for t in tables:  # a short round's table is recorded with fewer lines
        t.line_numbers = lines[: t.short[0]] if lines and t.short else lines
    return render(request, "tournaments/detail.html", context)


def _online_links(request: HttpRequest, tournament: Tournament, round_number: int, tables: list[TableView]) -> None:
    """The seat links of the round's tables played online, for the TD to hand out."""
    online = online_tables.round_tables(tournament, round_number)
    for view in tables:
        table = online.get(view.number)
        if table is not None and view.game is not None and table.game_id == view.game.pk:
            view.online = [
                {
                    "seat": s.seat,
                    "name": s.player.name,
                    "joined": s.joined_at is not None,
                    "url": request.build_absolute_uri(reverse("online:seat", args=[s.secret])),
                }
                for s in table.seats.select_related("player").order_by("seat")
            ]


def _play_online(request: HttpRequest, tournament: Tournament, state: core.TournamentState) -> None:
    """The round's tables played online: each table's game an online table for its seated players."""
    current = state.current_round
    if current is None:
        messages.error(request, _("No round has been paired yet."))
        return
    try:
        tables = online_tables.publish_round(
            tournament_id=tournament.pk, round_number=current.number, user=request.user
        )
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(
        request,
        _("Round %(round)s is played online: %(count)s tables, each seat's link below.")
        % {"round": current.number, "count": len(tables)},
    )


def _last_clock_minutes(state: core.TournamentState) -> int:
    """The minutes of the latest clock started (a club plays its rounds the same length), else 60."""
    started = [r.clock for r in state.rounds if r.clock is not None]
    return max(started, key=lambda c: c.index).minutes if started else 60


def _planned_rounds(state: core.TournamentState) -> int:
    """The rounds the tournament will have: the header's, or (a round robin or a duplicate
    movement not yet paired) what its schedule will fix for the field registered so far."""
    if state.planned_rounds is not None:
        return state.planned_rounds
    from games.tournament import schedule_length

    return schedule_length(max(len(state.active_entries()), 1), state.header["legs"])


def _adjust_form(state: core.TournamentState, data=None) -> AdjustForm:
    form = AdjustForm(data)
    form.fields["entry"].choices = [(e.id, e.name) for e in state.entries.values()]
    return form


def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    return render(
        request,
        "tournaments/standings.html",
        {"tournament": tournament, "club": tournament.club, **_standings_context(tournament, request)},
    )


def tournament_projector(request: HttpRequest, pk: int) -> HttpResponse:
    """Big type for a projector; the page reloads itself (a meta refresh: no script needed)."""
    tournament = _tournament(request, pk)
    state = visibility.reader_state(tournament, request.user)
    current = state.current_round
    nav = SiteNav(request.user)  # "you" on the reader's own line, as on every list
    return render(
        request,
        "tournaments/projector.html",
        {
            "tournament": tournament,
            "current": current,
            "finished": state.finished,
            "tables": _table_views(tournament, state, current) if current and not state.finished else [],
            # the newest round's seats by player (the next round's, once it is paired): who sits where
            "seats": [
                {**row, "mine": _is_readers(nav, tournament.club_id, row["player"])}
                for row in seat_list.seat_rows(state, current.number)
            ]
            if current and not state.finished
            else [],
            "clock": round_clock.clock_view(state, current.number) if current else None,
            "refresh_seconds": 20,
            "projector": True,
            **_standings_context(tournament, request),
        },
    )


# --- writes ---------------------------------------------------------------------------------------


def _append(request: HttpRequest, tournament: Tournament, events: list[dict]) -> bool:
    """Append at the seq the page was drawn at; say what happened. True when stored."""
    seq = request.POST.get("seq", "")
    if not seq.isdigit():
        messages.error(request, _("The form is missing its position in the tournament; reload the page."))
        return False
    try:
        services.append_events(tournament_id=tournament.pk, events=events, expected_seq=int(seq), user=request.user)
    except SeqConflict:
        messages.error(
            request,
            _(
                "Someone changed the tournament while this page was open. Nothing was stored: "
                "the page now shows the latest state; check it and do it again if still needed."
            ),
        )
        return False
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return False
    return True


def _next_entry_ids(state: core.TournamentState, count: int) -> list[str]:
    taken, ids, n = set(state.entries), [], len(state.entries)
    while len(ids) < count:
        n += 1
        if f"e{n}" not in taken:
            ids.append(f"e{n}")
    return ids


@login_required
@require_POST
def tournament_action(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not _can_run(request, tournament.club):
        raise Http404("no such page")
    state = selectors.state_at(tournament)
    action = request.POST.get("action")
    back = redirect("tournaments:tournament", pk=pk)
    if action == "register":
        form = RegisterForm(request.POST)
        per_entry = 2 if state.header["entrants"] == "pairs" else 1
        try:
            if not form.is_valid():
                raise ValueError("no names given")
            entries = parse_entries(form.cleaned_data["names"], per_entry)
        except ValueError as err:
            messages.error(
                request,
                _("Not stored: %(reason)s.") % {"reason": _("no names given") if str(err) == "no names given" else err},
            )
            return back
        ids = _next_entry_ids(state, len(entries))
        if _append(
            request,
            tournament,
            [{"type": "entry_registered", "entry": i, "players": names} for i, names in zip(ids, entries)],
        ):
            messages.success(
                request,
                ngettext("%(count)d entry registered.", "%(count)d entries registered.", len(entries))
                % {"count": len(entries)},
            )
    elif action in ("withdraw", "reenter"):
        event_type = "entry_withdrawn" if action == "withdraw" else "entry_reentered"
        if _append(request, tournament, [{"type": event_type, "entry": request.POST.get("entry", "")}]):
            messages.success(request, _("Withdrawn.") if action == "withdraw" else _("Back in from the next round."))
    elif action == "games":
        _make_games(request, tournament, state)
    elif action == "online":
        _play_online(request, tournament, state)
    elif action == "results":
        _take_results(request, tournament, state)
    elif action == "correct_hand":
        _correct_hand(request, tournament)
    elif action in ("correct", "paper") and (state.header["system"] == "duplicate" or state.preset.unit == "hand"):
        _paper_lines(request, tournament, state, correcting=action == "correct")
    elif action in ("correct", "paper"):
        form = ScoreLineForm(request.POST)
        correcting = action == "correct"
        if not form.is_valid() or (correcting and not form.cleaned_data["reason"].strip()):
            messages.error(
                request,
                _("Not stored: give both scores and a reason.") if correcting else _("Not stored: give both scores."),
            )
            return back
        event = form.event("result_corrected" if correcting else "result_recorded")
        if _append(request, tournament, [event]):
            messages.success(
                request,
                (_("Table %(table)s corrected.") if correcting else _("Table %(table)s recorded from paper."))
                % {"table": event["table"]},
            )
    elif action == "adjust":
        form = _adjust_form(state, request.POST)
        if not form.is_valid():
            messages.error(request, _("Not stored: an adjustment needs an entry and a reason."))
            return back
        d = form.cleaned_data
        event = {
            "type": "score_adjusted",
            "entry": d["entry"],
            "vp": d["vp"] or 0,
            "points": d["points"] or 0,
            "reason": d["reason"],
        }
        if _append(request, tournament, [event]):
            messages.success(request, _("Adjustment recorded."))
    elif action == "clock":
        _start_clock(request, tournament, state)
    elif action == "short":
        short_round.shorten(request, state, lambda events: _append(request, tournament, events))
    elif action == "close" and state.current_round is None:
        messages.error(request, _("No round has been paired yet."))
    elif action == "close":
        number = state.current_round.number
        if _append(request, tournament, [{"type": "round_closed", "round": number}]):
            messages.success(request, _("Round %(round)s closed.") % {"round": number})
    elif action == "finish":
        if _append(request, tournament, [{"type": "tournament_finished"}]):
            messages.success(request, _("The tournament is finished: these are the final standings."))
    else:
        messages.error(request, _("Unknown action."))
    return back


def _paper_lines(
    request: HttpRequest, tournament: Tournament, state: core.TournamentState, *, correcting: bool
) -> None:
    """A paper result line by line: a duplicate table's N/S and E/W points of each of the round's
    boards, or a DTM table's hands (the points and the side of a double victory, if any), whose VP
    the tournament counts from the lines (nobody types them)."""
    duplicate = state.header["system"] == "duplicate"
    prefix = "board" if duplicate else "hand"
    try:
        number, table = int(request.POST.get("round", "")), int(request.POST.get("table", ""))
        hands = [
            [int(request.POST.get(f"{prefix}_{i}_{s}", "")) for s in (0, 1)]
            for i in range(short_round.lines_of_table(state, number, table))
        ]
    except ValueError:
        messages.error(
            request,
            _("Not stored: give both pairs' points on every board.")
            if duplicate
            else _("Not stored: give both sides' points on every hand."),
        )
        return
    reason = request.POST.get("reason", "").strip()
    if correcting and not reason:
        messages.error(request, _("Not stored: a correction needs a reason."))
        return
    lines: list[dict[str, Any]] = []
    for i, points in enumerate(hands):
        side = request.POST.get(f"dv_{i}", "") if not duplicate else ""
        lines.append({"points": points, **({"double_victory": int(side)} if side in ("0", "1") else {})})
    event: dict[str, Any] = {
        "type": "result_corrected" if correcting else "result_recorded",
        "round": number,
        "table": table,
        "hands": lines,
    }
    if correcting:
        event["reason"] = reason
    if _append(request, tournament, [event]):
        messages.success(
            request,
            (_("Table %(table)s corrected.") if correcting else _("Table %(table)s recorded from paper."))
            % {"table": table},
        )


def _start_clock(request: HttpRequest, tournament: Tournament, state: core.TournamentState) -> None:
    """The current round's clock, started now (the service gives the instant)."""
    current = state.current_round
    minutes = request.POST.get("minutes", "").strip()
    if current is None:
        messages.error(request, _("No round has been paired yet."))
        return
    if not minutes.isdigit() or not 1 <= int(minutes) <= core.MAX_CLOCK_MINUTES:
        messages.error(
            request,
            _("Not stored: give the round's length in minutes, from 1 to %(most)s.") % {"most": core.MAX_CLOCK_MINUTES},
        )
        return
    event = {"type": "round_clock_started", "round": current.number, "minutes": int(minutes)}
    if _append(request, tournament, [event]):
        messages.success(
            request,
            _("Round %(round)s's clock started: %(minutes)s minutes.")
            % {"round": current.number, "minutes": int(minutes)},
        )


def _correct_hand(request: HttpRequest, tournament: Tournament) -> None:
    """The TD's correction of a table whose result is its game's: one hand of the game, as the score
    sheet has it (calls, who went out first and second, North/South's card points), with a reason.
    The engine checks it as it checks a hand typed from a score sheet."""
    post = request.POST
    try:
        number, table, hand = int(post.get("round", "")), int(post.get("table", "")), int(post.get("hand", ""))
        first = int(post.get("out_0", ""))
        second = int(post["out_1"]) if post.get("out_1", "") != "" else None
        points_ns = int(post["points_0"]) if post.get("points_0", "") != "" else None
    except ValueError:
        messages.error(request, _("Not stored: give the hand's number, who went out first and the card points."))
        return
    out = [first] if second is None else [first, second]
    double = second is not None and first % 2 == second % 2
    calls = {
        str(seat): post[f"call_{seat}"]
        for seat in range(SEATS_AT_TABLE)
        if post.get(f"call_{seat}") in ("tichu", "grand_tichu")
    }
    points = None if double or points_ns is None else [points_ns, 100 - points_ns]
    try:
        services.correct_table_hand(
            tournament_id=tournament.pk,
            round_number=number,
            table=table,
            hand=hand,
            calls=calls,
            out=out,
            points=points,
            reason=post.get("reason", ""),
            user=request.user,
        )
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(
        request,
        _("Table %(table)s: hand %(hand)s corrected on its game; the other side is asked again.")
        % {"table": table, "hand": hand},
    )


def _make_games(request: HttpRequest, tournament: Tournament, state: core.TournamentState) -> None:
    current = state.current_round
    if current is None:
        messages.error(request, _("No round has been paired yet."))
        return
    try:
        links = services.make_round_games(tournament_id=tournament.pk, round_number=current.number, user=request.user)
    except ServiceError as err:
        messages.error(request, refusal(err, _("Not stored")))
        return
    messages.success(
        request,
        _("Round %(round)s: %(count)s table games ready to be entered.")
        % {"round": current.number, "count": len(links)},
    )


def _take_results(request: HttpRequest, tournament: Tournament, state: core.TournamentState) -> None:
    current = state.current_round
    if current is None:
        return
    taken = 0
    for link in services.finished_table_games(tournament, current.number):
        if current.tables[link.table].result is not None:
            continue
        try:
            services.record_result_from_game(
                tournament_id=tournament.pk, round_number=current.number, table=link.table, user=request.user
            )
        except ServiceError as err:
            messages.error(request, refusal(err, _("Table %(table)s: not stored") % {"table": link.table}))
            continue
        taken += 1
    if taken:
        messages.success(
            request,
            ngettext(
                "Results of %(count)d table taken from their games.",
                "Results of %(count)d tables taken from their games.",
                taken,
            )
            % {"count": taken},
        )
    else:
        messages.info(request, _("No finished game without a result."))


@login_required
def tournament_pair(request: HttpRequest, pk: int) -> HttpResponse:
    """The next round's pairing: proposed by the core with its explanation, editable before it is
    published. Publishing stores the pairing (as edited) and makes the tables' games."""
    tournament = _tournament(request, pk)
    if not _can_run(request, tournament.club):
        raise Http404("no such page")
    state = selectors.state_at(tournament)
    per_side = 1 if state.header["entrants"] == "pairs" else 2
    if request.method == "POST":
        event = _pairing_from_post(request, state, per_side)
        if event is not None and _append(request, tournament, [event]):
            try:
                services.make_round_games(tournament_id=tournament.pk, round_number=event["round"], user=request.user)
            except ServiceError as err:
                messages.error(request, refusal(err, _("The round is paired but its games were not made")))
            else:
                messages.success(
                    request, _("Round %(round)s published: the tables can start.") % {"round": event["round"]}
                )
            return redirect("tournaments:tournament", pk=pk)
        state = selectors.state_at(tournament)
    try:
        proposal = core.propose(state).event()
    except core.TournamentError as err:
        if err.code != "pairing_manual":
            err.message = refusal_words.message(err)
            messages.error(request, refusal(err, _("No pairing can be proposed")))
            return redirect("tournaments:tournament", pk=pk)
        proposal = _empty_pairing(state, per_side)
    choices = [("", "—")] + [(e, state.entries[e].name) for e in state.active_entries()]
    tables = [
        {
            "number": t["table"],
            "sides": [
                [{"name": f"t{t['table']}-s{s}-{k}", "value": entry} for k, entry in enumerate(side)]
                for s, side in enumerate(t["sides"])
            ],
        }
        for t in proposal["tables"]
    ]
    return render(
        request,
        "tournaments/pair.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "round": proposal["round"],
            "tables": tables,
            "byes": [state.entries[b].name for b in proposal["byes"]],
            "proposal": proposal,
            "choices": choices,
            "explanation": proposal.get("explanation") or {},
            "seq": tournament.seq,
            "plain": explanation_words.plain(proposal.get("explanation") or {}),
            "method": explanation_words.method(proposal.get("explanation") or {}),
            "constraints": explanation_words.constraints(proposal.get("explanation") or {}),
            "names": {e: state.entries[e].name for e in state.entries},
        },
    )


def _empty_pairing(state: core.TournamentState, per_side: int) -> dict:
    active = state.active_entries()
    count = len(active) // (2 * per_side)
    number = len(state.rounds) + 1
    return {
        "type": "round_paired",
        "round": number,
        "byes": [],
        "tables": [{"table": t + 1, "sides": [[""] * per_side, [""] * per_side]} for t in range(count)],
        "explanation": {"system": "manual", "method": "seated by the tournament director"},
    }


def _pairing_from_post(request: HttpRequest, state: core.TournamentState, per_side: int) -> dict | None:
    """The round_paired event from the pairing form; the byes are the active entries left out.
    Unchanged, it is the core's proposal with its explanation; edited, the explanation says so
    and keeps what was proposed."""
    tables, seated = [], []
    count = request.POST.get("tables", "0")
    for t in range(1, int(count) + 1 if count.isdigit() else 1):
        sides = [[request.POST.get(f"t{t}-s{s}-{k}", "") for k in range(per_side)] for s in (0, 1)]
        if any(not e for side in sides for e in side):
            messages.error(request, _("Not stored: table %(table)s has an empty seat.") % {"table": t})
            return None
        tables.append({"table": t, "sides": sides})
        seated += [e for side in sides for e in side]
    byes = [e for e in state.active_entries() if e not in seated]
    try:
        proposal = core.propose(state).event()
    except core.TournamentError:
        proposal = _empty_pairing(state, per_side)
    if proposal["tables"] == tables and sorted(proposal["byes"]) == sorted(byes):
        return proposal
    explanation = {
        "system": state.header["system"],
        "method": "seated by the tournament director",
        "proposed": proposal.get("explanation"),
    }
    return {
        "type": "round_paired",
        "round": proposal["round"],
        "tables": tables,
        "byes": byes,
        "explanation": explanation,
    }
