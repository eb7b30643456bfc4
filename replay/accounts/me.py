"""A player's home, `/me/` (issue 39): the reader's own games by evening (partner, opponents,
result, Elo change, a replay link that opens from their seat), filters by partner, opponent, game
and date, their Tichu and Grand Tichu success rates and their tournaments.

A reader is a player through their roster players (`Player.user`, set by an approved "This is me"
claim, replay/clubs); a reader with none is told how to link one. Games are read as every list of
games is (`selectors.games_visible`: the club's visibility, held tables left out), their sides
and scores as the club page has them (`replay.clubs.summary`), the figures from the ratings
(`games.ratings.player_queries`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language

from games import engine, selectors
from games.online import selectors as online_selectors
from games.query_dates import QueryDateError, parse_query_date
from games.ratings.evening import evening_of
from games.ratings.player_queries import call_rates, rating_lines
from games.tournaments import online_tables
from games.tournaments import selectors as tournament_selectors
from replay.clubs.summary import GameSummary, summarise_all

if TYPE_CHECKING:  # types only: the page reads through the selectors
    from games.models import Game, Player

GAMES_PER_PAGE = 40


@dataclass
class MyGame:
    """One of the reader's games as their home lists it."""

    summary: GameSummary
    seat: int
    partners: list[str]
    opponents: list[str]
    result: str  # "won", "lost", "drawn", "in_play", "unfinished", "finished" (no winner known)
    elo_change: float | None
    replay_url: str

    @property
    def game(self) -> Game:
        return self.summary.game


@dataclass
class MyEvening:
    day: date
    games: list[MyGame] = field(default_factory=list)


@dataclass
class Filters:
    partner: Player | None = None
    opponent: Player | None = None
    variant: str = ""
    start: date | None = None
    end: date | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return bool(self.partner or self.opponent or self.variant or self.start or self.end)

    def query(self) -> str:
        """The filters as a query string tail, for the pages' links."""
        parts = [
            ("partner", self.partner and self.partner.pk),
            ("opponent", self.opponent and self.opponent.pk),
            ("game", self.variant),
            ("from", self.start),
            ("to", self.end),
        ]
        return "".join(f"&{k}={v}" for k, v in parts if v)


def _filters(request, others: dict[int, Player], variants: list[str]) -> Filters:
    f = Filters()
    for name in ("partner", "opponent"):
        raw = request.GET.get(name, "")
        if raw.isdigit() and int(raw) in others:
            setattr(f, name, others[int(raw)])
    if request.GET.get("game") in variants:
        f.variant = request.GET["game"]
    for name, attr in (("from", "start"), ("to", "end")):
        try:
            setattr(f, attr, parse_query_date(name, request.GET.get(name)))
        except QueryDateError as err:
            f.errors.append(err.message)
    return f


def _side_of(summary: GameSummary, player_ids: set[int]):
    return next((s for s in summary.sides if player_ids & set(s.ids)), None)


def _result(summary: GameSummary, side) -> str:
    if summary.unfinished:
        return "unfinished"
    if not summary.finished:
        return "in_play"
    winner = summary.winner
    if winner is None:
        return "finished"
    return "won" if winner is side else "lost"


def my_game(summary: GameSummary, mine: set[int], lines: dict[int, dict]) -> MyGame:
    game = summary.game
    seat = next((s.seat for s in game.seats.all() if s.player_id in mine), 0)
    side = _side_of(summary, mine)
    me_names = {s.player.name for s in game.seats.all() if s.player_id in mine}
    partners = [n for n in (side.names if side else []) if n not in me_names]
    opponents = [n for s in summary.sides if s is not side for n in s.names]
    line = lines.get(game.pk)
    replay = reverse("replay:game-replay", args=[game.pk]) + f"?view={seat}&bottom={seat}"
    return MyGame(
        summary, seat, partners, opponents, _result(summary, side), line["elo_change"] if line else None, replay
    )


def _keeps(g: MyGame, f: Filters) -> bool:
    """The partner and opponent filters, by the sides the game's score names (the database only
    knew that both sat at the table)."""
    if f.partner and f.partner.name not in g.partners:
        return False
    return not (f.opponent and f.opponent.name not in g.opponents)


@dataclass
class MyTableSeat:
    """A seat the reader holds at a club's online table (not a tournament's: those are listed
    with their round and table, online_tables.my_seats)."""

    club: str
    table: int
    game: str
    player: str  # who the seat plays as (the roster player)
    secret: str


def _table_seats(user) -> list[MyTableSeat]:
    """The reader's seats at online tables still played, opened from here without the link."""
    in_tournaments = {s.secret for s in online_tables.my_seats(user)}
    language = get_language()
    return [
        MyTableSeat(
            s.table.club.name, s.table.pk, engine.variant_name(s.table.game.variant, language), s.player.name, s.secret
        )
        for s in online_selectors.held_seats(user)
        if s.secret not in in_tournaments
    ]


@login_required
def me(request):
    players = list(selectors.user_players(request.user))
    mine = {p.pk for p in players}
    context: dict = {"players": players, "table_seats": _table_seats(request.user)}
    if not players:
        return render(request, "accounts/me.html", context)
    all_games = selectors.games_visible(request.user).filter(seats__player__in=mine).distinct()
    others = selectors.partners_and_opponents(all_games, mine)
    variants = sorted(set(all_games.values_list("variant", flat=True)))
    f = _filters(request, others, variants)
    games = all_games
    if f.variant:
        games = games.filter(variant=f.variant)
    if f.start:
        games = games.filter(played_at__date__gte=f.start - timedelta(days=1))  # refined by evening below
    if f.end:
        games = games.filter(played_at__date__lte=f.end + timedelta(days=1))
    for who in (f.partner, f.opponent):
        if who:
            games = games.filter(pk__in=selectors.game_ids_of_player(who))
    games = games.order_by("-played_at", "-id")
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    listed = list(page)
    lines = rating_lines(mine, [g.pk for g in listed])
    evenings: list[MyEvening] = []
    shown = []
    for s in summarise_all(listed):
        g = my_game(s, mine, lines)
        day = evening_of(g.game.played_at, g.game.club.time_zone)
        if not _keeps(g, f) or (f.start and day < f.start) or (f.end and day > f.end):
            continue
        shown.append(g)
        if not evenings or evenings[-1].day != day:
            evenings.append(MyEvening(day))
        evenings[-1].games.append(g)
    tournaments = tournament_selectors.tournaments_of_games(all_games)
    context.update(
        {
            "last": next(iter(shown), None) if page.number == 1 and not f.active else None,
            "evenings": evenings,
            "page": page,
            "filters": f,
            "filter_query": f.query(),
            "others": list(others.values()),
            "variants": [(v, engine.variant_name(v, get_language())) for v in variants],
            "rates": call_rates(mine, [g.game.pk for g in shown] if f.active else None),
            "tournaments": tournaments,
            # a tournament round played online: the reader's own seat, opened without a code
            "online_seats": online_tables.my_seats(request.user),
        }
    )
    return render(request, "accounts/me.html", context)
