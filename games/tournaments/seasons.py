"""A club's season in the database (docs/tournament.md, "Seasons"): create one, append to its
stream, and read its table.

Writes go through the one stream store (games.streams.append_batch: the head row locked,
`expected_seq`, Idempotency-Key, all of the batch or nothing) with the core's checks
(games.tournament.season). An evening must be a tournament of the season's own club.

The table is never stored: it is the core's `season_table` of the season's fold and of each
evening's standings, each evening folded as the reader may see it (games.tournaments.visibility:
a duplicate evening's open round is left out for anyone but the TD, as the standings API does), so
a correction on an evening changes the season by itself.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import ids
from games import selectors as game_selectors
from games import tournament as core
from games.models import Club, Membership, Player
from games.services import WriteForbidden
from games.streams.append import append_batch
from games.streams.checks import check_storable
from games.streams.errors import InvalidInput, SeqConflict
from games.streams.idempotency import fingerprint, with_idempotency
from games.streams.results import WriteResult
from games.tournaments import visibility
from games.tournaments.models import Season, SeasonEvent, Tournament
from games.tournaments.services import TournamentNotFound, _core_call

MAX_BATCH = 50


class SeasonNotFound(TournamentNotFound):
    """No such season, or one the user may not see (404)."""


class SeasonSeqConflict(SeqConflict):
    """`expected_seq` is not the season's current seq (409), worded for a season."""

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(expected_seq, current_seq)
        self.message = _("expected_seq is %(expected)s but the season is at seq %(current)s") % {
            "expected": expected_seq,
            "current": current_seq,
        }
        self.args = (self.message,)


def _body(season: Season) -> dict[str, Any]:
    return {"id": season.pk, "seq": season.seq}


# --- writes --------------------------------------------------------------------------------------


def season_create(*, club: Club, name: str, header: Any, user, idempotency_key: str | None = None) -> WriteResult:
    """A new season of `club` (the caller checked the user is a scorer or admin there); the header
    is checked and normalised by the core (parse_season_header)."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidInput(_("a season's name is a non-empty string of at most 100 characters"))
    if not isinstance(header, dict):
        raise InvalidInput(_("header must be an object"), code="malformed")
    check_storable([name, header], gettext_noop("the season"))
    parsed = _core_call(core.parse_season_header, {**header, "name": header.get("name") or name.strip()})

    def write() -> dict:
        season = Season.objects.create(club=club, name=name.strip(), header=parsed, created_by=user)
        return _body(season)

    printed = (
        fingerprint("season_create", club=club.pk, name=name, header=header) if idempotency_key is not None else ""
    )
    return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)


def _lock_for_writer(season_id: int, user) -> Season:
    rows = Season.objects.select_related("club").filter(pk=season_id if ids.in_range(season_id) else 0)
    season = (
        rows.select_for_update(of=("self",)).first()
        if transaction.get_connection().features.has_select_for_update_of
        else rows.select_for_update().first()
    )
    if season is None or not may_read(user, season):
        raise SeasonNotFound(_("no such season"))
    if game_selectors.membership_role(user, season.club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("running a season needs the scorer or admin role in club '%(club)s'") % {"club": season.club.slug}
        )
    return season


def _check_evening_of_club(season: Season, event: Any, index: int) -> None:
    """An evening added must be a tournament of the season's club (the core checks the shape)."""
    if not isinstance(event, dict) or event.get("type") != "evening_added":
        return
    tid = event.get("tournament")
    if type(tid) is not int or not ids.in_range(tid):
        return  # the core refuses the shape, in its words
    if not Tournament.objects.filter(pk=tid, club=season.club).exists():
        raise InvalidInput(
            _("event %(index)s: tournament %(tournament)s is not a tournament of club “%(club)s”")
            % {"index": index, "tournament": tid, "club": season.club.slug},
            code="evening_not_of_club",
            params={"index": index, "tournament": tid},
        )


def append_season_events(
    *, season_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of season events atomically (evening_added, evening_removed with its reason)."""

    def write(season: Season, batch: list[dict]) -> dict[str, Any]:
        state = core.fold_season(record(season))  # the stored stream was checked when appended
        for i, event in enumerate(batch):
            _check_evening_of_club(season, event, i)
            _core_call(state.apply, event, index=i)
        start = season.seq
        who = user if user is not None and user.is_authenticated else None
        SeasonEvent.objects.bulk_create(
            SeasonEvent(
                season=season,
                seq=start + i + 1,
                type=e["type"],
                payload={k: v for k, v in e.items() if k != "type"},
                recorded_by=who,
            )
            for i, e in enumerate(batch)
        )
        season.seq = start + len(batch)
        season.save(update_fields=["seq"])
        return {**_body(season), "appended": len(batch), "first_seq": start + 1}

    return append_batch(
        events=events,
        limit=MAX_BATCH,
        operation="season_append",
        stream={"season": season_id},
        expected_seq=expected_seq,
        user=user,
        idempotency_key=idempotency_key,
        lock=lambda: _lock_for_writer(season_id, user),
        conflict=SeasonSeqConflict,
        write=write,
    )


# --- reads ---------------------------------------------------------------------------------------


def may_read(user, season: Season) -> bool:
    return season.club.is_public or game_selectors.membership_role(user, season.club) is not None


def season_get(user, pk: int) -> Season:
    season = (
        Season.objects.filter(pk=pk, club__in=game_selectors.clubs_visible(user)).select_related("club").first()
        if ids.in_range(pk)
        else None
    )
    if season is None:
        raise Http404("no such season")
    return season


def club_seasons(club: Club):
    return Season.objects.filter(club=club).order_by("-created_at", "-id")


def record(season: Season) -> dict:
    """The season as the core's record (tichu-season/1)."""
    rows = SeasonEvent.objects.filter(season=season).order_by("seq").only("type", "payload")
    events = [r.as_record_event() for r in rows]
    # the header carries its format (tichu-season/1) as the core normalised it
    return {"format": season.header["format"], "header": season.header, "events": events}


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
