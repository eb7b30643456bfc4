"""A club's feed: what happened in the club that a bot or the club's website posts.

Entries are written in the transaction of what they report (so a feed never tells of a game that
rolled back), numbered per club without gaps, and read with `entries_after` (the API's
`GET /api/clubs/{club}/feed/?after=N`, long-pollable). The webhooks deliver them after the commit
(games.clubs.webhooks). What an entry says follows the one visibility decision: a game held back
from readers (a duplicate table before its round closes: games.holds) gets no entry while held;
the tournament that ends the hold sends `finished_game_changed` for it, and its entry is written
then (docs/api.md, "A club's feed").

Kinds: `game_started`, `game_finished`, `game_reopened`, `round_closed`, `tournament_finished`,
`ratings_recomputed` (FeedEntry.Kind).
"""

from __future__ import annotations

import time
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from games import holds
from games.models import Club, Game

from .models import FeedEntry

Kind = FeedEntry.Kind
MAX_WAIT = 25.0  # seconds, as a game's long poll (games.live)
POLL_INTERVAL = 0.25
_ATTEMPTS = 20  # concurrent writers of one club's feed: each retry takes the next number


def write(
    club_id: int,
    kind: str,
    *,
    game_id: int | None = None,
    tournament_id: int | None = None,
    details: dict[str, Any] | None = None,
) -> FeedEntry:
    """Append one entry to the club's feed (inside the caller's transaction) and deliver it to the
    club's webhooks after the commit.

    The number is the club's last plus one; two writers racing for it meet at the unique index:
    the second waits for the first to commit, fails inside its savepoint and takes the next. So
    numbers are given in commit order, and a follower reading `after=N` misses none."""
    for _attempt in range(_ATTEMPTS):
        last = FeedEntry.objects.filter(club_id=club_id).aggregate(m=Max("seq"))["m"] or 0
        try:
            with transaction.atomic():
                entry = FeedEntry.objects.create(
                    club_id=club_id,
                    seq=last + 1,
                    kind=kind,
                    game_id=game_id,
                    tournament_id=tournament_id,
                    details=details or {},
                )
            break
        except IntegrityError:
            continue
    else:  # pragma: no cover - twenty writers of one club's feed at one instant
        raise RuntimeError(f"club {club_id}: no feed number after {_ATTEMPTS} attempts")
    entry_id = entry.pk
    transaction.on_commit(lambda: _deliver(entry_id))
    return entry


def _deliver(entry_id: int) -> None:
    from games.clubs import webhooks  # the webhooks import the feed's model, not the reverse

    webhooks.deliver_on_commit(entry_id)


# --- what writes the entries ------------------------------------------------------------------


def game_started(game: Game) -> None:
    """games.hooks.game_started: a game created (not an import of a past game)."""
    write(game.club_id, Kind.GAME_STARTED, game_id=game.pk)


def game_changed(game: Game) -> None:
    """games.hooks.finished_game_changed: finished (again: a correction), or reopened by an undo.
    A game held back from readers gets no entry until its hold ends (the hold's end sends it)."""
    if game.pk in holds.rating_held():
        return
    kind = Kind.GAME_FINISHED if game.status == Game.Status.FINISHED else Kind.GAME_REOPENED
    write(game.club_id, kind, game_id=game.pk)


def tournament_events(tournament, events: list[dict]) -> None:
    """A tournament's stored events (games.tournaments.services): its closed rounds and its end."""
    for event in events:
        if event["type"] == "round_closed":
            write(
                tournament.club_id,
                Kind.ROUND_CLOSED,
                tournament_id=tournament.pk,
                details={"name": tournament.name, "round": event.get("round")},
            )
        elif event["type"] == "tournament_finished":
            write(
                tournament.club_id,
                Kind.TOURNAMENT_FINISHED,
                tournament_id=tournament.pk,
                details={"name": tournament.name},
            )


def ratings_recomputed(club_id: int, games: int) -> None:
    """The league's tables were brought up to date (games.ratings' recompute)."""
    with transaction.atomic():
        write(club_id, Kind.RATINGS_RECOMPUTED, details={"games": games})


# --- reading -------------------------------------------------------------------------------------


def last_seq(club: Club) -> int:
    return FeedEntry.objects.filter(club=club).aggregate(m=Max("seq"))["m"] or 0


def entries_after(club: Club, after: int, *, limit: int = 100, wait: float = 0.0) -> list[FeedEntry]:
    """The club's entries with seq > `after`, oldest first; with `wait`, a long poll: up to that
    many seconds (at most MAX_WAIT) for the first one to be committed."""
    deadline = time.monotonic() + max(0.0, min(wait, MAX_WAIT))
    while True:
        rows = list(FeedEntry.objects.filter(club=club, seq__gt=after).order_by("seq")[:limit])
        if rows or time.monotonic() >= deadline:
            return rows
        time.sleep(min(POLL_INTERVAL, max(0.0, deadline - time.monotonic())))


def _game_details(game_id: int, held: set[int]) -> dict[str, Any]:
    """A game entry's details: the game as its record says now. The entry stores only that it
    happened (kind, game, when); the numbers are a fold of the game's record, read when the entry
    is read, so a later correction never leaves a stale score in the feed (one truth). A game held
    back from readers now (games.holds: a duplicate table before its round closes) says no score."""
    from games import selectors  # selectors read the records; this module is written by them

    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return {}
    details: dict[str, Any] = {
        "variant": game.variant,
        "players": selectors.game_player_names(game),
        "status": game.status,
    }
    if game.status == Game.Status.FINISHED and game.pk not in held:
        score = selectors.game_score(game)
        details.update(totals=score.get("totals"), winner=score.get("winner"), hands=len(score.get("hands") or []))
    return details


def entries_json(rows: list[FeedEntry]) -> list[dict[str, Any]]:
    """The entries as the API and the webhooks send them: each game read once, however many of
    its entries are in the page."""
    held = holds.rating_held()
    games: dict[int, dict[str, Any]] = {}
    out = []
    for entry in rows:
        if entry.game_id is not None and entry.game_id not in games:
            games[entry.game_id] = _game_details(entry.game_id, held)
        out.append(_as_json(entry, games.get(entry.game_id, {}) if entry.game_id is not None else {}))
    return out


def as_json(entry: FeedEntry) -> dict[str, Any]:
    return entries_json([entry])[0]


def _as_json(entry: FeedEntry, game_details: dict[str, Any]) -> dict[str, Any]:
    details = {**entry.details, **game_details}
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "at": entry.created_at.isoformat().replace("+00:00", "Z"),
        "game": entry.game_id,
        "tournament": entry.tournament_id,
        "details": details,
    }
