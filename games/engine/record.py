"""Records (record-format.md section 1) and what is read off a fold: ``state`` and ``score``."""

from __future__ import annotations

import itertools
from typing import Any, Iterable, Iterator

from .errors import EngineError
from .game import PlayState, find_game, game_for, game_of
from .schema import FAMILY, Schema, strict_check

FORMAT = "tichu-record/1"
RECORD_KEYS = {"format", "variant", "options", "players", "events", "meta"}


def event_schema(variant: str) -> Schema:
    """The fields of each event type of ``variant``'s game (schema.py); the Tichu family's for a
    name the engine does not know (the fold refuses that name itself)."""
    game = find_game(variant)
    return game.schema if game is not None else FAMILY


def check_incoming(variant: str, events: Iterable[Any], start: int = 0) -> None:
    """Refuse, as ``malformed`` with the index (counted from ``start``) of the first one, events
    that may not be stored: a field their type does not have, or sizes past schema.py's bounds.
    Run where events come in (an import, an append, the CLI); the fold itself reads what was
    stored before as it was written."""
    strict = strict_check(event_schema(variant))
    for i, event in enumerate(events, start):
        try:
            strict(event)
        except EngineError as err:
            err.index = i
            raise


_DICT, _STR = frozenset({dict}), frozenset({str})
_TYPE_KEYS = itertools.repeat("type")  # dict.get's second argument for every event (never exhausted)


def parse_record(obj: Any, *, strict: bool = False, check_events: bool = True) -> dict[str, Any]:
    """Check a record's shape (not its rules) and return it with defaults filled in.

    Unknown top-level keys are refused; ``meta`` is free-form (importers keep their provenance
    there): the record's one extension point. ``strict`` (a record coming in: an import, the
    CLI) also refuses events with unknown fields or past the size bounds (:func:`check_incoming`).
    ``check_events=False`` leaves out the test that every event is an object with a string type
    (not with ``strict``): for :func:`fold`, whose own loop tests each event's type anyway and
    which asks this function again when it refuses something.
    """
    if not isinstance(obj, dict):
        raise EngineError("malformed", "a record is a JSON object", params={"rule": "record_not_object"})
    if "redacted" in obj:
        raise EngineError(
            "malformed",
            "a redacted record (its hidden cards written '?') cannot be folded; "
            "export it as a scorer of the club for the whole record",
            params={"rule": "record_redacted"},
        )
    unknown = set(obj) - RECORD_KEYS
    if unknown:
        fields = ", ".join(sorted(unknown))
        raise EngineError(
            "malformed", f"unknown record field(s): {fields}", params={"rule": "record_fields", "fields": fields}
        )
    if obj.get("format", FORMAT) != FORMAT:
        raise EngineError(
            "malformed",
            f"format must be {FORMAT!r}, not {obj.get('format')!r}",
            params={"rule": "record_format", "expected": repr(FORMAT), "given": repr(obj.get("format"))},
        )
    players = obj.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise EngineError(
            "malformed",
            "players must be a list of non-empty display names in seat order",
            params={"rule": "record_players"},
        )
    options = obj.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise EngineError("malformed", "options must be an object", params={"rule": "options_not_object"})
    events = obj.get("events", [])
    if not isinstance(events, list):
        raise EngineError("malformed", "events must be a list", params={"rule": "record_events"})
    # the usual record (what JSON gives: every event a dict, every type a str) is passed at C speed,
    # by the set of the exact types; anything else is asked event by event, subclasses included
    if (check_events or strict) and not (
        {*map(type, events)} <= _DICT and {*map(type, map(dict.get, events, _TYPE_KEYS))} <= _STR
    ):
        for i, e in enumerate(events):
            if not isinstance(e, dict) or not isinstance(e.get("type"), str):
                raise EngineError(
                    "malformed",
                    f"event {i} must be an object with a string 'type'",
                    index=i,
                    params={"rule": "record_event", "index": i},
                )
    if not isinstance(obj.get("variant"), str):
        raise EngineError("malformed", "variant must be a string", params={"rule": "record_variant"})
    if strict:
        check_incoming(obj["variant"], events)
    record = {"format": FORMAT, "variant": obj["variant"], "options": options, "players": players, "events": events}
    if "meta" in obj:
        record["meta"] = obj["meta"]
    return record


def new_state(variant: str, options: dict[str, Any] | None, players: list[str]) -> PlayState:
    """The initial state of a game, from the game registered under ``variant`` (game.py): a
    :class:`~.state.GameState` for the Tichu family, a ``TienZiQueState`` for Tien Zi Que; every
    one offers :class:`~.game.PlayState` (``apply``, ``copy``, ``phase``, ``turn``, ``over``,
    ``winner``, ``events_applied``, ``history``)."""
    return game_for(variant).new_state(options, players)


def seat_names(variant: str, players: list[str], lang: str | None = None) -> list[str]:
    """What to call each seat of a game: the players in seat order (and Threechu's dummy, by its
    name in ``lang``: ``Dummy``, ``Mort``, ``Strohmann``, ``уявний гравець``)."""
    return game_for(variant).seat_names(players, lang)


