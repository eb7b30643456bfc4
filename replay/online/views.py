"""The online table's pages: the club's tables (open one), a table's seat links, a seat's page and
the seat's JSON (its view, long-polled; its action). Thin: reads through games.online.selectors,
writes through games.online.services; a refusal is answered with its code and words."""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_POST

from games import engine, live
from games import selectors as game_selectors
from games.online import replacement, seat_throttle, selectors, services, turn_clock, watch_delay
from games.services import InvalidInput, SeqConflict, ServiceError
from games.tournaments import online_tables
from replay.entry import forms as entry_forms

MAX_PLAYERS_TEXT = 2000
MAX_BOTS_TEXT = 100
#: seconds a poll waits past its table's turn clock, so the clock has run out when it checks again
CLOCK_SLACK = 0.3


if TYPE_CHECKING:
    from games.models import Club
    from games.online.models import OnlineTable

_T = TypeVar("_T")


def _found(row: _T | None) -> _T:
    """The row, or the page's 404 (what get_object_or_404 says, through the online selectors)."""
    if row is None:
        raise Http404("no such online table or seat")
    return row


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
    rows = selectors.club_tables(club, request.user, 50)
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
            "turn_seconds": turn_clock.turn_seconds(club.pk),
            "clock_range": (turn_clock.MIN_SECONDS, turn_clock.MAX_SECONDS),
            "watch_delay": watch_delay.delay_events(club.pk),
            "max_delay": watch_delay.MAX_EVENTS,
        },
    )


