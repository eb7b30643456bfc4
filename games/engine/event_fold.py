"""What every game's fold has in common: dispatching events to their handlers, and ``undo``.

A state class lists its handlers (``_handlers``), the fields of its events (``_schemas``) and the
events that start a hand or a round (``_starts``). ``apply`` checks the event's shape, refuses events after the game is over, and keeps
what ``undo`` needs: for each hand begun, the state just before it (a bare copy, without undo
history of its own) with the events in force at that moment; and the events in force since the
current hand began. ``undo`` copies the last checkpoint and refolds those events but the last.
The checkpoints are a flat tuple, shared between copies: copying a state stays cheap, and a
pickled state's depth does not grow with the number of hands. The events since the hand began are
a list appended in place (a tuple grown by concatenation cost a copy of the hand per event); each
copy of a state takes its own copy of that list.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable

from .errors import EngineError
from .interpreted import interpreted_class
from .schema import Schema, check_types, compile_checks


@interpreted_class
class EventFold:
    __slots__ = ()

    _handlers: ClassVar[dict[str, Callable[[Any, dict[str, Any]], None]]]
    _starts: ClassVar[frozenset[str]]
    _schemas: ClassVar[Schema]  # the fields of each event type (schema.py)
    _dispatch: ClassVar[
        dict[str, tuple[Callable[[Any, dict[str, Any]], None], Callable[[dict[str, Any]], None] | None, bool]]
    ]
    _checks: ClassVar[dict[str, Callable[[dict[str, Any]], None]]]  # the compiled field check per event type
    _quick: ClassVar[dict[str, Callable[[Any, dict[str, Any]], None]]] = {}  # quick handlers (see _build_dispatch)
    _after_end: ClassVar[frozenset[str]] = frozenset()  # event types a finished game takes (corrections.py)

    # set by subclasses (declared in their __slots__)
    over: bool
    events_applied: int
    _checkpoints: tuple[tuple[Any, tuple[dict[str, Any], ...]], ...]
    _since: list[dict[str, Any]]

    def copy(self) -> Any:  # pragma: no cover - every state defines it
        raise NotImplementedError

    def _start_fold(self) -> None:
        """The fields every game starts with: no score sheet, not over, nothing to undo."""
        self.history: list[dict[str, Any]] = []  # the score sheet: one line per finished hand or round
        self.over = False
        self.winner: int | None = None
        self.events_applied = 0
        self._checkpoints = ()  # per hand begun: (bare state before it, events in force then)
        self._since = []  # the events in force since the current hand began (each state its own list)

    def _copy_fold_into(self, other: Any) -> Any:
        other.history = list(self.history)  # lines are never changed once written
        other.over, other.winner, other.events_applied = self.over, self.winner, self.events_applied
        other._checkpoints, other._since = self._checkpoints, list(self._since)
        return other

    def _bare_copy(self) -> Any:
        """A copy without undo history: what a checkpoint keeps."""
        bare = self.copy()
        bare._checkpoints, bare._since = (), []
        return bare

    def _unknown_event(self, kind: Any) -> EngineError:
        return EngineError(
            "malformed", f"unknown event type {kind!r}", params={"rule": "unknown_type", "type": repr(kind)}
        )

    def _game_over(self, kind: str) -> EngineError:
        return EngineError(
            "game_over",
            f"the game is over; {kind} is not accepted (an undo is)",
            params={"rule": "over", "event": kind},
        )

    @classmethod
    def _build_dispatch(cls) -> None:
        """Once per state class, after its ``_handlers``, ``_schemas`` and ``_starts`` are set: per
        event type, its handler, its compiled field check and whether it starts a hand. An event
        type with a quick handler (``_quick``, never one that starts a hand) has that handler and
        no check: the quick handler checks what its quick way reads, and sends anything else to
        :meth:`_checked`, the same steps as every other event type."""
        checks = compile_checks(cls._schemas)
        cls._checks = checks
        quick = getattr(cls, "_quick", {})
        cls._dispatch = {
            kind: (quick[kind], None, False) if kind in quick else (handler, checks[kind], kind in cls._starts)
            for kind, handler in cls._handlers.items()
        }

    def _checked(self, kind: str, event: dict[str, Any]) -> None:
        """An event of a type with a quick handler that its quick way did not take: the field
        check, the game's end, the handler, in the order :meth:`apply` gives them."""
        self._checks[kind](event)
        if self.over:
            raise self._game_over(kind)
        self._handlers[kind](self, event)

    def apply(self, event: Any) -> None:
        """Check ``event`` against the rules and apply it, or raise EngineError and change nothing.

        The usual event (a dict whose type has a handler) takes the short way: one lookup, the
        compiled field check, the handler. Anything else (not a dict, an odd type, undo) takes
        :meth:`_apply_other`, which gives each refusal in the same order."""
        kind: Any = event.get("type") if event.__class__ is dict else None
        entry = self._dispatch.get(kind) if kind.__class__ is str else None
        if entry is None:
            self._apply_other(event)
            return
        handler, check, starts = entry
        if check is None:  # a quick handler (play, pass): it checks the fields and the game's end itself
            handler(self, event)
        else:
            check(event)  # a field of the wrong JSON type is malformed, not a crash
            if self.over or starts:  # the rare cases: the same steps as every other way in
                self._fold_in(kind, handler, starts, event)
                return
            handler(self, event)  # _fold_in's steps for an event within a hand, inline: the hot path
        self._since.append(event)
        self.events_applied += 1

    def apply_each(self, events: Iterable[Any], start: int = 0) -> None:
        """:meth:`apply` of each event in order; a refused event raises with ``index`` set to its
        position (``start``: the first one's), the events before it applied. ``apply``'s short way
        is inline here, step for step, one call less per event (the import folds every event of
        every record); anything else is ``apply``'s. The events applied the short way are added to
        ``_since`` and ``events_applied`` together, before anything else reads them (a hand's
        start, an undo, the loop's end or a refusal): no handler reads either."""
        dispatch = self._dispatch
        if events.__class__ is not list:
            events = list(events)
        kept = 0  # events[:kept] are counted in _since and events_applied
        k = 0
        try:
            for k, event in enumerate(events):  # noqa: B007 - k names the refused event below
                kind: Any = event.get("type") if event.__class__ is dict else None
                entry = dispatch.get(kind) if kind.__class__ is str else None
                if entry is not None:
                    handler, check, starts = entry
                    if check is None:  # a quick handler: it checks the fields and the game's end itself
                        handler(self, event)
                        continue
                    check(event)
                    if not (self.over or starts):
                        handler(self, event)
                        continue
                if kept < k:  # the rare cases: apply's own steps, the events before counted first
                    self._since.extend(events[kept:k])
                    self.events_applied += k - kept
                kept = k + 1
                if entry is None:
                    self._apply_other(event)
                else:
                    self._fold_in(kind, entry[0], entry[2], event)
        except BaseException as err:
            if kept < k:  # the events before the refused one stand
                self._since.extend(events[kept:k])
                self.events_applied += k - kept
            if isinstance(err, EngineError):
                err.index = start + k
            raise
        if kept < len(events):
            self._since.extend(events[kept:])
            self.events_applied += len(events) - kept

    def _apply_other(self, event: Any) -> None:
        if not isinstance(event, dict):
            raise EngineError(
                "malformed", f"an event must be an object, not {type(event).__name__}", params={"rule": "not_object"}
            )
        kind = event.get("type")
        if not isinstance(kind, str):
            raise EngineError(
                "malformed",
                f"an event's 'type' is a string, not {type(kind).__name__}",
                params={"rule": "type_not_string"},
            )
        if kind != "undo" and kind not in self._handlers:
            raise self._unknown_event(kind)
        check_types(self._schemas, event)  # a field of the wrong JSON type is malformed, not a crash
        if kind == "undo":
            self._undo()
            return
        self._fold_in(kind, self._handlers[kind], kind in self._starts, event)

    def _fold_in(self, kind: str, handler: Callable[[Any, dict[str, Any]], None], starts: bool, event: Any) -> None:
        """The rules' part, once the event's shape is checked: refused after the game's end, else
        the handler, then what an undo needs."""
        if self.over and kind not in self._after_end:
            raise self._game_over(kind)
        if starts:
            checkpoint = (self._bare_copy(), tuple(self._since))
            handler(self, event)
            self._checkpoints, self._since = self._checkpoints + (checkpoint,), [event]
        else:
            handler(self, event)
            self._since.append(event)
        self.events_applied += 1

    def _undo(self) -> None:
        """Retract the latest event still in force: refold the hand from its checkpoint."""
        if not self._since:
            raise EngineError("wrong_phase", "there is no event to undo", params={"rule": "nothing_to_undo"})
        base, since_then = self._checkpoints[-1]
        restored = base.copy()
        restored._checkpoints, restored._since = self._checkpoints[:-1], list(since_then)
        for event in self._since[:-1]:
            restored.apply(event)
        count = self.events_applied + 1
        # read as any tuple of names: the compiled build (mypyc_build.py) types a class attribute
        # by its value in this class, EventFold's empty tuple
        names: tuple[str, ...] = getattr(type(self), "__slots__")  # noqa: B009
        for name in names:
            setattr(self, name, getattr(restored, name))
        self.events_applied = count
