"""The step-through replay: the page at `?at=N` (complete without JavaScript) and its frames as
JSON for a page following a game in play.

Reads follow the club's visibility through `games.selectors` (members-only clubs answer 404 to
outsiders, as the API does). Everything shown about a game comes from the engine's frames
(`replay.frames`), cached per game and seq (`replay.data`). The page's script
(`static/replay/main.js` and its ES modules, docs/viewer.md) redraws the same markup from the
embedded frames.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games import engine, selectors, visibility
from games.tournaments import game_table

from . import frames, present
from .data import replay_data
from .moments import Moments, moments

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Game


def _visible_game(request, pk: int) -> Game:
    return selectors.game_get(request.user, pk, prefetch=("seats__player",))


def _my_seats(request, game: Game) -> list[int]:
    """The seats of `game` whose roster player is the reader (an approved "This is me" claim)."""
    if not isinstance(getattr(request.user, "pk", None), int):  # a visitor, or a table's code holder: no account
        return []
    return [s.seat for s in game.seats.all() if s.player.user_id == request.user.pk]


def game_replay(request, pk: int):
    game = _visible_game(request, pk)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    return render_replay(
        request, data, title=gettext("Game %(game)s") % {"game": game.pk}, game=game, my_seats=_my_seats(request, game)
    )


def game_replay_data(request, pk: int):
    """The replay's frames as JSON (the payload the page embeds), for a page following a game in
    play (static/replay/live_replay.js): the same cached data, masked for the same reader."""
    game = _visible_game(request, pk)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    response = HttpResponse(data.payload_script_text(), content_type="application/json")
    response["Cache-Control"] = "private, no-cache"
    return response


def render_replay(
    request, data: frames.ReplayData, *, title: str, game: Game | None = None, my_seats: list[int] | None = None
):
    """The replay page of `data` at `?at=N` (default: the end), `view` and `bottom` from the URL.
    A game of the reader's own (`my_seats`) opens from their seat unless the address says a view."""
    my_seats = my_seats or []
    n_seats = len(data.players)
    raw_at = request.GET.get("at")
    try:
        at = int(raw_at) if raw_at not in (None, "") else data.length
    except ValueError:
        raise Http404("at must be a position number") from None
    at = max(0, min(at, data.length))
    # Masked cards are in the frames themselves ("?"): every view shows no more than the reader may see.
    view = present.parse_view(request.GET.get("view"), n_seats, my_seats[0] if my_seats else "all")
    bottom = present.parse_seat(request.GET.get("bottom"), n_seats, view if isinstance(view, int) else 0)
    show_undone = request.GET.get("undone") == "1"  # corrections are folded away unless asked for
    if request.GET.get("part") == "hand-log":
        return _hand_log_part(request, data, at, view, bottom, show_undone)
    frame = data.frame_at(at)
    found = moments(data, my_seats)
    here = found.hand_index(at)
    context = {
        "title": title,
        "game": game,
        "club": game.club if game else None,
        "data": data,
        "at": at,
        "view": view,
        "bottom": bottom,
        "seat_labels": present.seat_labels(data.variant, data.players, data.options.get("direction")),
        "views": [{"value": "all", "label": gettext("All hands")}]
        + [
            {"value": i, "label": gettext("%(player)s's view") % {"player": name}}
            for i, name in enumerate(data.players)
        ],
        "nav": present.nav_targets(data.marks, at, data.length, show_undone),
        "show_undone": show_undone,
        "undone_count": len(data.marks.get("undone", [])),
        "legend": BADGE_LEGEND,
        "log": present.hand_log(data, at),
        "phase": frame.get("phase") or "",  # the table's mount; the table and panel are the script's
        "board": present.board(data.variant),
        "payload": data.payload_script_text(),
        # the engine's card faces and words in the reader's language, for static/shared/cards.js
        "words": engine.page_words(data.lang, data.variant),
        "speeds": [(ms, label) for ms, label in SPEEDS],
        "moments": found,
        "moments_json": {**found.as_json(), "my_seats": my_seats},
        "current_hand": found.hands[here] if here is not None else None,
        "current_trick": max((t for t in found.hands[here].tricks if t <= at), default=None)
        if here is not None
        else None,
        "my_calls": [c for c in found.calls if c["seat"] in my_seats],
        "slider_marks": _slider_marks(found, data.length),
        "shortcuts": SHORTCUTS,
        "tournament_table": game_table.table_of(game, request.user) if game is not None else None,
    }
    return render(request, "replay/replay.html", context)


