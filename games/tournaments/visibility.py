"""Who sees which results of a tournament: the one place the site decides it (as
games/visibility.py decides who sees which hands of a game).

In a duplicate tournament every table of a round plays the same boards, so a table must not learn
how a board went elsewhere before the round is over. Until a round of a duplicate tournament is
closed, a reader who is not the TD (the club's scorers and admins) sees none of that round's
results: the events that carry or answer them (`RESULT_EVENTS`) are left out of what they read,
and every figure they are shown (board results and matchpoints, standings, crosstable, table
scores, the results export and its CSV/XLSX, the record and the event list) is folded from what is
left. A table's own result stays on its result page (`/games/{game}/enter/result/`, the table's
code or a scorer). Other systems (Swiss, round robin, ...) hide nothing.

Every reading channel asks `reader_record` / `reader_state` / `reader_events` (never
`selectors.record` or `selectors.state_at`, which are the TD's and the services'); none decides
for itself.

The tables' games themselves carry the boards' deals and play: until a duplicate tournament is
finished, a table's game is read only by the TD, by the table (its code) and by the players
seated in it (`table_game_held`, asked by `games.selectors.game_get`, the one door of every
channel that reads a game: API, replay, game and entry pages). A board moves on to
other tables in later rounds, so a round's close is not enough.

Until its round closes a table's game also carries the round's result: no list shows it to
anyone but the TD and the table's seated players (`unlisted`: the club page and its evening, the
API's game lists), and no rating counts it (`rating_held`: so neither the league nor the player
pages and their exports show it); when the round closes (or the tournament finishes) the
tournament's services send its finished games to be rated (`released_games`). A table's code is a
scorer without a seat: it sees no hand of the board in play (`code_sees_hands`).

These rules reach the records through `games.holds` (registered by `TournamentsConfig.ready()`):
the records ask the one registry, never this module.
"""

from __future__ import annotations

import functools
import operator
from collections import defaultdict
from typing import Iterable

from django.db.models import Q

from games import selectors as game_selectors
from games import tournament as core
from games.models import Game, GameSeat, Membership
from games.tournaments import selectors
from games.tournaments.models import TableGame, Tournament, TournamentEvent

# The events that record, correct, confirm or dispute a table's result in a round.
RESULT_EVENTS = frozenset({"result_recorded", "result_corrected", "result_confirmed", "result_disputed"})


def sees_everything(tournament: Tournament, user) -> bool:
    """The TD (the club's scorers and admins) sees every result, always."""
    return user is not None and game_selectors.can_write(user, tournament.club)


def _is_duplicate(header: dict) -> bool:
    return header.get("system") == "duplicate"


def hidden_rounds(tournament: Tournament, user, events: list[dict] | None = None) -> frozenset[int]:
    """The rounds whose results `user` may not see now: the open rounds of a duplicate tournament,
    for anyone but the TD. `events`: the whole stream when the caller has read it already."""
    if not _is_duplicate(tournament.header) or sees_everything(tournament, user):
        return frozenset()
    stream = events if events is not None else selectors.events(tournament)
    paired = {e.get("round") for e in stream if e.get("type") == "round_paired"}
    closed = {e.get("round") for e in stream if e.get("type") == "round_closed"}
    return frozenset(r for r in paired - closed if isinstance(r, int))


def hides(event: dict, hidden: frozenset[int]) -> bool:
    return bool(hidden) and event.get("type") in RESULT_EVENTS and event.get("round") in hidden


def reader_record(tournament: Tournament, user, upto: int | None = None) -> dict:
    """The tournament's record as `user` may read it (the first `upto` stored events, less the
    hidden results)."""
    events = selectors.events(tournament)
    hidden = hidden_rounds(tournament, user, events)
    kept = events[:upto] if upto is not None else events
    return {"format": core.FORMAT, "header": tournament.header, "events": [e for e in kept if not hides(e, hidden)]}


def reader_state(tournament: Tournament, user, upto: int | None = None) -> core.TournamentState:
    """The core's state as `user` may see it. Leaving out a round's results keeps the stream
    foldable: an open round may lack results, and the answers to them go with them."""
    return selectors.fold(tournament, reader_record(tournament, user, upto))


def reader_events(tournament: Tournament, user, rows: Iterable[TournamentEvent]) -> list[TournamentEvent]:
    """The stored event rows `user` may read (their seq numbers kept)."""
    rows = list(rows)
    hidden = hidden_rounds(tournament, user)
    return [row for row in rows if not hides(row.as_record_event(), hidden)]


