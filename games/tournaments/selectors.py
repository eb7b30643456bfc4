"""Reads for tournaments: who may see one, its record, and the core's folds of its stream.

A tournament is read as its club's games are: anyone for a public club, members for a
members-only one (others get 404). Folding a whole tournament's stream costs well under the
50 ms bench target (bench/tournament.py), so every read folds from the stored events.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from games import ids
from games import selectors as game_selectors
from games import tournament as core
from games.tournaments.models import TableGame, Tournament, TournamentEvent


def tournaments_of_games(games: QuerySet) -> list[tuple[int, str]]:
    """The tournaments these games were tables of, as (id, name), newest first, each once."""
    rows = (
        TableGame.objects.filter(game__in=games.values("pk"))
        .order_by("-tournament_id")
        .values_list("tournament_id", "tournament__name")
    )
    return list(dict.fromkeys(rows))


def club_tournaments(club) -> QuerySet[Tournament]:
    """A club's tournaments, the newest first (the club's list of evenings)."""
    return Tournament.objects.filter(club=club).order_by("-created_at", "-id")


def tournaments_visible(user) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club__in=game_selectors.clubs_visible(user)).select_related("club")


def may_read(user, tournament: Tournament) -> bool:
    return tournament.club.is_public or game_selectors.membership_role(user, tournament.club) is not None


def tournament_get(user, pk: int) -> Tournament:
    tournament = tournaments_visible(user).filter(pk=pk).first() if ids.in_range(pk) else None
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def events(tournament: Tournament, upto: int | None = None) -> list[dict]:
    rows = TournamentEvent.objects.filter(tournament=tournament).order_by("seq").only("type", "payload")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return [row.as_record_event() for row in rows]


def record(tournament: Tournament, upto: int | None = None) -> dict:
    """The whole tournament as the record of docs/tournament.md."""
    return {"format": core.FORMAT, "header": tournament.header, "events": events(tournament, upto)}


def state_at(tournament: Tournament, upto: int | None = None) -> core.TournamentState:
    """The core's state after the first `upto` events (all of them by default). The stored
    stream was checked event by event when it was appended, so it folds without refusal (also a
    stream stored before a check was added: `stored=True`); what is appended to the state is checked."""
    return fold(tournament, record(tournament, upto))


def fold(tournament: Tournament, shown: dict, upto: int | None = None) -> core.TournamentState:
    """The core's fold of `shown` (the tournament's record, or as a reader may see it) with its
    tables' games as their own folds give them now: the one way every channel folds a
    tournament, so that a table with a game has that game's result everywhere (issue 31)."""
    return core.fold(shown, upto, game_lines=game_lines(tournament), stored=True)


def short_tables(tournament: Tournament) -> dict[tuple[int, int], int]:
    """(round, table) -> the hands the TD recorded that table played (its `round_shortened`, the
    latest for a table)."""
    rows = TournamentEvent.objects.filter(tournament=tournament, type="round_shortened").order_by("seq")
    return {(e.payload["round"], e.payload["table"]): e.payload["hands"] for e in rows}


def game_lines(tournament: Tournament) -> dict[int, list[dict] | None]:
    """game id -> the hand lines of every game played at one of the tournament's tables, as the
    game's fold gives them now (core.hand_lines of its score), or None while it is not over. A
    table the TD shortened to N hands (`round_shortened`) has its game's first N hands once they
    are played, over or not: its time ran out, the game stops there (issue 31, item 2)."""
    lines: dict[int, list[dict] | None] = {}
    short = short_tables(tournament)
    for (rnd, table), link in table_games(tournament).items():
        lines.update(_lines_of(link.game, short.get((rnd, table))))
    for link in (
        TableGame.objects.filter(tournament=tournament).exclude(game_id__in=list(lines)).select_related("game")
    ):  # games an override replaced
        lines.update(_lines_of(link.game))
    return lines


def _lines_of(game, short: int | None = None) -> dict[int, list[dict] | None]:
    if game.status != game.Status.FINISHED and short is None:
        return {game.pk: None}
    try:
        lines = core.hand_lines(game_selectors.game_score(game))
    except core.TournamentError:  # not a Tichu game: the result keeps what was sent
        return {}
    if short is not None:  # a short round: its first hands, once that many are played
        return {game.pk: lines[:short] if len(lines) >= short else None}
    return {game.pk: lines}


def table_game_lines(tournament: Tournament, round_number: int, table: int, game) -> list[dict]:
    """The lines a table's result takes from its game: all its hands, or a short round's first."""
    lines = core.hand_lines(game_selectors.game_score(game))
    short = short_tables(tournament).get((round_number, table))
    return lines[:short] if short is not None else lines


def game_takes_result(tournament: Tournament, round_number: int, table: int, game) -> bool:
    """Whether the table's game gives its result now: finished, or (a short round) with the hands
    the TD recorded played."""
    if game.status == game.Status.FINISHED:
        return True
    short = short_tables(tournament).get((round_number, table))
    return short is not None and len(game_selectors.game_score(game).get("hands") or []) >= short


def round_of(state: core.TournamentState, number: int):
    return next((r for r in state.rounds if r.number == number), None)


def table_games(tournament: Tournament, round_number: int | None = None) -> dict:
    """{table: TableGame} for a round (the newest game per table), or {(round, table): TableGame}
    for the whole tournament when `round_number` is None."""
    rows = (
        TableGame.objects.filter(tournament=tournament)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("round", "table", "id")
    )
    if round_number is not None:
        rows = rows.filter(round=round_number)
    links: dict = {}
    for row in rows:  # ascending id: the newest row per table wins
        links[row.table if round_number is not None else (row.round, row.table)] = row
    return links
