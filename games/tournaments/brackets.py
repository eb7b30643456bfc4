"""A club's knockout bracket in the database (docs/tournament.md, "Knockout brackets"): create one,
seed it (by the club's Elo table, by a previous tournament's standings, or by hand), record and
correct its matches' results, and read its fold.

Writes go through the one stream store (games.streams.append_batch: the head row locked,
`expected_seq`, Idempotency-Key, all of the batch or nothing); each batch is folded by the core
(games.tournament.bracket) on top of the stored stream first, so a refused event stores nothing
and answers with the core's code. The layout (who meets whom, winners, the consolation bracket)
is never stored: it is the core's `bracket_json` of the fold.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import hooks, ids
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
from games.tournaments.models import Bracket, BracketEvent, Tournament
from games.tournaments.services import TournamentNotFound, _core_call

MAX_BATCH = 50
#: the variant whose Elo table seeds a bracket by rating (the league's default table)
RATING_VARIANT = "nanking"


class BracketNotFound(TournamentNotFound):
    """No such bracket, or one the user may not see (404)."""


class BracketSeqConflict(SeqConflict):
    """`expected_seq` is not the bracket's current seq (409), worded for a bracket."""

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(expected_seq, current_seq)
        self.message = _("expected_seq is %(expected)s but the bracket is at seq %(current)s") % {
            "expected": expected_seq,
            "current": current_seq,
        }
        self.args = (self.message,)


def _body(bracket: Bracket) -> dict[str, Any]:
    return {"id": bracket.pk, "seq": bracket.seq}


# --- writes --------------------------------------------------------------------------------------


def bracket_create(*, club: Club, name: str, header: Any, user, idempotency_key: str | None = None) -> WriteResult:
    """A new bracket of `club` (the caller checked the user is a scorer or admin there); the header
    is checked and normalised by the core (parse_bracket_header)."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidInput(_("a bracket's name is a non-empty string of at most 100 characters"))
    if not isinstance(header, dict):
        raise InvalidInput(_("header must be an object"), code="malformed")
    check_storable([name, header], gettext_noop("the bracket"))
    parsed = _core_call(core.parse_bracket_header, {**header, "name": header.get("name") or name.strip()})

    def write() -> dict:
        bracket = Bracket.objects.create(club=club, name=name.strip(), header=parsed, created_by=user)
        return _body(bracket)

    printed = (
        fingerprint("bracket_create", club=club.pk, name=name, header=header) if idempotency_key is not None else ""
    )
    return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)


def _lock_for_writer(bracket_id: int, user) -> Bracket:
    rows = Bracket.objects.select_related("club").filter(pk=bracket_id if ids.in_range(bracket_id) else 0)
    bracket = (
        rows.select_for_update(of=("self",)).first()
        if transaction.get_connection().features.has_select_for_update_of
        else rows.select_for_update().first()
    )
    if bracket is None or not may_read(user, bracket):
        raise BracketNotFound(_("no such bracket"))
    if game_selectors.membership_role(user, bracket.club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("running a bracket needs the scorer or admin role in club '%(club)s'") % {"club": bracket.club.slug}
        )
    return bracket


def _check_roster(bracket: Bracket, event: Any, index: int) -> None:
    """A player given by id must be one of the club's roster (the core checks the shape)."""
    if (
        not isinstance(event, dict)
        or event.get("type") != "bracket_seeded"
        or not isinstance(event.get("entries"), list)
    ):
        return
    wanted = {
        p
        for e in event["entries"]
        if isinstance(e, dict) and isinstance(e.get("players"), list)
        for p in e["players"]
        if type(p) is int
    }
    if not wanted:
        return
    known = set(
        Player.objects.filter(club=bracket.club, pk__in=[p for p in wanted if ids.in_range(p)]).values_list(
            "pk", flat=True
        )
    )
    unknown = sorted(wanted - known)
    if unknown:
        raise InvalidInput(
            _("event %(index)s: player %(player)s is not on the roster of club “%(club)s”")
            % {"index": index, "player": unknown[0], "club": bracket.club.slug},
            code="player_not_of_club",
            params={"index": index, "player": unknown[0]},
        )


