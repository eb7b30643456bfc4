"""Storing the games of one imported file at once: the bulk path of `import_bsw --workers`
(games.import_tasks). The same checks and rows as `services.game_import`, per file instead of
per game:

* one validating fold per game (`fold_checked`), whose final state is kept: it gives the game's
  status and, in the file's transaction, its rating outcome (games.hooks.finished_games_stored_held),
  so that neither the store nor the ratings fold the game again. No snapshot goes to any cache
  during a bulk import (pickling every hand boundary cost more than a later fold of the game);
* one query for the content hashes of all the file's games (a game the club imported before is
  counted as already imported and stored no second time);
* the games, seats, events and rating-outbox rows of the file in a few multi-row statements; on
  PostgreSQL the events and the games' heads go in one statement that takes the payloads from
  one compact JSON text of the file (`games.sql.insert_imported_events`, the site's raw SQL
  being in `games.sql`): encoding each payload apart for COPY cost about 0.4 ms of Python a
  hand. The rows still pass every
  trigger of games/migrations (0002 append-only; the `seq` checks of 0012, on PostgreSQL once
  per statement and game since 0016): nothing is disabled for the bulk path;
* finished games are written to the rating outbox *held* (`outbox.record_held`): the import job
  rates the club once when its last file is in (`games.import_tasks.rate_import_job`) instead of
  one task per game (an archive is imported out of playing order, and every game older than the
  pool's newest triggered a full recompute of the pool).

The caller runs `store_records` inside the file's transaction; a race with a concurrent import of
the same content loses on the unique (club, import_hash) constraint, and the caller retries the
file game by game (`services.game_import`), which answers with the winner's game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine, hooks, selectors, sql
from games.models import Club, Game, GameSeat
from games.services import (
    RuleViolation,
    canonical_json,
    checked_import_events,
    import_hash,
    new_game_state,
    players_for_names,
    record_played_at,
    seat_names_of,
)
from games.services.content import name_key, record_content
from games.services.game_end import status_for

_HEADER_SKIP = ("variant", "players", "events")


@dataclass
class Checked:
    """A record the engine accepted, with its final state (the fold's result)."""

    record: dict
    state: engine.PlayState  # any game's state (Tien Zi Que's too)
    content: str  # services.import_hash
    text: str  # services.canonical_json: the hashed text
    recorded: str = ""  # games.services.content: the content whoever recorded it (Game.content_hash)


def fold_checked(record: Any) -> Checked:
    """The checks of `services.game_import` (storable, strict schema, the events' shape) and one
    validating fold. Raises InvalidInput or RuleViolation as the service does."""
    events = checked_import_events(record)
    # the service's fold (services.game_import): the strict parse above checked the record once,
    # so the events are applied to a new state here rather than by engine.fold (a second parse)
    state = new_game_state(record["variant"], record.get("options"), record["players"])
    for i, event in enumerate(events):
        try:
            state.apply(event)
        except engine.EngineError as err:
            raise RuleViolation(err, index=i, names=seat_names_of(state)) from None
    text = canonical_json(record)
    recorded = record_content(record["variant"], record.get("options"), _header(record), events)
    return Checked(record=record, state=state, content=import_hash(record, text), text=text, recorded=recorded)


def _header(record: dict) -> dict:
    header = {k: v for k, v in record.items() if k not in _HEADER_SKIP and not (k == "options" and v is not None)}
    if "events" not in record:
        header[Game.OMITTED_EVENTS] = True
    return header


def store_records(*, club: Club, checked: list[Checked]) -> list[tuple[Game, bool]]:
    """Store the checked records as new games of `club` (inside the caller's transaction).
    Returns, per record, (game, created): the new game, or the one imported before with that
    content (created False). Finished games get a held rating-outbox row."""
    hashes = [c.content for c in checked]
    existing = {g.import_hash: g for g in Game.objects.filter(club=club, import_hash__in=hashes)}
    existing.update(_same_content(club, [c for c in checked if c.content not in existing]))
    fresh: list[Checked] = []
    seen: set[str] = set()
    for c in checked:
        if c.content not in existing and c.content not in seen:
            seen.add(c.content)
            fresh.append(c)
    games = Game.objects.bulk_create(
        [
            Game(
                club=club,
                variant=c.record["variant"],
                options=c.record.get("options"),
                header=_header(c.record),
                status=status_for(False, _header(c.record)),
                import_hash=c.content,
                content_hash=c.recorded,
                **({} if (at := record_played_at(c.record)) is None else {"played_at": at}),
            )
            for c in fresh
        ]
    )
    names = sorted({n for c in fresh for n in c.record["players"]})
    player_of = {n: p for n, p in zip(names, players_for_names(club=club, names=names))} if names else {}
    GameSeat.objects.bulk_create(
        [
            GameSeat(game=g, seat=i, player=player_of[n])
            for g, c in zip(games, fresh)
            for i, n in enumerate(c.record["players"])
        ]
    )
    _insert_all_events(games, fresh)
    # the ratings' held outbox rows and outcomes, from the states folded above (no second fold)
    hooks.finished_games_stored_held.send(
        [
            (g, [player_of[n].pk for n in c.record["players"]], functools.partial(selectors.state_score, c.state))
            for g, c in zip(games, fresh)
            if g.status == Game.Status.FINISHED
        ]
    )
    by_hash = {g.import_hash: g for g in games}
    out: list[tuple[Game, bool]] = []
    for c in checked:
        if c.content in existing:
            out.append((existing[c.content], False))
        else:
            game = by_hash.pop(c.content, None)
            out.append(
                (game, True) if game is not None else (Game.objects.get(club=club, import_hash=c.content), False)
            )
    return out


def _same_content(club: Club, checked: list[Checked]) -> dict[str, Game]:
    """By import hash, the club's games recorded otherwise (by appends, or imported from another
    wording) with the content and players of these records (games.services.same_content_game, for
    a file at once: one query)."""
    by_content: dict[str, list[Game]] = {}
    games = Game.objects.filter(club=club, content_hash__in={c.recorded for c in checked})
    for game in games.prefetch_related("seats__player").order_by("pk"):
        by_content.setdefault(game.content_hash, []).append(game)
    found = {}
    for c in checked:
        wanted = [name_key(n) for n in c.record["players"]]
        for game in by_content.get(c.recorded, []):
            if [name_key(seat.player.name) for seat in game.seats.all()] == wanted:
                found[c.content] = game
                break
    return found


def _insert_all_events(games: list[Game], checked: list[Checked]) -> None:
    """The events of every game, then each game's seq, status and finished_at (the game triggers
    check that seq is the newest event's)."""
    now = timezone.now()
    for g, c in zip(games, checked):
        g.seq = len(c.record.get("events", []))
        over = c.state.is_over
        g.status = status_for(over, g.header)
        g.finished_at = now if over else None
    moved = [(g, c) for g, c in zip(games, checked) if g.seq]
    if not moved:
        return
    if transaction.get_connection().vendor == "postgresql":
        sql.insert_imported_events([(g, c.record["events"]) for g, c in moved], now)
    else:
        sql.insert_event_rows(_event_rows([g for g, _ in moved], [c for _, c in moved]), None, now)
        Game.objects.bulk_update([g for g, _ in moved], ["seq", "status", "finished_at"])


def _event_rows(games: list[Game], checked: list[Checked]):
    """(game id, seq, type, payload) of every event, each game's in seq order from 1 (the stream
    the trigger `games_event_seq_is_next` checks: per statement on PostgreSQL, per row on SQLite)."""
    for g, c in zip(games, checked):
        for seq, event in enumerate(c.record.get("events", []), start=1):
            yield g.pk, seq, event["type"], {k: v for k, v in event.items() if k != "type"}
