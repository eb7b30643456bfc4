"""Table codes on the site: `/t/` (type a code), `/t/<code>/` (open the table's game entry with
it), and the round's table cards for the TD to print (code and QR code of each table)."""

from __future__ import annotations

import math

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games import selectors as game_selectors
from games.services import ServiceError
from games.tournaments import at_the_table, code_throttle, online_tables, selectors, services, table_codes
from replay.tournaments.refusals import refusal


@never_cache
def code_form(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("code")
    if raw:
        code = table_codes.normalise(raw)
        if code is not None:
            return redirect("tournaments:table-code", code=code)
        messages.error(request, _("That is not a table code: 8 letters and digits, as on the table card."))
    return render(request, "tournaments/table_code.html", {"code": raw or ""})


@never_cache
def code_open(request: HttpRequest, code: str) -> HttpResponse:
    """Keep the code in the session and open its table's game entry; the code is the credential
    for that game only (games.tournaments.middleware)."""
    try:
        code_throttle.check(request)  # wrong codes are throttled per address (games.tournaments.code_throttle)
    except code_throttle.TableCodeThrottled as throttled:
        response = render(
            request, "tournaments/table_code.html", {"code": code[:32], "throttled": str(throttled.detail)}, status=429
        )
        response["Retry-After"] = str(math.ceil(throttled.wait or 1))
        return response
    holder = table_codes.holder_for(code)
    if holder is None:
        ended = table_codes.ended_code(code)
        if ended is not None:  # a real card, replaced or withdrawn: say what to do (not a guess)
            return render(
                request,
                "tournaments/table_code.html",
                {"code": "", "ended": table_codes.ended_message(ended), "ended_reason": ended.end_reason},
                status=410,
            )
        code_throttle.failed(request)
        return render(request, "tournaments/table_code.html", {"code": code, "refused": True}, status=404)
    request.session[table_codes.SESSION_KEY] = holder.table_code.code
    done = _earlier_game(holder, request.GET.get("after"))
    if done is not None:  # the table's earlier game: its result and where its players sit now
        return render(
            request,
            "tournaments/table_done.html",
            {
                "after": at_the_table.lead_on(done),
                "view": {"round": done.round, "table": done.table},
                "next_url": reverse("tournaments:table-code", args=[holder.table_code.code]),
            },
        )
    if game_selectors.game_finished(holder.table_code_game):
        return redirect("tournaments:table-result", pk=holder.table_code_game)
    online = online_tables.of_game(holder.table_code_game)
    if online is not None:  # played online: the table's page hands each player their seat
        return _online_seats(request, online)
    return redirect("entry:enter", pk=holder.table_code_game)


def _online_seats(request: HttpRequest, online) -> HttpResponse:
    """The table's seats at its online table, each one's link: the players pick their own."""
    link = at_the_table.table_of_game(online.game_id)
    seats = [
        {
            "seat": s.seat,
            "name": s.player.name,
            "joined": s.joined_at is not None,
            "bot": bool(s.bot),
            "secret": s.secret,
        }
        for s in online.seats.select_related("player").order_by("seat")
    ]
    return render(
        request,
        "tournaments/online_seats.html",
        {
            "seats": seats,
            "view": {"round": link.round, "table": link.table} if link else None,
            "game_id": online.game_id,
        },
    )


def _earlier_game(holder, raw):
    """The TableGame of an earlier game of the holder's table named by `raw` (?after=), or None."""
    if not isinstance(raw, str) or not raw.isdigit() or len(raw) > 12 or int(raw) == holder.table_code_game:
        return None
    if int(raw) not in table_codes.table_game_ids(holder.table_code):
        return None
    return at_the_table.table_of_game(int(raw))


def qr_svg(url: str) -> str:
    """The QR code of `url` as inline SVG (segno; error correction M, readable from a printed card)."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2)


def card_url(request: HttpRequest, code: str) -> str:
    return request.build_absolute_uri(reverse("tournaments:table-code", args=[code]))


def round_cards(request: HttpRequest, tournament, round_number: int) -> list[dict]:
    """Each table's card: its number, who sits where, its code (printed form) and the QR code."""
    state = selectors.state_at(tournament)
    rnd = selectors.round_of(state, round_number)
    if rnd is None:
        raise Http404("no such round")
    codes = services.round_table_codes(tournament_id=tournament.pk, round_number=round_number, user=request.user)
    cards = []
    for number, table in sorted(rnd.tables.items()):
        row = codes.get(number)
        names = [" & ".join(state.entries[e].name for e in side) for side in table.sides]
        url = card_url(request, row.code) if row else None
        cards.append(
            {
                "table": number,
                "ns": names[0],
                "ew": names[1],
                "code": table_codes.printed(row.code) if row else None,
                "url": url,
                # a tournament made before entry PINs: each side's PIN, on its own slip (not on
                # the card the table shares); empty with entry PINs (entry_slips)
                "ns_pin": table_codes.printed_pin(row.ns_pin) if row else None,
                "ew_pin": table_codes.printed_pin(row.ew_pin) if row else None,
                "qr": mark_safe(qr_svg(url)) if url else None,
            }
        )  # noqa: S308 - segno's own SVG
    return cards


def entry_slips(tournament) -> list[dict]:
    """Each entry's slip for the evening (issue 33): its name and its PIN, in the order of
    registration; an entry registered since the last round was made gets its PIN here. Empty
    for a tournament whose table codes keep their side PINs (made before entry PINs)."""
    state = selectors.state_at(tournament)
    pins = table_codes.pins_for_slips(tournament, list(state.entries))
    if pins is None:
        return []
    return [
        {"entry": e, "name": entry.name, "pin": table_codes.printed_pin(pins[e])}
        for e, entry in state.entries.items()
        if entry.active
    ]


@never_cache
@login_required
def table_cards(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    tournament = selectors.tournament_get(request.user, pk)
    if not game_selectors.can_write(request.user, tournament.club):
        raise PermissionDenied("the table codes are for the tournament's scorers and admins")
    cards = round_cards(request, tournament, round_number)
    return render(
        request,
        "tournaments/table_cards.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "round": round_number,
            "cards": cards,
            "slips": entry_slips(tournament),
        },
    )


@login_required
@require_POST
def table_code_action(request: HttpRequest, pk: int, round_number: int, table: int) -> HttpResponse:
    """Reissue (`action=reissue`) or revoke (`action=revoke`) a table's code."""
    action = request.POST.get("action")
    fn = {"reissue": services.reissue_table_code, "revoke": services.revoke_table_code}.get(action)
    if fn is None:
        messages.error(request, _("Unknown action."))
    else:
        try:
            fn(tournament_id=pk, round_number=round_number, table=table, user=request.user)
            messages.success(
                request,
                (_("Table %(table)s: code reissued.") if action == "reissue" else _("Table %(table)s: code revoked."))
                % {"table": table},
            )
        except ServiceError as err:
            messages.error(request, refusal(err, _("Not done")))
    return redirect("tournaments:tournament-cards", pk=pk, round_number=round_number)


@never_cache
@login_required
def table_result(request: HttpRequest, pk: int) -> HttpResponse:
    """At the table, after the game: send the result taken from the game, then the other side
    confirms it or disputes it with a reason (with the table's code or a scorer's account)."""
    if request.method == "POST":
        try:
            services.table_action(
                game_id=pk,
                action=request.POST.get("action", ""),
                user=request.user,
                reason=request.POST.get("reason"),
                pin=request.POST.get("pin"),
            )
        except ServiceError as err:
            messages.error(request, refusal(err, _("Not stored")))
        return redirect("tournaments:table-result", pk=pk)
    try:
        view = services.table_result(game_id=pk, user=request.user)
    except ServiceError as err:
        raise PermissionDenied(err.message) from None
    code = getattr(request.user, "table_code", None)
    # the club, so that the page reads at its clock (replay/templatetags/club_clock.py)
    return render(
        request,
        "tournaments/table_result.html",
        {
            "view": view,
            "game_id": pk,
            "club": game_selectors.club_of_game(pk),
            # after the game: its VP, the next round's seats of the table's players (or the finish)
            "after": at_the_table.lead_on(link)
            if (link := at_the_table.table_of_game(pk)) and view["score"] is not None
            else None,
            "clock": at_the_table.round_clock(link) if link else None,  # the round's clock, counting down
            "next_url": reverse("tournaments:table-code", args=[code.code]) if code is not None else None,
        },
    )


def _round_tables(tournament, round_number: int):
    state = selectors.state_at(tournament)
    rnd = selectors.round_of(state, round_number)
    if rnd is None:
        raise Http404("no such round")
    tables = [
        {
            "table": n,
            "ns": " & ".join(state.entries[e].name for e in t.sides[0]),
            "ew": " & ".join(state.entries[e].name for e in t.sides[1]),
        }
        for n, t in sorted(rnd.tables.items())
    ]
    return state, rnd, tables


def _pdf_response(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@never_cache
def round_pdf(request: HttpRequest, pk: int, round_number: int, kind: str) -> HttpResponse:
    """`cards` (the director's: they carry the codes), `pairings` and `sheets` (anyone who may
    read the tournament)."""
    from . import printouts, seat_list
    from .views import _tournament

    tournament = _tournament(request, pk)
    state, rnd, tables = _round_tables(tournament, round_number)
    if kind == "cards":
        if not request.user.is_authenticated or not game_selectors.can_write(request.user, tournament.club):
            raise PermissionDenied("the table codes are for the tournament's scorers and admins")
        data = printouts.table_cards_pdf(
            tournament.name, round_number, round_cards(request, tournament, round_number), entry_slips(tournament)
        )
    elif kind == "pairings":
        byes = [state.entries[e].name for e in rnd.byes]
        data = printouts.pairings_pdf(
            tournament.name, round_number, tables, byes, seat_list.seat_rows(state, round_number)
        )
    elif kind == "sheets":
        data = printouts.score_sheets_pdf(tournament.name, round_number, tables, state.header)
    else:
        raise Http404("no such printout")
    return _pdf_response(data, f"tournament-{pk}-round-{round_number}-{kind}.pdf")


@never_cache
def standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    from . import printouts
    from .views import _standings_context, _tournament

    tournament = _tournament(request, pk)
    context = _standings_context(tournament, request)
    data = printouts.standings_pdf(
        tournament.name, context["unit"], context["standings"], context["crosstable_rows"], context["rounds"]
    )
    return _pdf_response(data, f"tournament-{pk}-standings.pdf")
