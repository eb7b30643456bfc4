"""Scorer entry pages: the scorer's start page, a new game, and the entry page of a game.

Who may come: the club's scorers and admins (games.selectors.can_write). Anonymous visitors are
sent to the log-in page; a signed-in user who may read the club but not write gets 403; a
members-only club stays 404 to outsiders, as everywhere else.

The pages hold no rule of Tichu. The new-game form calls `services.game_create` (as
POST /api/games/ does); the entry page reads GET /api/games/{id}/legal/ and writes with
POST /api/games/{id}/events/ from `static/entry/main.js` (and its modules); `panels` renders the score sheet and
the event history with the viewer's templates for the script to swap in.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games import engine, selectors, services, visibility
from games.tournaments import at_the_table, game_table
from replay import frames
from replay import present as viewer
from replay.data import replay_data

from . import forms, present, tien_zi_que

if TYPE_CHECKING:  # types only: the pages read through the selectors
    from games.models import Club, Game


def _writable_club(request, slug: str) -> Club:
    club = get_object_or_404(selectors.clubs_visible(request.user), selectors.club_q(slug))  # slug or id
    if not selectors.can_write(request.user, club):
        raise PermissionDenied("recording games needs the scorer or admin role in this club")
    return club


def _writable_game(request, pk: int) -> Game:
    game = selectors.game_get(request.user, pk)  # Http404 when the club is hidden from the user
    if game.viewer_role not in selectors.WRITER_ROLES:
        raise PermissionDenied("recording games needs the scorer or admin role in this club")
    return game


@login_required
def entry_home(request):
    """The clubs the user scores for, with their games still being played."""
    clubs = selectors.writer_clubs(request.user)
    rows = []
    for club in clubs:
        active = selectors.active_games(club, 20)
        rows.append(
            {"club": club, "games": [{"game": g, "players": [s.player.name for s in g.seats.all()]} for g in active]}
        )
    return render(request, "entry/home.html", {"rows": rows})


@login_required
def new_game(request, slug: str):
    club = _writable_club(request, slug)
    members = list(selectors.roster(club))
    error = error_code = None
    if request.method == "POST":
        form = forms.NewGame(request.POST, members=members)
        if form.is_valid():
            try:
                result = services.game_create(
                    club=club,
                    variant=form.cleaned["variant"],
                    options=form.cleaned["options"],
                    players=form.cleaned["players"],
                    user=request.user,
                    idempotency_key=form.cleaned["token"],
                )
            except services.ServiceError as err:  # the code stays out of the words (data-code)
                error, error_code = err.message, err.code
            else:
                return redirect("entry:enter", pk=result.body["id"])
        else:
            error = form.error
    else:
        form = forms.NewGame(None, members=members)
    return render(
        request,
        "entry/new_game.html",
        {
            "club": club,
            "form": form,
            "error": error,
            "error_code": error_code,
            "token": uuid.uuid4().hex,
            "variants": forms.variant_choices(form),
            "presets": forms.preset_choices(),
        },
        status=400 if error else 200,
    )


def grand_tichu_allowed(game) -> bool:
    """Whether the game's options let a player call Grand Tichu (the option's value, or its default
    under the game's preset): the score-sheet form offers the call only then."""
    given = game.options or {}
    option = next((o for o in engine.game_info(game.variant).options if o.name == "grand_tichu"), None)
    if option is None:
        return False
    return bool(given.get("grand_tichu", option.default(given.get("preset", "rio"))))


def sheet_facts(variant: str) -> dict:
    """What the score-sheet form asks for in this game (the engine's registry: calls, card points,
    how many of one team going out first end the hand at once, the dealer)."""
    return engine.game_info(variant).sheet.as_dict()


