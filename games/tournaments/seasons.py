"""A club's season in the database (docs/tournament.md, "Seasons"): create one, append to its
stream, and read its table.

Created, locked, appended to and read as every club stream is (games.tournaments.club_streams:
the one stream store's append, with the core's checks, games.tournament.season); what is the
season's own here: an evening must be a tournament of the season's own club, and its table.

The table is never stored: it is the core's `season_table` of the season's fold and of each
evening's standings, each evening folded as the reader may see it (games.tournaments.visibility:
a duplicate evening's open round is left out for anyone but the TD, as the standings API does), so
a correction on an evening changes the season by itself.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import ids
from games import tournament as core
from games.models import Club, Player
from games.streams.errors import InvalidInput
from games.streams.results import WriteResult
from games.tournaments import visibility
from games.tournaments.club_streams import MAX_BATCH as MAX_BATCH
from games.tournaments.club_streams import ClubStreamKind, ClubStreamWords
from games.tournaments.models import Season, SeasonEvent, Tournament


def _check_evening_of_club(season: Season, event: dict, index: int) -> dict:
    """An evening added must be a tournament of the season's club (the core checks the shape)."""
    if event.get("type") != "evening_added":
        return event
    tid = event.get("tournament")
    if type(tid) is not int or not ids.in_range(tid):
        return event  # the core refuses the shape, in its words
    if not Tournament.objects.filter(pk=tid, club=season.club).exists():
        raise InvalidInput(
            _("event %(index)s: tournament %(tournament)s is not a tournament of club “%(club)s”")
            % {"index": index, "tournament": tid, "club": season.club.slug},
            code="evening_not_of_club",
            params={"index": index, "tournament": tid},
        )
    return event


SEASONS: ClubStreamKind[Season] = ClubStreamKind(
    model=Season,
    event_model=SeasonEvent,
    parse=core.parse_season_header,
    fold=core.fold_season,
    prepare=_check_evening_of_club,
    words=ClubStreamWords(
        name=gettext_noop("a season's name is a non-empty string of at most 100 characters"),
        what=gettext_noop("the season"),
        not_found=gettext_noop("no such season"),
        writer=gettext_noop("running a season needs the scorer or admin role in club '%(club)s'"),
        seq_conflict=gettext_noop("expected_seq is %(expected)s but the season is at seq %(current)s"),
    ),
)


# --- writes --------------------------------------------------------------------------------------


#: a new season of a club (the caller checked the user is a scorer or admin there), its header
#: checked and normalised by the core (parse_season_header)
season_create = SEASONS.create


def append_season_events(
    *, season_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of season events atomically (evening_added, evening_removed with its reason)."""
    return SEASONS.append(
        pk=season_id, events=events, expected_seq=expected_seq, user=user, idempotency_key=idempotency_key
    )


# --- reads ---------------------------------------------------------------------------------------


season_get = SEASONS.get  # Http404 unless the user may see its club
club_seasons = SEASONS.of_club
record = SEASONS.record  # the season as the core's record (tichu-season/1)


def evening_standings(season: Season, evenings: list[int], user) -> dict[int, dict]:
    """Each evening's standings as `user` may see them (the standings API's fold and visibility)."""
    tournaments = Tournament.objects.filter(pk__in=evenings, club=season.club).select_related("club")
    return {t.pk: core.standings_json(visibility.reader_state(t, user)) for t in tournaments}


def season_view(season: Season, user) -> dict[str, Any]:
    """What a reader sees of a season: its header, evenings (with their names), history, table."""
    state = core.fold_season(record(season))
    table = core.season_table(state, evening_standings(season, state.evenings, user))
    _name_players(season.club, table["table"])
    names = dict(Tournament.objects.filter(pk__in=_named_evenings(state), club=season.club).values_list("pk", "name"))
    return {
        "id": season.pk,
        "club": season.club.slug,
        "name": season.name,
        "seq": season.seq,
        "header": season.header,
        "evenings": [{"tournament": tid, "name": names.get(tid, "")} for tid in state.evenings],
        "history": _history(season, state, names),
        "table": table,
    }


def _history(season: Season, state: core.SeasonState, names: dict[int, str]) -> list[dict[str, Any]]:
    """The season's events, each with the evening's name and who recorded it when: every stored
    event was accepted when appended, so the event at index i is the row of seq i + 1."""
    rows = {
        seq: (user or "", at)
        for seq, user, at in SeasonEvent.objects.filter(season=season).values_list(
            "seq", "recorded_by__username", "recorded_at"
        )
    }
    out = []
    for h in state.history:
        who, when = rows.get(h["index"] + 1, ("", None))
        out.append({**h, "name": names.get(h["tournament"], ""), "recorded_by": who, "recorded_at": when})
    return out


def _named_evenings(state: core.SeasonState) -> set[int]:
    return {h["tournament"] for h in state.history}


def _name_players(club: Club, rows: list[dict]) -> None:
    """Standings list a player by the club's Player id: the season's rows name them."""
    player_ids = [r["player"] for r in rows if type(r["player"]) is int]
    names = dict(Player.objects.filter(club=club, pk__in=player_ids).values_list("pk", "name"))
    for row in rows:
        if type(row["player"]) is int and row["player"] in names:
            row["name"] = names[row["player"]]


#: the season table's columns in its CSV, then three per evening (see table_rows)
TABLE_COLUMNS = ["rank", "player", "name", "score", "all_evenings", "evenings_played", "evenings_won", "best_place"]


def table_rows(view: dict[str, Any]) -> list[list[Any]]:
    """The season table (season_view's) as rows for a CSV, its header first: a line per player
    as the page lists them (the unranked last, rank empty), then per evening of the season its
    place, its points and whether they count (1 or 0; all empty where the player was absent)."""
    evenings = view["evenings"]
    header = list(TABLE_COLUMNS)
    for e in evenings:
        label = f"{e['name']} (#{e['tournament']})"
        header += [f"{label} place", f"{label} points", f"{label} counts"]
    rows: list[list[Any]] = [header]
    for line in view["table"]["table"]:
        row = [line[c] for c in TABLE_COLUMNS]
        played = {e["tournament"]: e for e in line["evenings"]}
        for e in evenings:
            cell = played.get(e["tournament"])
            row += [cell["rank"], cell["score"], int(cell["counts"])] if cell else [None, None, None]
        rows.append(row)
    return rows