def _hand_log_part(request, data: frames.ReplayData, at: int, view, bottom: int, show_undone: bool) -> HttpResponse:
    """The hand's event list around `at` alone, for the page's script when the reader moves to
    another hand (the list has one drawing, present.hand_log_html). `upto`: the last position the
    script's frames hold (a game in play may have grown since its page was loaded)."""
    try:
        upto = int(request.GET.get("upto", data.length))
    except ValueError:
        raise Http404("upto must be a position number") from None
    log = present.hand_log(data, at, upto)
    response = HttpResponse(present.hand_log_html(log, view, bottom, show_undone))
    response["X-Hand-Log-Key"] = present.hand_log_key(log, view, bottom, show_undone)
    response["Cache-Control"] = "private, no-cache"
    return response


def _slider_marks(found: Moments, length: int) -> list[tuple[str, float]]:
    """(kind, percent along the slider) of each mark under it: hand starts, calls, bombs and the
    reader's own plays (static/replay/moments.js draws the same)."""
    if not length:
        return []
    out = [("hand", h.at) for h in found.hands] + [("call", c["at"]) for c in found.calls]
    out += [("bomb", n) for n in found.bombs] + [("mine", n) for n in found.mine]
    return [(kind, round(100 * n / length, 2)) for kind, n in out]


#: What each badge at a seat means (the page's legend; the badges are written by the template and
#: by static/replay/table.js with these texts as titles).
BADGE_LEGEND = [
    (pgettext_lazy("badge: called Tichu", "T"), "call-tichu", gettext_lazy("called Tichu")),
    (pgettext_lazy("badge: called Grand Tichu", "GT"), "call-grand_tichu", gettext_lazy("called Grand Tichu")),
    (pgettext_lazy("badge: went out", "out #1"), "out", gettext_lazy("went out first (#2 second, ...)")),
    (pgettext_lazy("badge: shuffled", "S"), "shuffler", gettext_lazy("shuffled this hand")),
    (pgettext_lazy("badge", "to play"), "to-act", gettext_lazy("is to play now")),
    (
        pgettext_lazy("badge", "gives the Dragon trick"),
        "gift",
        gettext_lazy("won a trick with the Dragon and must give it away"),
    ),
]

#: The autoplay's speeds (milliseconds per event), for static/replay/autoplay.
SPEEDS = [
    ("2000", gettext_lazy("slow")),
    ("1000", gettext_lazy("normal")),
    ("400", gettext_lazy("fast")),
    ("100", gettext_lazy("very fast")),
]

#: The keyboard shortcuts, listed on the page and bound by static/replay/keys.js. The keys' names
#: are the keyboard's (a German keyboard says Pos1, Bild↑: translated with the rest).
SHORTCUTS = [
    (gettext_lazy("← or k"), gettext_lazy("previous event")),
    (gettext_lazy("→ or j"), gettext_lazy("next event")),
    (gettext_lazy("↑ or Shift+←"), gettext_lazy("previous trick")),
    (gettext_lazy("↓ or Shift+→"), gettext_lazy("next trick")),
    (gettext_lazy("Page Up or p"), gettext_lazy("previous hand")),
    (gettext_lazy("Page Down or n"), gettext_lazy("next hand")),
    (gettext_lazy("Home or 0"), gettext_lazy("first position")),
    (gettext_lazy("End or $"), gettext_lazy("last position")),
    (gettext_lazy("Space"), gettext_lazy("autoplay on/off")),
    ("+ / -", gettext_lazy("autoplay faster / slower")),
    ("v", gettext_lazy("next view: all hands, then each seat")),
    ("f", gettext_lazy("turn the table (next seat nearest you)")),
    ("?", gettext_lazy("show or hide this help")),
]
