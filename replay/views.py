"""HTML pages: clubs, a club's games, a game's score sheet, and the step-through replay.

Reads follow the club's visibility through `games.selectors` (members-only clubs answer 404 to
outsiders, as the API does). Everything shown about a game comes from the engine's frames
(`replay.frames`), cached per game and seq (`replay.data`).
"""
from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from games import engine, selectors, visibility
from games.models import Game

from . import frames, present
from .clubs import summary
from .data import replay_data

GAMES_PER_PAGE = 50


def _player_url(player_id: int) -> str:
    return reverse("ratings:player", args=[player_id])


def club_list(request):
    clubs = selectors.clubs_visible(request.user).annotate(game_count=Count("games"))
    return render(request, "clubs/list.html", {"clubs": clubs})


def club_detail(request, slug: str):
    club = get_object_or_404(selectors.clubs_visible(request.user), slug=slug)
    games = Game.objects.filter(club=club).prefetch_related("seats__player").order_by("-created_at", "-id")
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "clubs/detail.html", {
        "club": club,
        "page": page,
        "games": summary.summarise_all(list(page)),
        "evening": summary.latest_evening(Game.objects.filter(club=club)) if page.number == 1 else None,
        "league_url": reverse("ratings:league", args=[club.pk]),
        "role": selectors.membership_role(request.user, club),
        "can_record": selectors.can_write(request.user, club),
    })


def _visible_game(request, pk: int) -> Game:
    return get_object_or_404(selectors.games_visible(request.user), pk=pk)


def _value_words(spec: engine.Option | None, value) -> str:
    """An option's value in words: yes/no, a choice's label, a number, or "—" when unset."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if spec is not None:
        for choice in spec.kind.choices:
            if choice.value == value and type(choice.value) is type(value):
                return choice.label
        if spec.kind.name == "cards" and isinstance(value, list):
            return f"{len(value)} cards"
    return str(value)


def _options_rows(data: frames.ReplayData) -> list[dict]:
    """Every house rule of the game with its value and its one-line explanation (the engine's
    registry); the preset first, with the edition it follows."""
    given = data.given_options or {}
    info = engine.game_info(data.variant)
    by_name = {o.name: o for o in info.options}
    rows = []
    for name, value in data.options.items():
        if name == "preset":
            try:
                preset = info.preset(value)
            except KeyError:
                rows.append({"name": name, "label": "Preset", "value": value, "doc": "", "given": name in given})
                continue
            rows.append({"name": name, "label": "Preset", "value": preset.label,
                         "doc": preset.description[:1].upper() + preset.description[1:] + ".",
                         "given": name in given})
            continue
        spec = by_name.get(name)
        rows.append({"name": name, "label": spec.label if spec else name, "value": _value_words(spec, value),
                     "doc": spec.help if spec else "", "given": name in given})
    return rows


def _places(data: frames.ReplayData) -> list[str | None]:
    """Each seat's place at the table in words (South, East, ...), where the game has fixed places."""
    return engine.seat_positions(data.variant, len(data.players), str(data.options.get("direction")))


def game_detail(request, pk: int):
    game = _visible_game(request, pk)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    final = data.final
    teams = final.get("teams") or []
    labels = present.team_labels(data.players, teams)
    team_of = {s: labels[i] for i, team in enumerate(teams) for s in team}
    columns = present.score_columns(data.players, final)
    ids = {seat.seat: seat.player_id for seat in game.seats.all()}
    return render(request, "replay/game.html", {
        "game": game,
        "club": game.club,
        "can_record": selectors.can_write(request.user, game.club) and game.status != Game.Status.FINISHED,
        "data": data,
        "game_label": engine.game_label(data.variant),
        "seats": [
            {"seat": i, "place": place or f"{i + 1}.", "name": name, "team": team_of.get(i, ""),
             "url": _player_url(ids[i]) if i in ids else None}
            for i, (name, place) in enumerate(zip(data.players, _places(data)))
        ],
        "teams": columns["labels"],
        "team_totals": columns["totals"],
        "options": _options_rows(data),
        "sheet": present.sheet_rows(data.players, final.get("score_sheet") or []),
        "totals": final.get("totals") or [],
        "complete": bool(final.get("complete")),
        "winner": columns["winner"],
    })