def append_bracket_events(
    *, bracket_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of bracket events atomically (bracket_seeded, match_result, match_corrected
    with its reason), each checked by the core's fold of the stored stream first."""

    def write(bracket: Bracket, batch: list[dict]) -> dict[str, Any]:
        state = core.fold_bracket(record(bracket))  # the stored stream was checked when appended
        for i, event in enumerate(batch):
            _check_roster(bracket, event, i)
            _core_call(state.apply, event, index=i)
        start = bracket.seq
        who = user if user is not None and user.is_authenticated else None
        BracketEvent.objects.bulk_create(
            BracketEvent(
                bracket=bracket,
                seq=start + i + 1,
                type=e["type"],
                payload={k: v for k, v in e.items() if k != "type"},
                recorded_by=who,
            )
            for i, e in enumerate(batch)
        )
        bracket.seq = start + len(batch)
        bracket.save(update_fields=["seq"])
        return {**_body(bracket), "appended": len(batch), "first_seq": start + 1}

    return append_batch(
        events=events,
        limit=MAX_BATCH,
        operation="bracket_append",
        stream={"bracket": bracket_id},
        expected_seq=expected_seq,
        user=user,
        idempotency_key=idempotency_key,
        lock=lambda: _lock_for_writer(bracket_id, user),
        conflict=BracketSeqConflict,
        write=write,
    )


# --- seeding -------------------------------------------------------------------------------------


def seeded_event(bracket: Bracket, entries: list[dict], by: str, user, tournament: int | None = None) -> dict:
    """The `bracket_seeded` event of `entries` put in seed order: by the club's Elo table (an entry's
    rating the mean of its rated roster players'; an entry with none follows, in the order given),
    by a previous tournament's standings (an entry placed where the first standings row that shares
    its id or a player is; the others follow), or by hand (the order given). Nothing is stored."""
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("entry"), str) for e in entries
    ):
        return {"type": "bracket_seeded", "entries": entries, "by": by}  # the core words the refusal
    keys = [e["entry"] for e in entries]
    if by == "rating":
        roster = [p for e in entries for p in e.get("players") or [] if type(p) is int and ids.in_range(p)]
        elo = hooks.club_elo_ratings(bracket.club, RATING_VARIANT, roster) if roster else {}
        ratings: dict[str, float] = {}
        for e in entries:
            rated = [elo[p] for p in e.get("players") or [] if type(p) is int and p in elo]
            if rated:
                ratings[e["entry"]] = sum(rated) / len(rated)
        order = core.seed_order(keys, "rating", ratings=ratings)
    elif by == "previous_stage":
        rows = previous_standings(bracket, tournament, user)
        placed: list[tuple[int, str]] = []
        for e in entries:
            players = set(map(repr, e.get("players") or []))
            place = next(
                (
                    i
                    for i, row in enumerate(rows)
                    if row["entry"] == e["entry"] or players & set(map(repr, row.get("players") or []))
                ),
                None,
            )
            if place is not None:
                placed.append((place, e["entry"]))
        order = core.seed_order(keys, "previous_stage", standings=[k for _, k in sorted(placed)])
    else:
        order = core.seed_order(keys, by)
    by_key = {e["entry"]: e for e in entries}
    return {"type": "bracket_seeded", "entries": [by_key[k] for k in order], "by": by}


def previous_standings(bracket: Bracket, tournament: int | None, user) -> list[dict]:
    """A tournament of the bracket's club, its standings rows as `user` may see them."""
    found = (
        Tournament.objects.filter(pk=tournament, club=bracket.club).select_related("club").first()
        if type(tournament) is int and ids.in_range(tournament)
        else None
    )
    if found is None:
        raise InvalidInput(
            _("seeding by a previous stage needs a tournament of club “%(club)s”") % {"club": bracket.club.slug},
            code="stage_not_of_club",
        )
    return core.standings_json(visibility.reader_state(found, user))["standings"]


