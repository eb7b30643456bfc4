"""The online table's pages: the club's tables (open one), a table's seat links, a seat's page and
the seat's JSON (its view, long-polled; its action). Thin: reads through games.online.selectors,
writes through games.online.services; a refusal is answered with its code and words."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games import engine, live
from games import selectors as game_selectors
from games.models import Club
from games.online import selectors, services
from games.online.models import OnlineSeat, OnlineTable
from games.services import InvalidInput, SeqConflict, ServiceError
from replay.entry import forms as entry_forms

MAX_PLAYERS_TEXT = 2000
MAX_BOTS_TEXT = 100


def _bot_seats(text: str) -> list[int] | None:
    """The seats the form gives the bot ("2 3 4", counted from 1), or None when it is not numbers."""
    words = text[:MAX_BOTS_TEXT].replace(",", " ").split()
    if not all(w.isdigit() and len(w) <= 3 for w in words):
        return None
    return [int(w) - 1 for w in words]


def _member_club(request, slug: str) -> Club:
    club = get_object_or_404(game_selectors.clubs_visible(request.user), game_selectors.club_q(slug))
    if game_selectors.membership_role(request.user, club) is None:
        raise Http404("members only")
    return club


@never_cache
@login_required
def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's online tables; a member opens a new one (the game, a preset, the players)."""
    club = _member_club(request, slug)
    if request.method == "POST":
        variant = request.POST.get("variant", "")
        preset = request.POST.get("preset", "")
        names = [n.strip() for n in request.POST.get("players", "")[:MAX_PLAYERS_TEXT].splitlines() if n.strip()]
        options = {"preset": preset} if preset else None
        bots = _bot_seats(request.POST.get("bots", ""))
        try:
            if bots is None:
                raise InvalidInput(_("the bot’s seats are seat numbers, such as 2 3 4"), code="malformed")
            table = services.open_table(
                club=club, variant=variant, options=options, players=names, user=request.user, bots=bots
            )
        except ServiceError as err:
            messages.error(request, err.message)
        else:
            return redirect("online:table", slug=club.slug, pk=table.pk)
    rows = OnlineTable.objects.filter(club=club).select_related("game")[:50]
    return render(
        request,
        "online/tables.html",
        {
            "club": club,
            "role": game_selectors.membership_role(request.user, club),
            "tables": rows,
            "variants": [v for v in entry_forms.variant_choices() if engine.GAMES[v["name"]].online],
            "presets": entry_forms.preset_choices(),
            "players": request.POST.get("players", "") if request.method == "POST" else "",
            "bots": request.POST.get("bots", "")[:MAX_BOTS_TEXT] if request.method == "POST" else "",
        },
    )