def retracted_by_undo(events: Iterable[dict[str, Any]], start: int = 1) -> dict[int, int]:
    """``{number of a retracted event: number of the undo that retracted it}``, the events numbered
    from ``start`` (1: a stored game's ``seq``). The record format's ``undo`` (record-format.md
    section 3) replayed on event types alone: an undo retracts the latest event still in force, so
    an undo after an undo retracts the event before.

    >>> hand, undo = {"type": "hand_result"}, {"type": "undo"}
    >>> retracted_by_undo([hand, hand, hand, undo, undo])
    {3: 4, 2: 5}
    """
    in_force: list[int] = []
    retracted: dict[int, int] = {}
    for n, event in enumerate(events, start=start):
        if event.get("type") == "undo":
            if in_force:
                retracted[in_force.pop()] = n
        else:
            in_force.append(n)
    return retracted


def new_game(variant: str, options: dict[str, Any] | None = None, players: list[str] | None = None) -> PlayState:
    """A new game of ``variant`` (players ``Player 1``... when none are named)."""
    if players is None:
        from .registry import game_info

        players = [f"Player {i + 1}" for i in range(game_info(variant).seat_counts[0])]
    return new_state(variant, options, players)


def fold(record: Any, upto: int | None = None) -> PlayState:
    """The state after the first ``upto`` events (all by default).

    A refused event raises EngineError with ``index`` set to its position in ``events``.
    """
    if upto is not None:
        record = parse_record(record)
        state = new_state(record["variant"], record["options"], record["players"])
        return apply_all(state, record["events"][:upto], start=0)
    # The whole record (the import folds every event): the fold's own loop tests each event's
    # type, so the record's test of every event's shape (a set of types built over all events, 2%
    # of the import) is only asked once something is refused. A record with a malformed event is
    # then refused as parse_record refuses it, before anything else: the same error as ever.
    try:
        parsed = parse_record(record, check_events=False)
        state = new_state(parsed["variant"], parsed["options"], parsed["players"])
        return apply_all(state, parsed["events"], start=0)
    except Exception as err:  # noqa: BLE001 - raised again below, after the record's own checks
        refused = err
    parse_record(record)
    raise refused


def apply_all(state: PlayState, events: Iterable[dict[str, Any]], start: int) -> PlayState:
    """Apply events in order; ``start`` is the index of the first one in its record.
    :func:`fold_steps`'s loop without its yield per event (the import folds every event), in
    :meth:`~.event_fold.EventFold.apply_each`."""
    state.apply_each(events, start)
    return state


def fold_steps(
    state: PlayState, events: Iterable[dict[str, Any]], start: int = 0
) -> Iterator[tuple[int, dict[str, Any], PlayState]]:
    """Fold ``events`` into ``state`` one at a time, yielding ``(n, event, state)`` after each:
    ``state`` (the same object, changed in place) is the state after the first ``n`` events of
    the record, ``start`` being the index of the first of ``events`` in it.

    The one fold of the code base: :class:`Replay`, the site's snapshot cache
    (``games.snapshots``) and the replay's frames all fold through it (:func:`apply_all` is
    its loop without the yields). A refused event raises
    EngineError with ``index`` set to its position, after the states before it were yielded.
    """
    i = start
    try:
        for i, event in enumerate(events, start):  # noqa: B007 - i names the refused event below
            state.apply(event)
            yield i + 1, event, state
    except EngineError as err:
        err.index = i
        raise


def state_json(state: PlayState) -> dict[str, Any]:
    """The JSON of ``python -m games.engine state``: everything a viewer needs at this moment."""
    return game_of(state).state_json(state)


def score_json(state: PlayState) -> dict[str, Any]:
    """The JSON of ``python -m games.engine score``: the score sheet of the finished hands."""
    return game_of(state).score_json(state)


class Replay:
    """Random access to the states of one record, with snapshots at hand boundaries.

    ``state_at(n)`` copies the nearest snapshot at or before ``n`` and folds the rest, so a deep
    position costs at most one hand's events, never the whole game.
    """

    def __init__(self, record: Any) -> None:
        self.record = parse_record(record)
        self.events = self.record["events"]
        initial = new_state(self.record["variant"], self.record["options"], self.record["players"])
        self.snapshots: list[tuple[int, PlayState]] = [(0, initial.copy())]
        state = initial
        self.error: EngineError | None = None
        events = self.events
        if events and events[0].get("type") in initial._starts:
            self.snapshots.append((0, initial.copy()))  # a snapshot before each start, the first too
        try:
            for n, _event, state in fold_steps(initial, events):
                if n < len(events) and events[n].get("type") in state._starts:  # the game's own hand (or round) starts
                    self.snapshots.append((n, state.copy()))
        except EngineError as err:
            self.error = err
        self.final = state
        self.valid_length: int = len(self.events) if self.error is None else (self.error.index or 0)

    def state_at(self, n: int | None = None) -> PlayState:
        """The state after the first ``n`` events (clamped to the valid prefix). At or past the
        end this is the replay's own final state: copy it before applying anything to it."""
        if n is None or n >= self.valid_length:
            return self.final
        n = max(0, n)
        base_index, base = 0, self.snapshots[0][1]
        for index, snap in self.snapshots:
            if index <= n:
                base_index, base = index, snap
            else:
                break
        return apply_all(base.copy(), self.events[base_index:n], base_index)
