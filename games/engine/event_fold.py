"""What every game's fold has in common: dispatching events to their handlers, and ``undo``.

A state class lists its handlers (``_handlers``), the fields of its events (``_schemas``) and the
events that start a hand or a round (``_starts``). ``apply`` checks the event's shape, refuses events after the game is over, and keeps
what ``undo`` needs: for each hand begun, the state just before it (a bare copy, without undo
history of its own) with the events in force at that moment; and the events in force since the
current hand began. ``undo`` copies the last checkpoint and refolds those events but the last.
The checkpoints are a flat tuple, shared between copies: copying a state stays cheap, and a
pickled state's depth does not grow with the number of hands.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from .errors import EngineError
from .schema import Schema, check_types


class EventFold:
    __slots__ = ()

    _handlers: ClassVar[dict[str, Callable[[Any, dict[str, Any]], None]]]
    _starts: ClassVar[frozenset[str]]
    _schemas: ClassVar[Schema]  # the fields of each event type (schema.py)

    # set by subclasses (declared in their __slots__)
    over: bool
    events_applied: int
    _checkpoints: tuple[tuple[Any, tuple[dict[str, Any], ...]], ...]
    _since: tuple[dict[str, Any], ...]

    def copy(self) -> Any:  # pragma: no cover - every state defines it
        raise NotImplementedError

    def _start_fold(self) -> None:
        """The fields every game starts with: no score sheet, not over, nothing to undo."""
        self.history: list[dict[str, Any]] = []  # the score sheet: one line per finished hand or round
        self.over = False
        self.winner: int | None = None
        self.events_applied = 0
        self._checkpoints = ()  # per hand begun: (bare state before it, events in force then)
        self._since = ()  # the events in force since the current hand began

    def _copy_fold_into(self, other: Any) -> Any:
        other.history = list(self.history)  # lines are never changed once written
        other.over, other.winner, other.events_applied = self.over, self.winner, self.events_applied
        other._checkpoints, other._since = self._checkpoints, self._since
        return other

    def _bare_copy(self) -> Any:
        """A copy without undo history: what a checkpoint keeps."""
        bare = self.copy()
        bare._checkpoints, bare._since = (), ()
        return bare

    def _unknown_event(self, kind: Any) -> EngineError:
        return EngineError("malformed", f"unknown event type {kind!r}")

    def _game_over(self, kind: str) -> EngineError:
        return EngineError("game_over", f"the game is over; {kind} is not accepted (an undo is)")

    def apply(self, event: Any) -> None:
        """Check ``event`` against the rules and apply it, or raise EngineError and change nothing."""
        if not isinstance(event, dict):
            raise EngineError("malformed", f"an event must be an object, not {type(event).__name__}")
        kind = event.get("type")
        if not isinstance(kind, str):
            raise EngineError("malformed", f"an event's 'type' is a string, not {type(kind).__name__}")
        if kind != "undo" and kind not in self._handlers:
            raise self._unknown_event(kind)
        check_types(self._schemas, event)  # a field of the wrong JSON type is malformed, not a crash
        if kind == "undo":
            self._undo()
            return
        handler = self._handlers[kind]
        if self.over:
            raise self._game_over(kind)
        if kind in self._starts:
            checkpoint = (self._bare_copy(), self._since)
            handler(self, event)
            self._checkpoints, self._since = self._checkpoints + (checkpoint,), (event,)
        else:
            handler(self, event)
            self._since = self._since + (event,)
        self.events_applied += 1

    def _undo(self) -> None:
        """Retract the latest event still in force: refold the hand from its checkpoint."""
        if not self._since:
            raise EngineError("wrong_phase", "there is no event to undo")
        base, since_then = self._checkpoints[-1]
        restored = base.copy()
        restored._checkpoints, restored._since = self._checkpoints[:-1], since_then
        for event in self._since[:-1]:
            restored.apply(event)
        count = self.events_applied + 1
        name: str
        for name in type(self).__slots__:
            setattr(self, name, getattr(restored, name))
        self.events_applied = count
