"""One game of a Brettspielwelt log while it is read: its events and what the record keeps beside
them (the players' handles, the notes of a lax reading), with the marks a hand is taken back to."""

from __future__ import annotations

from typing import Any

from .bsw_codes import TARGET_SCORE


class GameBuilder:
    """One game's events and what the record keeps beside them, while the log is read."""

    def __init__(self, names: list[str]) -> None:
        self.players = list(names)
        self.current = list(names)  # the handle each seat has right now
        self.events: list[dict[str, Any]] = []
        self.event_lines: list[int] = []  # the log line of each event
        self.results: list[list[int] | None] = []
        self.substitutions: list[dict[str, Any]] = []
        self.startkarten: dict[str, dict[str, list[str]]] = {}
        self.totals = [0, 0]
        self.first_out: int | None = None  # first out of the latest hand
        # seat -> (handle, hand, event index) of a line without cards that named another handle
        self.pending: dict[int, tuple[str, int, int]] = {}
        self.notes: list[dict[str, Any]] = []
        self.hands = 0  # hand headers read

    def add(self, event: dict[str, Any], lineno: int) -> None:
        self.events.append(event)
        self.event_lines.append(lineno)

    def see(self, seat: int, name: str, hand: int) -> None:
        """A line with cards (a block, push, play or pass line) names ``seat`` as ``name``: a
        changed handle is a substitution from here on, or from the line without cards that named
        it first (``note``)."""
        pending = self.pending.pop(seat, None)
        if self.current[seat] != name:
            event_index = len(self.events)
            if pending is not None and pending[0] == name:
                hand, event_index = pending[1], pending[2]
            self.current[seat] = name
            self.substitutions.append({"hand": hand, "seat": seat, "name": name, "event": event_index})

    def note(self, seat: int, name: str, hand: int) -> None:
        """A line without cards (a call, ``Drache an:``, ``BOMBE:``) names ``seat`` as ``name``.
        Another handle there is only a substitution once the seat's next line with cards shows it
        too (BSW sometimes prints a handle that never plays on such a line). No handle: nothing."""
        if not name:
            return  # ``Drache an: (1)``: the seat alone
        if name == self.current[seat]:
            self.pending.pop(seat, None)
        elif seat not in self.pending or self.pending[seat][0] != name:
            self.pending[seat] = (name, hand, len(self.events))

    def mark(self) -> tuple:
        """What a hand may change, to take it back (:meth:`rollback`)."""
        return (
            len(self.events),
            len(self.substitutions),
            list(self.current),
            dict(self.pending),
            dict(self.startkarten),
            self.first_out,
        )

    def rollback(self, mark: tuple) -> None:
        n, subs, current, pending, startkarten, first_out = mark
        del self.events[n:], self.event_lines[n:], self.substitutions[subs:]
        self.current[:] = current
        self.pending = pending
        self.startkarten = startkarten
        self.first_out = first_out

    @property
    def over(self) -> bool:
        a, b = self.totals
        return max(a, b) >= TARGET_SCORE and a != b