def table_game_held(game, user) -> bool:
    """Whether `game` (its club loaded) is a table's game of a duplicate tournament still in
    progress that `user` may not read: anyone but the TD (the club's scorers and admins), the
    table's code (a scorer of this game only) and its seated players. The deal of a board and how
    it went stay at its tables until every table has played it."""
    meta = (game.header or {}).get("meta") if isinstance(game.header, dict) else None
    if not isinstance(meta, dict) or not meta.get("tournament"):
        return False  # not a table's game (each is marked so in its header when made): no query
    role = getattr(game, "viewer_role", None) or game_selectors.membership_role(user, game.club)
    if role in Membership.WRITER_ROLES or getattr(user, "table_code_game", None) == game.pk:
        return False
    link = (
        TableGame.objects.filter(game_id=game.pk, tournament__status=Tournament.Status.ACTIVE)
        .select_related("tournament")
        .first()
    )
    if link is None or not _is_duplicate(link.tournament.header):
        return False
    if user is None or not user.is_authenticated:
        return True
    return not GameSeat.objects.filter(game_id=game.pk, player__user=user).exists()


def _open_round_games() -> dict[int, int]:
    """{game id: club id} of the tables' games in the open rounds of the duplicate tournaments in
    progress: one query when none is open (every list of games pays it), two otherwise."""
    paired: dict[int, set] = defaultdict(set)
    closed: dict[int, set] = defaultdict(set)
    clubs: dict[int, int] = {}
    for tid, club, kind, payload in TournamentEvent.objects.filter(
        tournament__status=Tournament.Status.ACTIVE,
        tournament__header__system="duplicate",
        type__in=("round_paired", "round_closed"),
    ).values_list("tournament_id", "tournament__club_id", "type", "payload"):
        clubs[tid] = club
        (paired if kind == "round_paired" else closed)[tid].add(payload.get("round"))
    open_rounds = [
        Q(tournament_id=tid, round__in=rounds - closed[tid]) for tid, rounds in paired.items() if rounds - closed[tid]
    ]
    if not open_rounds:
        return {}
    links = TableGame.objects.filter(functools.reduce(operator.or_, open_rounds))
    return {game: clubs[tid] for game, tid in links.values_list("game_id", "tournament_id")}


def unlisted(user) -> set[int]:
    """The games of open duplicate rounds no list may show `user`: all but the TD's (the scorers
    and admins of the game's club) and the games `user` is seated in. A table's code is anonymous
    everywhere but on its game's own channels, so it lists nothing more than the public."""
    held = _open_round_games()
    if not held:
        return set()
    writes: set[int] = set()
    seated: set[int] = set()
    user_id = getattr(user, "pk", None) if user is not None and user.is_authenticated else None
    if user_id is not None:  # a table code's holder has none
        writes = set(
            Membership.objects.filter(user_id=user_id, role__in=Membership.WRITER_ROLES).values_list(
                "club_id", flat=True
            )
        )
        seated = set(
            GameSeat.objects.filter(game_id__in=held, player__user_id=user_id).values_list("game_id", flat=True)
        )
    return {game for game, club in held.items() if club not in writes and game not in seated}


def rating_held() -> set[int]:
    """The games no rating may count yet: those of the open rounds of duplicate tournaments."""
    return set(_open_round_games())


def code_sees_hands(game: Game) -> bool:
    """Whether a table's code scoring `game` sees its hands in play: not in a duplicate tournament,
    whose boards the site deals (the code entered no card of them, and the phone is a player's)."""
    meta = (game.header or {}).get("meta") if isinstance(game.header, dict) else None
    if not isinstance(meta, dict) or not meta.get("tournament"):
        return True
    link = TableGame.objects.filter(game_id=game.pk).select_related("tournament").first()
    return link is None or not _is_duplicate(link.tournament.header)


def released_games(tournament: Tournament, events: list[dict]) -> list[Game]:
    """The finished games whose hold the appended `events` end (a round closed, or the tournament
    finished): the tournament's services send each to be rated."""
    if not _is_duplicate(tournament.header):
        return []
    if any(e.get("type") == "tournament_finished" for e in events):
        links = TableGame.objects.filter(tournament=tournament)
    else:
        rounds = {e.get("round") for e in events if e.get("type") == "round_closed"}
        if not rounds:
            return []
        links = TableGame.objects.filter(tournament=tournament, round__in=rounds)
    return list(Game.objects.filter(pk__in=links.values("game_id"), status=Game.Status.FINISHED).order_by("pk"))


class DuplicateTables:
    """The rule `games.holds` asks (registered by TournamentsConfig.ready())."""

    game_held = staticmethod(table_game_held)
    unlisted = staticmethod(unlisted)
    rating_held = staticmethod(rating_held)
    code_sees_hands = staticmethod(code_sees_hands)


RULE = DuplicateTables()
