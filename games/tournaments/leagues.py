"""A club's league in the database (docs/tournament.md, "Leagues"): create one, append to its
stream, and read its fixtures and table.

Created, locked, appended to and read as every club stream is (games.tournaments.club_streams:
the one stream store's append, with the core's checks, games.tournament.league). What is the
league's own here: a result that names the table's game names a finished game of the league's
own club and is only that link: every fold (`fold`) gives the core the game's lines as the game's
own fold gives them now, so a correction of the game is the match's (one truth, as a
tournament's table: games.tournaments.selectors.fold), and a game held back from readers
(games.holds) counts for nothing until its hold ends. The fixtures and the table are never
stored: they are the core's `league_json` of the header and the stream.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import holds, ids
from games import selectors as game_selectors
from games import tournament as core
from games.models import Club, Game, Player
from games.streams.errors import InvalidInput
from games.streams.results import WriteResult
from games.tournaments.club_streams import MAX_BATCH as MAX_BATCH
from games.tournaments.club_streams import ClubStreamKind, ClubStreamWords
from games.tournaments.models import League, LeagueEvent
from games.tournaments.services import _core_call


def _check_game(league: League, event: dict, index: int) -> dict:
    """A result's game (the table's recorded game) must be a finished Tichu game of the league's
    club, and the result names it alone: its numbers are the game's (no hands, score or vp)."""
    game_id = event.get("game")
    if type(game_id) is not int or not ids.in_range(game_id):
        return event  # none, or a shape the core refuses in its words
    game = Game.objects.filter(pk=game_id, club=league.club).first()
    if game is None:
        raise InvalidInput(
            _("event %(index)s: game %(game)s is not a game of club “%(club)s”")
            % {"index": index, "game": game_id, "club": league.club.slug},
            code="game_not_of_club",
            params={"index": index, "game": game_id},
        )
    if event.get("type") not in ("match_result", "match_corrected"):
        return event
    if any(name in event for name in ("hands", "score", "vp")):
        raise InvalidInput(
            _(
                "event %(index)s: a result that names game %(game)s takes that game's numbers: "
                "give no hands, score or VP (correct the game itself, or leave the game out for a paper score)"
            )
            % {"index": index, "game": game_id},
            code="result_from_game",
            params={"index": index, "game": game_id},
        )
    if game.status != Game.Status.FINISHED:
        raise InvalidInput(
            _("event %(index)s: game %(game)s is not over: its result is taken once it is")
            % {"index": index, "game": game_id},
            code="game_not_over",
            params={"index": index, "game": game_id},
        )
    _core_call(core.hand_lines, game_selectors.game_score(game), index=index)  # a Tichu game's score
    return event


def _game_ids(events: list[Any]) -> set[int]:
    return {e["game"] for e in events if isinstance(e, dict) and type(e.get("game")) is int and ids.in_range(e["game"])}


def game_lines(league: League, game_ids: set[int]) -> dict[int, list[dict] | None]:
    """game id -> the hand lines the game's own fold gives now, or None while it gives none (not
    over, or held back from readers); a game that is not a Tichu game is left out (its result
    keeps the event's own numbers)."""
    held = holds.rating_held()
    lines: dict[int, list[dict] | None] = {}
    for game in Game.objects.filter(club=league.club, pk__in=game_ids):
        if game.status != Game.Status.FINISHED or game.pk in held:
            lines[game.pk] = None
            continue
        try:
            lines[game.pk] = core.hand_lines(game_selectors.game_score(game))
        except core.TournamentError:
            continue
    return lines


def fold(league: League, more: list[Any] | None = None) -> core.LeagueState:
    """The league as the core folds it with its matches' games as their folds give them now: the
    one way every channel (page, API, next season, archive check, append) folds a league. `more`:
    events about to be appended, whose games are read too. The stored stream was checked when
    it was appended."""
    shown = record(league)
    return core.fold_league(shown, game_lines=game_lines(league, _game_ids([*shown["events"], *(more or [])])))


LEAGUES: ClubStreamKind[League] = ClubStreamKind(
    model=League,
    event_model=LeagueEvent,
    parse=core.parse_league_header,
    fold=core.fold_league,
    prepare=_check_game,
    fold_head=lambda league, batch: fold(league, batch),
    words=ClubStreamWords(
        name=gettext_noop("a league's name is a non-empty string of at most 100 characters"),
        what=gettext_noop("the league"),
        not_found=gettext_noop("no such league"),
        writer=gettext_noop("running a league needs the scorer or admin role in club '%(club)s'"),
        seq_conflict=gettext_noop("expected_seq is %(expected)s but the league is at seq %(current)s"),
    ),
)


# --- writes --------------------------------------------------------------------------------------


#: a new league of a club (the caller checked the user is a scorer or admin there), its header
#: checked and normalised by the core (parse_league_header)
league_create = LEAGUES.create


def append_league_events(
    *, league_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of league events atomically (match_result, match_corrected, match_scheduled)."""
    return LEAGUES.append(
        pk=league_id, events=events, expected_seq=expected_seq, user=user, idempotency_key=idempotency_key
    )


# --- reads ---------------------------------------------------------------------------------------


league_get = LEAGUES.get  # Http404 unless the user may see its club
club_leagues = LEAGUES.of_club
record = LEAGUES.record  # the league as the core's record (tichu-league/1)


def league_view(league: League) -> dict[str, Any]:
    """What a reader sees of a league: the core's league_json (fixtures by round with their
    results, the table, promoted and relegated), each entry's players named."""
    state = fold(league)
    out = core.league_json(state)
    _name_players(league.club, out["table"])
    return {
        "id": league.pk,
        "club": league.club.slug,
        "name": league.name,
        "seq": league.seq,
        "league": out,
        "history": state.history,
    }


def _name_players(club: Club, rows: list[dict]) -> None:
    """An entry may list a player by the club's Player id: the table says their names."""
    player_ids = [p for r in rows for p in r["players"] if type(p) is int]
    names = dict(Player.objects.filter(club=club, pk__in=player_ids).values_list("pk", "name"))
    for row in rows:
        row["player_names"] = [names.get(p, str(p)) if type(p) is int else p for p in row["players"]]


def next_season(club: Club, group_ids: list[int]) -> list[list[dict[str, Any]]]:
    """Next season's entries of each group (the core's next_season): the club's leagues named
    top group first, each finished with no tie on a place's line (else the core's
    league_unfinished), an entry with its name and players as its league's header has them, so
    that each group's list is the `entries` of next season's league header."""
    found = {x.pk: x for x in League.objects.filter(club=club, pk__in=[g for g in group_ids if ids.in_range(g)])}
    missing = [g for g in group_ids if g not in found]
    if missing or not group_ids or len(set(group_ids)) != len(group_ids):
        raise InvalidInput(
            _("groups is a list of distinct leagues of club “%(club)s”, top group first") % {"club": club.slug},
            code="malformed",
        )
    leagues = [found[g] for g in group_ids]
    states = [fold(x) for x in leagues]
    groups = _core_call(core.next_season, states)
    entries = {e["entry"]: e for x in leagues for e in x.header["entries"]}
    return [[entries[e] for e in group] for group in groups]