def entries_of_tournament(bracket: Bracket, tournament: int | None, user, top: int | None = None) -> list[dict]:
    """The entries of a previous tournament in its standings order (its first `top`), as a
    bracket's entries: the TD's shortcut for a knockout after a qualifying stage."""
    rows = previous_standings(bracket, tournament, user)
    rows = [r for r in rows if r.get("status") != "withdrawn"][: top or None]
    return [{"entry": str(r["entry"]), "players": list(r["players"]), "name": r["name"]} for r in rows]


def seed_bracket(
    *,
    bracket_id: int,
    entries: list[dict] | None,
    by: str,
    expected_seq: int,
    user,
    tournament: int | None = None,
    top: int | None = None,
    idempotency_key: str | None = None,
) -> WriteResult:
    """Seed the bracket (once): `entries` put in order by `by`; with no entries and a previous
    tournament, that tournament's entries (its first `top`) in its standings' order."""
    bracket = bracket_get(user, bracket_id, exc=BracketNotFound)
    if game_selectors.membership_role(user, bracket.club) not in Membership.WRITER_ROLES:
        raise WriteForbidden(
            _("running a bracket needs the scorer or admin role in club '%(club)s'") % {"club": bracket.club.slug}
        )  # before any standings or ratings are read for the order
    if entries is None and tournament is None:
        raise InvalidInput(_("give the entries, or a tournament to take them from"), code="entries_missing")
    if entries is None:
        entries = entries_of_tournament(bracket, tournament, user, top)
    event = seeded_event(bracket, entries, by, user, tournament)
    return append_bracket_events(
        bracket_id=bracket_id, events=[event], expected_seq=expected_seq, user=user, idempotency_key=idempotency_key
    )


# --- reads ---------------------------------------------------------------------------------------


def may_read(user, bracket: Bracket) -> bool:
    return bracket.club.is_public or game_selectors.membership_role(user, bracket.club) is not None


def bracket_get(user, pk: int, exc: type[Exception] = Http404) -> Bracket:
    bracket = (
        Bracket.objects.filter(pk=pk, club__in=game_selectors.clubs_visible(user)).select_related("club").first()
        if ids.in_range(pk)
        else None
    )
    if bracket is None:
        raise exc("no such bracket")
    return bracket


def club_brackets(club: Club):
    return Bracket.objects.filter(club=club).order_by("-created_at", "-id")


def record(bracket: Bracket) -> dict:
    """The bracket as the core's record (tichu-bracket/1)."""
    rows = BracketEvent.objects.filter(bracket=bracket).order_by("seq").only("type", "payload")
    events = [r.as_record_event() for r in rows]
    return {"format": bracket.header["format"], "header": bracket.header, "events": events}


def bracket_view(bracket: Bracket) -> dict[str, Any]:
    """What a reader sees of a bracket: the core's bracket_json of its fold (rounds, matches with
    their sides, games, winners, the consolation bracket), with its id, club, name and seq."""
    state = core.fold_bracket(record(bracket))
    view = core.bracket_json(state)
    _name_players(bracket.club, view["seeding"]["seeds"])
    return {"id": bracket.pk, "club": bracket.club.slug, "name": bracket.name, "seq": bracket.seq, **view}


def _name_players(club: Club, seeds: list[dict]) -> None:
    """A seed's roster players by name, beside their ids (`player_names`)."""
    player_ids = [p for s in seeds for p in s["players"] if type(p) is int]
    names = dict(Player.objects.filter(club=club, pk__in=player_ids).values_list("pk", "name"))
    for s in seeds:
        s["player_names"] = [names.get(p, str(p)) if type(p) is int else p for p in s["players"]]