def game_replay(request, pk: int):
    game = _visible_game(request, pk)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    return render_replay(request, data, title=f"Game {game.pk}", game=game)


def game_replay_data(request, pk: int):
    """The replay's frames as JSON (the payload the page embeds), for a page following a game in
    play (static/replay/live_replay.js): the same cached data, masked for the same reader."""
    game = _visible_game(request, pk)
    data = replay_data(game, visibility.reader_sight(game, request.user))
    response = HttpResponse(data.payload_script_text(), content_type="application/json")
    response["Cache-Control"] = "private, no-cache"
    return response


def render_replay(request, data: frames.ReplayData, *, title: str, game: Game | None = None):
    """The replay page of `data` at `?at=N` (default: the end), `view` and `bottom` from the URL."""
    n_seats = len(data.players)
    raw_at = request.GET.get("at")
    try:
        at = int(raw_at) if raw_at not in (None, "") else data.length
    except ValueError:
        raise Http404("at must be a position number") from None
    at = max(0, min(at, data.length))
    # Masked cards are in the frames themselves ("?"): every view shows no more than the reader may see.
    view = present.parse_view(request.GET.get("view"), n_seats, "all")
    bottom = present.parse_seat(request.GET.get("bottom"), n_seats, view if isinstance(view, int) else 0)
    frame = data.frame_at(at)
    show_undone = request.GET.get("undone") == "1"  # corrections are folded away unless asked for
    context = {
        "title": title,
        "game": game,
        "club": game.club if game else None,
        "data": data,
        "at": at,
        "view": view,
        "bottom": bottom,
        "seat_labels": engine.seat_labels(data.variant, data.players, str(data.options.get("direction"))),
        "views": [{"value": "all", "label": "All hands"}]
        + [{"value": i, "label": f"{name}'s view"} for i, name in enumerate(data.players)],
        "nav": present.nav_targets(data.marks, at, data.length, show_undone),
        "show_undone": show_undone,
        "undone_count": len(data.marks.get("undone", [])),
        "legend": BADGE_LEGEND,
        "log": present.hand_log(data, at),
        "t": present.table(data, frame, view, bottom),
        "payload": data.payload_script_text(),
        "cards": frames.card_table(),
        "speeds": [("2000", "slow"), ("1000", "normal"), ("400", "fast"), ("100", "very fast")],
        "shortcuts": SHORTCUTS,
    }
    return render(request, "replay/replay.html", context)


#: What each badge at a seat means (the page's legend; the badges are written by the template and
#: by replay.js with these texts as titles).
BADGE_LEGEND = [
    ("T", "call-tichu", "called Tichu"),
    ("GT", "call-grand_tichu", "called Grand Tichu"),
    ("out #1", "out", "went out first (#2 second, ...)"),
    ("S", "shuffler", "shuffled this hand"),
    ("to play", "to-act", "is to play now"),
    ("gives the Dragon trick", "gift", "won a trick with the Dragon and must give it away"),
]

#: The keyboard shortcuts, listed on the page and bound by replay.js.
SHORTCUTS = [
    ("← or k", "previous event"),
    ("→ or j", "next event"),
    ("↑ or Shift+←", "previous trick"),
    ("↓ or Shift+→", "next trick"),
    ("Page Up or p", "previous hand"),
    ("Page Down or n", "next hand"),
    ("Home or 0", "first position"),
    ("End or $", "last position"),
    ("Space", "autoplay on/off"),
    ("+ / -", "autoplay faster / slower"),
    ("v", "next view: all hands, then each seat"),
    ("f", "turn the table (next seat nearest you)"),
    ("?", "show or hide this help"),
]
