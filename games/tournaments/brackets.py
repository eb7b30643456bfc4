"""A club's knockout bracket in the database (docs/tournament.md, "Knockout brackets"): create one,
seed it (by the club's Elo table, by a previous tournament's standings, or by hand), record and
correct its matches' results, and read its fold.

Created, locked, appended to and read as every club stream is (games.tournaments.club_streams:
the one stream store's append, each batch folded by the core, games.tournament.bracket, on top of
the stored stream first, so a refused event stores nothing and answers with the core's code); what
is the bracket's own here: a seed's roster players of the club, the seeding, the view. The layout
(who meets whom, winners, the consolation bracket) is never stored: it is the core's
`bracket_json` of the fold.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import hooks, ids
from games import tournament as core
from games.models import Club, Player
from games.streams.errors import InvalidInput
from games.streams.results import WriteResult
from games.tournaments import visibility
from games.tournaments.club_streams import MAX_BATCH as MAX_BATCH
from games.tournaments.club_streams import ClubStreamKind, ClubStreamNotFound, ClubStreamWords
from games.tournaments.models import Bracket, BracketEvent, Tournament

#: the variant whose Elo table seeds a bracket by rating (the league's default table)
RATING_VARIANT = "nanking"


def _check_roster(bracket: Bracket, event: dict, index: int) -> dict:
    """A player given by id must be one of the club's roster (the core checks the shape)."""
    if event.get("type") != "bracket_seeded" or not isinstance(event.get("entries"), list):
        return event
    wanted = {
        p
        for e in event["entries"]
        if isinstance(e, dict) and isinstance(e.get("players"), list)
        for p in e["players"]
        if type(p) is int
    }
    if not wanted:
        return event
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
    return event


BRACKETS: ClubStreamKind[Bracket] = ClubStreamKind(
    model=Bracket,
    event_model=BracketEvent,
    parse=core.parse_bracket_header,
    fold=core.fold_bracket,
    prepare=_check_roster,
    words=ClubStreamWords(
        name=gettext_noop("a bracket's name is a non-empty string of at most 100 characters"),
        what=gettext_noop("the bracket"),
        not_found=gettext_noop("no such bracket"),
        writer=gettext_noop("running a bracket needs the scorer or admin role in club '%(club)s'"),
        seq_conflict=gettext_noop("expected_seq is %(expected)s but the bracket is at seq %(current)s"),
    ),
)


# --- writes --------------------------------------------------------------------------------------


#: a new bracket of a club (the caller checked the user is a scorer or admin there), its header
#: checked and normalised by the core (parse_bracket_header)
bracket_create = BRACKETS.create


def append_bracket_events(
    *, bracket_id: int, events: Any, expected_seq: int, user, idempotency_key: str | None = None
) -> WriteResult:
    """Append a batch of bracket events atomically (bracket_seeded, match_result, match_corrected
    with its reason), each checked by the core's fold of the stored stream first."""
    return BRACKETS.append(
        pk=bracket_id, events=events, expected_seq=expected_seq, user=user, idempotency_key=idempotency_key
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
    bracket = bracket_get(user, bracket_id, exc=ClubStreamNotFound)
    BRACKETS.check_writer(user, bracket)  # before any standings or ratings are read for the order
    if entries is None and tournament is None:
        raise InvalidInput(_("give the entries, or a tournament to take them from"), code="entries_missing")
    if entries is None:
        entries = entries_of_tournament(bracket, tournament, user, top)
    event = seeded_event(bracket, entries, by, user, tournament)
    return append_bracket_events(
        bracket_id=bracket_id, events=[event], expected_seq=expected_seq, user=user, idempotency_key=idempotency_key
    )


# --- reads ---------------------------------------------------------------------------------------


bracket_get = BRACKETS.get  # Http404 unless the user may see its club
club_brackets = BRACKETS.of_club
record = BRACKETS.record  # the bracket as the core's record (tichu-bracket/1)


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
