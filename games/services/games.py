"""Games: created empty (then appended to) or imported whole from a record."""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine, hooks, snapshots
from games.models import Club, Game, GameSeat
from games.streams.checks import check_events_shape, check_storable
from games.streams.idempotency import fingerprint, with_idempotency
from games.streams.imports import import_hash, import_once

from . import events as events_service  # looked up at call time: tests replace its writes
from .checks import _check_name
from .content import content_start, name_key, record_content
from .dating import dating
from .errors import InvalidInput, RuleViolation, engine_reason
from .game_end import status_for
from .players import players_for_names
from .results import WriteResult, game_body

MAX_IMPORT_EVENTS = 20_000


def new_game_state(variant: str, options: dict | None, names: list[str]) -> engine.PlayState:
    try:
        return engine.new_game(variant, options, players=names)
    except engine.EngineError as err:
        if err.code == "malformed":
            raise InvalidInput(engine_reason(err, names), code="malformed", params=err.params) from None
        raise RuleViolation(err, index=None, names=names) from None


def _create_game_rows(
    *,
    club: Club,
    variant: str,
    options,
    names: list[str],
    header: dict,
    user,
    played_at=None,
    import_hash: str | None = None,
) -> Game:
    dated = {} if played_at is None else {"played_at": played_at}
    game = Game.objects.create(
        club=club,
        variant=variant,
        options=options,
        header=header,
        created_by=user,
        status=status_for(False, header),
        import_hash=import_hash,
        content_hash=content_start(variant, options, header),
        **dated,
    )
    players = players_for_names(club=club, names=names)
    GameSeat.objects.bulk_create(GameSeat(game=game, seat=i, player=p) for i, p in enumerate(players))
    return game


def game_create(
    *, club: Club, variant: str, options: dict | None, players: list[str], user, idempotency_key: str | None = None
) -> WriteResult:
    for name in players:
        _check_name(name)
    check_storable([variant, options, players], gettext_noop("the game"))
    state = new_game_state(variant, options, players)

    def write() -> WriteResult:
        game = _create_game_rows(
            club=club, variant=variant, options=options, names=players, header={"format": engine.FORMAT}, user=user
        )
        snapshots.cache_on_commit(game, [(0, state, True)])
        hooks.game_started.send(game)  # the club's feed entry, in this transaction
        return WriteResult(body=game_body(game))

    printed = (
        fingerprint("game_create", club=club.pk, variant=variant, options=options, players=players)
        if idempotency_key is not None
        else ""
    )
    return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)


def record_played_at(record: dict) -> datetime | None:
    """The record's ``meta.played_at`` (ISO 8601; a date alone is midnight UTC, a time without
    offset is UTC), or None when it has none: the game is then dated by its import. A time whose
    offset takes it past the calendar in UTC (0001-01-01T00:00+01:00) is malformed too: storing
    it converts it to UTC, which raised OverflowError (a 500)."""
    meta = record.get("meta")
    value = meta.get("played_at") if isinstance(meta, dict) else None
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00")) if isinstance(value, str) else None
        if when is not None and when.tzinfo is not None:
            when.astimezone(dt_timezone.utc)
    except (ValueError, OverflowError):
        when = None
    if when is None:
        raise InvalidInput(
            _("meta.played_at must be an ISO 8601 date or time, not %(value)r") % {"value": value}, code="malformed"
        )
    return when if when.tzinfo is not None else when.replace(tzinfo=dt_timezone.utc)


def _import_body(game: Game) -> dict[str, Any]:
    """An import's answer: the game, and when it was played with how that is known (dated by the
    import when its record gives no date: docs/importers.md)."""
    return {
        **game_body(game),
        "played_at": game.played_at.isoformat(),
        "played_at_source": dating(game.header.get("meta"))["played_at_source"],
    }


def same_content_game(club: Club, content: str, names: list[str]) -> Game | None:
    """The club's game with this record content (games.services.content) whose seats hold these
    players now (names compared as the roster compares them), recorded by appends or imported: one
    indexed lookup, (club, content_hash); the players are read for the few games it finds."""
    wanted = [name_key(n) for n in names]
    for game in Game.objects.filter(club=club, content_hash=content).prefetch_related("seats__player").order_by("pk"):
        if [name_key(seat.player.name) for seat in game.seats.all()] == wanted:
            return game
    return None


def checked_import_events(record: Any) -> list:
    """The checks of a whole record before its fold, the same for every import (this service and
    the bulk archive import, games.bulk_store): a JSON object of storable JSON, the engine's
    strict parse, the events' shape and number. Returns the events; raises InvalidInput
    (malformed) or RuleViolation (an event the parse refuses, with its index)."""
    if not isinstance(record, dict):
        raise InvalidInput(_("a record is a JSON object"), code="malformed")
    check_storable(record, gettext_noop("the record"))
    try:
        engine.parse_record(record, strict=True)
    except engine.EngineError as err:
        if err.code == "malformed":
            raise InvalidInput(engine_reason(err), code="malformed") from None
        raise RuleViolation(err, index=err.index) from None
    events = record.get("events", [])
    check_events_shape(events, MAX_IMPORT_EVENTS)
    return events


def game_import(*, club: Club, record: Any, user, idempotency_key: str | None = None) -> WriteResult:
    """Store a whole record (section 1) as a new game in `club`. The record is checked by the
    engine first (malformed: InvalidInput; a refused event: RuleViolation with its index in
    `events`); the events are stored exactly as given, so that the export equals the record.

    Idempotent by content: a record the club imported before (`import_hash`), or a game of the club
    with the same content and players however it was recorded (`content_hash`, games.services.content:
    a game recorded by appends, exported, imported again), stores nothing and answers with the game
    already there (`already_imported`, `created` False), also when two imports of one record race
    (the unique constraint on `import_hash` decides; the loser answers with the winner's game)."""
    events = checked_import_events(record)
    names = record["players"]
    variant, options = record["variant"], record.get("options")
    # Everything else at the top level (`format`, extensions, an explicit `"options": null`) is
    # kept verbatim for the export.
    header = {
        k: v
        for k, v in record.items()
        if k not in ("variant", "players", "events") and not (k == "options" and v is not None)
    }
    if "events" not in record:
        header[Game.OMITTED_EVENTS] = True
    played_at = record_played_at(record)
    state = new_game_state(variant, options, names)
    kept = events_service._apply_batch(state, 0, events)

    content = import_hash(record)
    recorded = record_content(variant, options, header, events)

    def create() -> WriteResult:
        game = _create_game_rows(
            club=club,
            variant=variant,
            options=options,
            names=names,
            header=header,
            user=user,
            played_at=played_at,
            import_hash=content,
        )
        if events:
            events_service._insert_events(game=game, start=0, events=events, state=state, user=user, content=recorded)
        snapshots.cache_on_commit(game, kept, 0, events)
        return WriteResult(body=_import_body(game))

    def write() -> WriteResult:
        return import_once(
            model=Game,
            club=club,
            content=content,
            create=create,
            answer=_import_body,
            # recorded by appends, or imported otherwise worded
            known=lambda: same_content_game(club, recorded, names),
        )

    printed = fingerprint("game_import", club=club.pk, record=record) if idempotency_key is not None else ""
    return with_idempotency(user=user, key=idempotency_key, fingerprint=printed, write=write)
