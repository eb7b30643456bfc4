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
"""
from __future__ import annotations

from typing import Iterable

from games import selectors as game_selectors
from games import tournament as core
from games.models import GameSeat, Membership
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
    return core.fold(reader_record(tournament, user, upto))


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