@never_cache
@login_required
def table(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A table's seat links, for the club's members to hand out."""
    club = _member_club(request, slug)
    online = _found(selectors.table_of(club, pk))
    if not online_tables.may_hand_out(online, request.user):
        raise Http404("a tournament table's links are the TD's")  # each player has theirs (docs/online.md)
    seats = [
        {
            "seat": s,
            "url": request.build_absolute_uri(reverse("online:seat", args=[s.secret])),
            "takeable": replacement.may_take(s, online, request.user),
        }
        for s in selectors.table_seats(online)
    ]
    return render(
        request,
        "online/table.html",
        {
            "club": club,
            "table": online,
            "seats": seats,
            "playing": online.game.status == "active",
            "turn_seconds": turn_clock.turn_seconds(club.pk),
        },
    )


@require_POST
@login_required
def seat_to_bot(request: HttpRequest, slug: str, pk: int, seat: int) -> HttpResponse:
    """A member hands a seat whose player left to the engine's bot (services.seat_to_bot)."""
    club = _member_club(request, slug)
    online = _found(selectors.table_of(club, pk))
    if not online_tables.may_hand_out(online, request.user):
        raise Http404("a tournament table's seats are the TD's to hand over")
    target = _found(selectors.table_seat(online, seat))
    try:
        services.seat_to_bot(seat=target, user=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("online:table", slug=club.slug, pk=online.pk)


@require_POST
@login_required
def take_seat(request: HttpRequest, slug: str, pk: int, seat: int) -> HttpResponse:
    """A member takes a seat for the rest of the game (games.online.replacement) and is taken to
    its new link."""
    club = _member_club(request, slug)
    online = _found(selectors.table_of(club, pk))
    target = _found(selectors.table_seat(online, seat))
    try:
        taken = replacement.take_seat(seat=target, user=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("online:table", slug=club.slug, pk=online.pk)
    return redirect("online:seat", secret=taken.secret)


@require_POST
@login_required
def clock_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's admin sets its tables' turn clock (seconds per action, 0 off)."""
    club = _member_club(request, slug)
    text = request.POST.get("turn_seconds", "").strip()[:6]
    try:
        if not text.isdigit():
            raise InvalidInput(_("the turn clock is a number of seconds (0: off)"), code="invalid")
        turn_clock.set_turn_seconds(club=club, seconds=int(text), user=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("The turn clock is set."))
    return redirect("online:tables", slug=club.slug)


@require_POST
@login_required
def watch_delay_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's admin sets how many events behind its watchers see a table (0 live)."""
    club = _member_club(request, slug)
    text = request.POST.get("watch_delay_events", "").strip()[:6]
    try:
        if not text.isdigit():
            raise InvalidInput(_("the watching delay is a number of events (0: live)"), code="invalid")
        watch_delay.set_delay_events(club=club, events=int(text), user=request.user)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("The watching delay is set."))
    return redirect("online:tables", slug=club.slug)


@never_cache
@login_required
def watch(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A club member watches the table live: the seat page's table, no hand while it is in play
    (games.visibility.watcher_sight); the replay opens when the game ends."""
    club = _member_club(request, slug)
    online = _found(selectors.table_of(club, pk))
    if not online_tables.may_watch(online, request.user):
        raise Http404("a duplicate board in play stays at its tables")
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
                "view": selectors.watch_view(online, request.user),
                "watching": True,
                "players": players,
                "seat_names": engine.seat_names(game.variant, players, get_language()),
                "board": engine.game_info(game.variant).board,
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
    online = _found(selectors.table_of(club, pk))
    if not online_tables.may_watch(online, request.user):
        raise Http404("a duplicate board in play stays at its tables")
    after, wait = _poll_args(request)
    # on the club's delay the poll waits for the event that moves the position shown (no sooner:
    # an answer at once would say the table had moved on)
    _follow(online, watch_delay.poll_after(after, watch_delay.delay_events(club.pk)), wait)
    return JsonResponse(selectors.watch_view(online, request.user))


def _poll_args(request: HttpRequest) -> tuple[int, float]:
    try:
        return int(request.GET.get("after", "")), float(request.GET.get("wait", "0"))
    except ValueError:
        return -1, 0.0


class SeatLinksThrottled(Exception):
    def __init__(self, wait: int) -> None:
        self.wait = wait


def _seat(request: HttpRequest, secret: str):
    """The seat a link names; a link naming none counts against the client's address, and an
    address at its limit is refused before the lookup (games.online.seat_throttle)."""
    wait = seat_throttle.wait_left(request)
    if wait is not None:
        raise SeatLinksThrottled(wait)
    seat = selectors.seat_by_secret(secret)
    if seat is None:
        seat_throttle.failed(request)
        raise Http404("no such seat")
    return seat


def _throttled(request: HttpRequest, wait: int, as_json: bool) -> HttpResponse:
    minutes = max(1, round(wait / 60))
    detail = ngettext(
        "Too many wrong seat links: try again in %(minutes)d minute.",
        "Too many wrong seat links: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    if as_json:
        response: HttpResponse = JsonResponse({"code": "throttled", "detail": detail, "retry_after": wait}, status=429)
    else:
        response = render(request, "online/throttled.html", {"detail": detail}, status=429)
    response["Retry-After"] = str(wait)
    return response


def throttled_links(as_json: bool):
    """Answer a throttled client 429 (a page, or JSON for the page's script) with Retry-After."""

    def wrap(view):
        @functools.wraps(view)
        def inner(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except SeatLinksThrottled as throttled:
                return _throttled(request, throttled.wait, as_json)

        return inner

    return wrap


@never_cache
@ensure_csrf_cookie
@require_http_methods(["GET", "HEAD", "POST"])
@throttled_links(as_json=False)
def seat_page(request: HttpRequest, secret: str) -> HttpResponse:
    """A seat's page. Opening a link never joins (a link preview opens it too): a seat not joined
    yet shows "Take seat ..." and a button; its POST (CSRF-checked) joins, and the table deals
    once every seat has. A joined seat's link shows the seat's page."""
    seat = _seat(request, secret)
    if request.method == "POST":
        services.join(seat)
        return redirect("online:seat", secret=secret)
    if seat.joined_at is None and not seat.bot:
        return render(
            request,
            "online/take_seat.html",
            {"seat": seat, "table": seat.table, "club": seat.table.game.club, "game": seat.table.game},
        )
    turn_clock.enforce(seat.table_id)
    view = selectors.seat_view(seat, request.user)
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
                "board": engine.game_info(game.variant).board,  # the table the page draws (tzq.js: rounds)
                "view_url": reverse("online:seat-view", args=[secret]),
                "act_url": reverse("online:seat-act", args=[secret]),
                "replay_url": reverse("replay:game-replay", args=[game.pk]),
            },
        },
    )


def _follow(table: OnlineTable, after: int, wait: float) -> None:
    """A poll's wait (games.live), no longer than the table's turn clock has left, and the clock
    played on each side of it (games.online.turn_clock: no process keeps a timer)."""
    turn_clock.enforce(table.pk)
    if after >= 0 and wait > 0:
        clock = turn_clock.read_clock(table.pk)
        left = clock.left(timezone.now()) if clock is not None else 0.0
        if left > 0:  # (a clock run out that enforce could not play leaves the wait as it was)
            wait = min(wait, left + CLOCK_SLACK)
        live.wait_for_seq(table.game_id, after, wait)
        turn_clock.enforce(table.pk)


@never_cache
@throttled_links(as_json=True)
def seat_view(request: HttpRequest, secret: str) -> HttpResponse:
    """The seat's view; with `after` and `wait`, a long poll (games.live) that answers as soon as
    the game's stream grows past `after` (or the turn clock runs out)."""
    seat = _seat(request, secret)
    after, wait = _poll_args(request)
    _follow(seat.table, after, wait)
    return JsonResponse(selectors.seat_view(seat, request.user))


@require_POST
@throttled_links(as_json=True)
def seat_act(request: HttpRequest, secret: str) -> HttpResponse:
    """The seat's action: `{"action": {...}, "expected_seq": n}`, Idempotency-Key in a header.
    The answer is the seat's view afterwards; a refusal is 409 (the table moved on: the view comes
    with it) or 400, with its code and words."""
    seat = _seat(request, secret)
    turn_clock.enforce(seat.table_id)  # a turn run out is the bot's, before this action is looked at
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
                "view": selectors.seat_view(seat, request.user),
                "detail": _("The table moved on before your action arrived: look again and choose."),
            },
            status=409,
        )
    except ServiceError as err:
        return JsonResponse(
            {"code": err.code, "detail": err.message, "view": selectors.seat_view(seat, request.user)}, status=400
        )
    return JsonResponse({"ok": True, "view": selectors.seat_view(seat, request.user)})
