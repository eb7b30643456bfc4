"""A club's league in the database (docs/tournament.md, "Leagues"): create one, append to its
stream, and read its fixtures and table.

Writes go through the one stream store (games.streams.append_batch: the head row locked,
`expected_seq`, Idempotency-Key, all of the batch or nothing) with the core's checks
(games.tournament.league). A result that names the table's game names a finished game of the
league's own club and is only that link: every fold (`fold`) gives the core the game's lines as the
game's own fold gives them now, so a correction of the game is the match's (one truth, as a
tournament's table: games.tournaments.selectors.fold), and a game held back from readers (games.holds)
counts for nothing until its hold ends. The fixtures and the table are never stored: they are the
core's `league_json` of the header and the stream.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import holds, ids
from games import selectors as game_selectors
from games import tournament as core
from games.models import Club, Game, Membership, Player
from games.services import WriteForbidden
from games.streams.append import append_batch
from games.streams.checks import check_storable
from games.streams.errors import InvalidInput, SeqConflict
from games.streams.idempotency import fingerprint, with_idempotency
from games.streams.results import WriteResult
from games.tournaments.models import League, LeagueEvent
from games.tournaments.services import TournamentNotFound, _core_call

MAX_BATCH = 50


class LeagueNotFound(TournamentNotFound):
    """No such league, or one the user may not see (404)."""


class LeagueSeqConflict(SeqConflict):
    """`expected_seq` is not the league's current seq (409), worded for a league."""

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(expected_seq, current_seq)
        self.message = _("expected_seq is %(expected)s but the league is at seq %(current)s") % {
            "expected": expected_seq,
            "current": current_seq,
        }
        self.args = (self.message,)


def _body(league: League) -> dict[str, Any]:
    return {"id": league.pk, "seq": league.seq}


# --- writes --------------------------------------------------------------------------------------


def league_create(*, club: Club, name: str, header: Any, user, idempotency_key: str | None = None) -> WriteResult:
    """A new league of `club` (the caller checked the user is a scorer or admin there); the header
    (its entries, legs, scoring, places) is checked and normalised by the core."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidInput(_("a league's name is a non-empty string of at most 100 characters"))
    if not isinstance(header, dict):
        raise InvalidInput(_("header must be an object"), code="malformed")
    check_storable([name, header], gettext_noop("the league"))
    parsed = _core_call(core.parse_league_header, {**header, "name": header.get("name") or name.strip()})

    def write() -> dict:
        league = League.objects.create(club=club, name=name.strip(), header=parsed, created_by=user)
        return _body(league)

    printed = (
        fingerprint("league_create", club=club.pk, name=name, header=header) if idempotency_key is not None else ""
    )
    return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)


def _lock_for_writer(league_id: int, user) -> League:
    rows = League.objects.select_related("club").filter(pk=league_id if ids.in_range(league_id) else 0)
    league = (
        rows.select_for_update(of=("self",)).first()
        if transaction.get_connection().features.has_select_for_update_of
        else rows.select_for_update().first()
    )
    if league is None or not may_read(user, league):
        raise LeagueNotFound(_("no such league"))
    if game_selectors.membership_role(user, league.club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("running a league needs the scorer or admin role in club '%(club)s'") % {"club": league.club.slug}
        )
    return league


def _check_game(league: League, event: Any, index: int) -> None:
    """A result's game (the table's recorded game) must be a finished Tichu game of the league's
    club, and the result names it alone: its numbers are the game's (no hands, score or vp)."""
    game_id = event.get("game") if isinstance(event, dict) else None
    if type(game_id) is not int or not ids.in_range(game_id):
        return  # none, or a shape the core refuses in its words
    game = Game.objects.filter(pk=game_id, club=league.club).first()
    if game is None:
        raise InvalidInput(
            _("event %(index)s: game %(game)s is not a game of club “%(club)s”")
            % {"index": index, "game": game_id, "club": league.club.slug},
            code="game_not_of_club",
            params={"index": index, "game": game_id},
        )
    if event.get("type") not in ("match_result", "match_corrected"):
        return
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


def append_league_events(
    *, league_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of league events atomically (match_result, match_corrected, match_scheduled)."""

    def write(league: League, batch: list[dict]) -> dict[str, Any]:
        for i, event in enumerate(batch):
            _check_game(league, event, i)
        state = fold(league, batch)
        for i, event in enumerate(batch):
            _core_call(state.apply, event, index=i)
        start = league.seq
        who = user if user is not None and user.is_authenticated else None
        LeagueEvent.objects.bulk_create(
            LeagueEvent(
                league=league,
                seq=start + i + 1,
                type=e["type"],
                payload={k: v for k, v in e.items() if k != "type"},
                recorded_by=who,
            )
            for i, e in enumerate(batch)
        )
        league.seq = start + len(batch)
        league.save(update_fields=["seq"])
        return {**_body(league), "appended": len(batch), "first_seq": start + 1}

    return append_batch(
        events=events,
        limit=MAX_BATCH,
        operation="league_append",
        stream={"league": league_id},
        expected_seq=expected_seq,
        user=user,
        idempotency_key=idempotency_key,
        lock=lambda: _lock_for_writer(league_id, user),
        conflict=LeagueSeqConflict,
        write=write,
    )


# --- reads ---------------------------------------------------------------------------------------


def may_read(user, league: League) -> bool:
    return league.club.is_public or game_selectors.membership_role(user, league.club) is not None


def league_get(user, pk: int) -> League:
    league = (
        League.objects.filter(pk=pk, club__in=game_selectors.clubs_visible(user)).select_related("club").first()
        if ids.in_range(pk)
        else None
    )
    if league is None:
        raise Http404("no such league")
    return league


def club_leagues(club: Club):
    return League.objects.filter(club=club).order_by("-created_at", "-id")


def record(league: League) -> dict:
    """The league as the core's record (tichu-league/1)."""
    rows = LeagueEvent.objects.filter(league=league).order_by("seq").only("type", "payload")
    events = [r.as_record_event() for r in rows]
    return {"format": league.header["format"], "header": league.header, "events": events}


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