@never_cache
@login_required
def table(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A table's seat links, for the club's members to hand out."""
    club = _member_club(request, slug)
    online = get_object_or_404(OnlineTable.objects.select_related("game"), club=club, pk=pk)
    seats = [
        {"seat": s, "url": request.build_absolute_uri(reverse("online:seat", args=[s.secret]))}
        for s in selectors.table_seats(online)
    ]
    return render(
        request,
        "online/table.html",
        {"club": club, "table": online, "seats": seats, "playing": online.game.status == "active"},
    )


@require_POST
@login_required
def seat_to_bot(request: HttpRequest, slug: str, pk: int, seat: int) -> HttpResponse:
    """A member hands a seat whose player left to the engine's bot (services.seat_to_bot)."""
    club = _member_club(request, slug)
    online = get_object_or_404(OnlineTable, club=club, pk=pk)
    target = get_object_or_404(OnlineSeat, table=online, seat=seat)
    try:
        services.seat_to_bot(seat=target, user=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("online:table", slug=club.slug, pk=online.pk)


@never_cache
@login_required
def watch(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A club member watches the table live: the seat page's table, no hand while it is in play
    (games.visibility.watcher_sight); the replay opens when the game ends."""
    club = _member_club(request, slug)
    online = get_object_or_404(OnlineTable.objects.select_related("game"), club=club, pk=pk)
    game = online.game
    players = [s.player.name for s in selectors.table_seats(online)]
    return render(
        request,
        "online/seat.html",
        {
            "watching": True,
            "table": online,
            "game": game,
            "club": club,
            "words": engine.page_words(get_language(), game.variant),
            "config": {
                "view": selectors.watch_view(online),
                "watching": True,
                "players": players,
                "seat_names": engine.seat_names(game.variant, players, get_language()),
                "view_url": reverse("online:watch-view", args=[club.slug, online.pk]),
                "act_url": "",
                "replay_url": reverse("replay:game-replay", args=[game.pk]),
            },
        },
    )


@never_cache
@login_required
def watch_view(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    """The watcher's view; with `after` and `wait`, a long poll like a seat's."""
    club = _member_club(request, slug)
    online = get_object_or_404(OnlineTable, club=club, pk=pk)
    after, wait = _poll_args(request)
    if after >= 0 and wait > 0:
        live.wait_for_seq(online.game_id, after, wait)
    return JsonResponse(selectors.watch_view(online))


def _poll_args(request: HttpRequest) -> tuple[int, float]:
    try:
        return int(request.GET.get("after", "")), float(request.GET.get("wait", "0"))
    except ValueError:
        return -1, 0.0


def _seat(secret: str):
    seat = selectors.seat_by_secret(secret)
    if seat is None:
        raise Http404("no such seat")
    return seat


@never_cache
@ensure_csrf_cookie
def seat_page(request: HttpRequest, secret: str) -> HttpResponse:
    """A seat's page: opening it joins the seat (the table deals once every seat has)."""
    seat = services.join(_seat(secret))
    view = selectors.seat_view(seat)
    game = seat.table.game
    players = [s.player.name for s in selectors.table_seats(seat.table)]
    return render(
        request,
        "online/seat.html",
        {
            "seat": seat,
            "game": game,
            "club": game.club,
            "words": engine.page_words(get_language(), game.variant),
            "config": {
                "view": view,
                "players": players,
                "seat_names": engine.seat_names(game.variant, players, get_language()),
                "view_url": reverse("online:seat-view", args=[secret]),
                "act_url": reverse("online:seat-act", args=[secret]),
                "replay_url": reverse("replay:game-replay", args=[game.pk]),
            },
        },
    )


@never_cache
def seat_view(request: HttpRequest, secret: str) -> JsonResponse:
    """The seat's view; with `after` and `wait`, a long poll (games.live) that answers as soon as
    the game's stream grows past `after`."""
    seat = _seat(secret)
    after, wait = _poll_args(request)
    if after >= 0 and wait > 0:
        live.wait_for_seq(seat.table.game_id, after, wait)
    return JsonResponse(selectors.seat_view(seat))


@require_POST
def seat_act(request: HttpRequest, secret: str) -> JsonResponse:
    """The seat's action: `{"action": {...}, "expected_seq": n}`, Idempotency-Key in a header.
    The answer is the seat's view afterwards; a refusal is 409 (the table moved on: the view comes
    with it) or 400, with its code and words."""
    seat = _seat(secret)
    try:
        body = json.loads(request.body or b"{}")
        action, expected = body["action"], int(body["expected_seq"])
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"code": "malformed", "detail": _("an action and the expected seq are needed")}, status=400)
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 100:
        return JsonResponse({"code": "malformed", "detail": _("the Idempotency-Key is too long")}, status=400)
    try:
        services.act(seat=seat, action=action, expected_seq=expected, idempotency_key=key)
    except SeqConflict:
        return JsonResponse(
            {
                "code": "seq_conflict",
                "view": selectors.seat_view(seat),
                "detail": _("The table moved on before your action arrived: look again and choose."),
            },
            status=409,
        )
    except ServiceError as err:
        return JsonResponse({"code": err.code, "detail": err.message, "view": selectors.seat_view(seat)}, status=400)
    return JsonResponse({"ok": True, "view": selectors.seat_view(seat)})