@never_cache
@ensure_csrf_cookie
@login_required
def enter(request, pk: int):
    game = _writable_game(request, pk)
    if tien_zi_que.enters(game.variant):  # a game of its own board: its own page
        return tien_zi_que.enter_page(request, game)
    players = [s.player.name for s in game.seats.select_related("player")]
    sheet = sheet_facts(game.variant)
    return render(
        request,
        "entry/enter.html",
        {
            "game": game,
            "club": game.club,
            # a tournament table's game is named by its round and table (what the table card says)
            "table_game": (table_game := at_the_table.table_of_game(game.pk)),
            # the table's round clock, counting down (issue 33, item 4)
            "clock": at_the_table.round_clock(table_game) if table_game else None,
            "players": players,
            "sheet_form": sheet,
            # the order-out fields name every seat (Threechu's dummy too)
            "seat_names": engine.seat_names(game.variant, players, get_language()),
            # Grand Seigneur: no card points, no sweep: the whole finishing order is the hand's result
            "finishing_order": sheet["enabled"] and not sheet["points"] and not sheet["sweep"],
            "rank_scoring": (game.options or {}).get("scoring") == "ranks",
            # a tournament table whose result is this game's: a change here (an undo too) changes it
            "tournament_table": game_table.table_of(game, request.user),
            "call_names": frames.labels(get_language())["calls"],  # the engine's, in the reader's language
            "grand_tichu": grand_tichu_allowed(game),  # no Grand Tichu choice where the options forbid it
            # the engine's card faces and words for static/shared/cards.js (one wording for every page)
            "words": engine.page_words(get_language(), game.variant),
            "seat_labels": viewer.seat_labels(game.variant, players, (game.options or {}).get("direction")),
            "config": {
                "game": game.pk,
                "seq": game.seq,
                "players": players,
                "seat_names": engine.seat_names(game.variant, players, get_language()),
                "variant": game.variant,
                "legal_url": reverse("game-legal", args=[game.pk]),
                "events_url": reverse("game-events", args=[game.pk]),
                "panels_url": reverse("entry:panels", args=[game.pk]),
                "sheet": sheet,
                "csrf": get_token(request),  # also in the csrftoken cookie; this works if that is HttpOnly
                "login_url": f"{settings.LOGIN_URL}?next={request.path}",
                "rank_names": engine.RANK_NAMES,
                "rank_phrases": engine.RANK_PHRASES,  # "an 8", "a 10": the article as the rank is spoken
                "card_words": engine.card_words(
                    game.variant
                ),  # the words a scorer may type for a card (the API reads them too)
                "cards": engine.card_table(),
            },
            **present.panels_context(game, replay_data(game, visibility.reader_sight(game, request.user))),
        },
    )


#: how many of the latest events the panels answer words (a batch the page sends is shorter: an
#: exchange is 3 or 4 pushes, a whole hand from the score sheet one event)
SAID_EVENTS = 16


@never_cache
@login_required
def panels(request, pk: int):
    """The score sheet and the history as HTML, for the entry page's script to swap in."""
    game = _writable_game(request, pk)
    if tien_zi_que.enters(game.variant):  # its running score, drawn by the one template
        return tien_zi_que.sheet_panel(request, game)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    context = {"game": game, **present.panels_context(game, data)}
    return JsonResponse(
        {
            "seq": game.seq,
            "status": game.status,
            "undo_target": context["undo_target"],
            # the latest events as the replay says them (the engine's words with the position after
            # each, in the reader's language): the page's "Saved: ..." line uses them
            "said": present.event_texts(data, max(1, game.seq - SAID_EVENTS + 1), game.seq),
            "sheet": render_to_string("entry/_sheet_panel.html", context, request=request),
            "history": render_to_string("entry/_history.html", context, request=request),
        }
    )


@never_cache
@login_required
@require_POST
def tzq_round(request, pk: int):
    """A Tien Zi Que round by its score line (tien_zi_que.round_line)."""
    game = _writable_game(request, pk)
    if not tien_zi_que.enters(game.variant):
        raise Http404("only Tien Zi Que records a round by this form")
    return tien_zi_que.round_line(request, game)
