"""What a reader may see of a game: the table's view of a hand in play.

During a hand the table sees the cards played, the calls, the discards and how many cards each
seat holds; a player also sees the hand of the seat they hold (Threechu's dealer sees the dummy's
too, ``Variant.hands_seen``). Once the hand is over (or the game, as a club may choose) every card
of it is open. This module decides which events and positions of a record are *secret* (a
:class:`Sight`) and masks them: a hidden card is written :data:`HIDDEN` (``"?"``) in place of its
code, so counts and shapes stay. Deciding *who* holds which seat, or who sees everything (the
club's scorers), is the site's business; what the table sees is the game's, so it lives here.

The secret part of a record is a suffix: the events from ``Sight.secret_from`` on. With
``after_hand`` it begins after the last event in force before the hand now in play (so events an
``undo`` took back, which may be a redealt copy of the hand in play, are secret too); when no hand
is in play only events taken back since the last one in force are secret; a finished game has no
secret. With ``after_game`` everything is secret until the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .game import game_for
from .registry import HAND_START_EVENTS

HIDDEN = "?"
AFTER_HAND = "after_hand"
AFTER_GAME = "after_game"
REVEALS = (AFTER_HAND, AFTER_GAME)
#: The marker a masked state or record carries (record-format extension, docs/engine-api.md).
REDACTED_KEY = "redacted"

_AT_REST = frozenset({"between_hands", "between_rounds", "game_over"})
#: The hand starts that record a whole hand or round at once (the score sheet's line): never in play.
_WHOLE_HANDS = frozenset({"hand_result", "round_result"})
#: The hand starts that begin a hand in play: the registry's one list but the whole hands.
_HAND_STARTS = HAND_START_EVENTS - _WHOLE_HANDS


@dataclass(frozen=True)
class Sight:
    """What one reader may see of one record as it stands.

    ``seats``: the seats whose hands the reader holds (``None``: every hand, e.g. a scorer);
    ``secret_from``: the index of the first secret event (``None``: nothing is secret);
    ``shufflers``: the shuffler of the hand of each event from ``secret_from`` on (Threechu's
    dealer sees the dummy)."""

    seats: frozenset[int] | None = None
    secret_from: int | None = None
    variant: str = ""
    shufflers: tuple[int | None, ...] = ()

    @property
    def everything(self) -> bool:
        """Nothing is hidden from this reader."""
        return self.seats is None or self.secret_from is None

    def key(self) -> str:
        """A short text naming what this reader sees, for cache keys: two readers with the same
        key see exactly the same thing (``"all"`` when nothing is hidden)."""
        if self.everything:
            return "all"
        return f"{self.secret_from}s{'.'.join(map(str, sorted(self.seats or ())))}"

    def marker(self) -> dict[str, Any] | None:
        """What a masked record (or list of events) says of itself: the first masked event, the
        hidden card's code and the seats the reader holds; ``None`` when nothing is hidden."""
        if self.everything:
            return None
        return {"from": self.secret_from, "card": HIDDEN, "seats": sorted(self.seats or ())}

    def position_secret(self, n: int) -> bool:
        """Whether the state after the first ``n`` events shows a hand in play (it then is masked)."""
        return not self.everything and n > self.secret_from  # type: ignore[operator]

    def event_secret(self, i: int) -> bool:
        """Whether the event at index ``i`` may carry secret cards (it then is masked)."""
        return not self.everything and i >= self.secret_from  # type: ignore[operator]

    def seen(self, shuffler: int | None) -> frozenset[int]:
        """The seats whose cards this reader sees in a hand shuffled by ``shuffler``."""
        if self.seats is None:
            raise ValueError("a reader who sees everything has no list of seats")
        if not self.seats:
            return self.seats
        game = game_for(self.variant)  # whose hands a seat sees is the game's (Threechu's dealer: the dummy's too)
        return frozenset().union(*(game.hands_seen(s, shuffler) for s in self.seats))

    def event_shuffler(self, i: int) -> int | None:
        k = i - (self.secret_from or 0)
        return self.shufflers[k] if 0 <= k < len(self.shufflers) else None


EVERYTHING = Sight()


def _in_force(events: Sequence[dict[str, Any]]) -> tuple[list[int], list[int | None], list[int | None]]:
    """Replays ``undo`` on event types alone (an undo retracts the latest event still in force,
    record-format.md section 3): the indices still in force, the hand start in force after each
    of them, and for every event the hand start in force when it was applied."""
    stack: list[int] = []
    starts: list[int | None] = []
    hand_of: list[int | None] = []
    for i, event in enumerate(events):
        kind = event.get("type")
        if kind == "undo":
            if stack:
                stack.pop()
                starts.pop()
            hand_of.append(starts[-1] if starts else None)
            continue
        if kind in _HAND_STARTS:
            start: int | None = i
        elif kind in _WHOLE_HANDS:
            start = None
        else:
            start = starts[-1] if starts else None
        stack.append(i)
        starts.append(start)
        hand_of.append(start)
    return stack, starts, hand_of


def secret_from(events: Sequence[dict[str, Any]], state: Any, reveal: str = AFTER_HAND) -> int | None:
    """The index of the first secret event of ``events`` (all accepted) folded into ``state``, or
    ``None`` when nothing is secret (see the module docstring)."""
    if reveal not in REVEALS:
        raise ValueError(f"reveal must be one of {', '.join(REVEALS)}, not {reveal!r}")
    if state.over or not events:
        return None
    if reveal == AFTER_GAME:
        return 0
    stack, starts, _ = _in_force(events)
    if state.phase in _AT_REST:
        first = stack[-1] + 1 if stack else 0
        return first if first < len(events) else None
    current = starts[-1] if starts else None
    if current is None:  # not expected: a hand in play began with an event in force
        return 0
    k = stack.index(current)
    return stack[k - 1] + 1 if k > 0 else 0


def sight_for(
    variant: str, events: Sequence[dict[str, Any]], state: Any, *, seats: Iterable[int] | None, reveal: str = AFTER_HAND
) -> Sight:
    """The sight of a reader holding ``seats`` (``None``: one who sees every hand) on the record of
    ``variant`` whose accepted ``events`` fold to ``state``."""
    if seats is None:
        return EVERYTHING
    first = secret_from(events, state, reveal)
    if first is None:
        return EVERYTHING
    _, _, hand_of = _in_force(events)
    shufflers = tuple(
        events[h].get("seat") if h is not None and events[h].get("type") == "shuffle" else None for h in hand_of[first:]
    )
    return Sight(seats=frozenset(seats), secret_from=first, variant=variant, shufflers=shufflers)


def _masked(cards: Any) -> Any:
    """``cards`` (a code or a list of codes) with every code hidden."""
    if isinstance(cards, list):
        return [HIDDEN] * len(cards)
    return HIDDEN


def redact_state(state: dict[str, Any], sight: Sight, n: int | None = None) -> dict[str, Any]:
    """The ``state_json`` of the position after ``n`` events (default: its ``events``) as the
    reader of ``sight`` may see it: other seats' hands, pushes and the Tien Zi Que card just
    drawn masked, everything on the table as it is. Returns ``state`` itself when nothing is
    secret there, else a new dict with a ``redacted`` marker."""
    if n is None:
        n = state.get("events", 0)
    if not sight.position_secret(n):
        return state
    seen = sight.seen(state.get("shuffler"))
    out = dict(state)
    out["hands"] = [list(h) if s in seen else [HIDDEN] * len(h) for s, h in enumerate(state.get("hands") or [])]
    if state.get("pushes"):
        # The pusher knows what it gave; the receiver learns it when the exchange is done.
        exchanged = state.get("phase") not in ("deal", "exchange")
        out["pushes"] = {
            s: {t: c if int(s) in seen or (exchanged and int(t) in seen) else _masked(c) for t, c in p.items()}
            for s, p in state["pushes"].items()
        }
    if state.get("drawn") is not None and state.get("turn") not in seen:
        out["drawn"] = HIDDEN  # Tien Zi Que: the card just drawn is in the hand of the seat to act
    out[REDACTED_KEY] = {"card": HIDDEN, "seats": sorted(seen)}
    return out


def redact_event(event: dict[str, Any], sight: Sight, i: int) -> dict[str, Any]:
    """The event at index ``i`` as the reader of ``sight`` may see it: the cards a seat receives
    (draw, deal, a Tien Zi Que deal or reshuffle) or gives at the exchange, hidden unless the
    reader sees that seat's hand. Returns ``event`` itself when nothing of it is hidden."""
    if not sight.event_secret(i):
        return event
    kind = event.get("type")
    seen = sight.seen(sight.event_shuffler(i))
    seat = event.get("seat")
    if kind in ("draw", "deal", "push"):
        key = "card" if kind == "draw" else "cards"
        if key not in event or seat in seen:
            return event
        value = event[key]
        if kind == "push" and isinstance(value, dict):
            value = {t: _masked(c) for t, c in value.items()}
        else:
            value = _masked(value)
        return {**event, key: value}
    if kind == "round_start":
        out = dict(event)
        if isinstance(event.get("hands"), list):
            out["hands"] = [h if s in seen else _masked(h) for s, h in enumerate(event["hands"])]
        if "stock" in event:
            out["stock"] = _masked(event["stock"])  # face down
        return out
    if kind == "reshuffle" and "stock" in event:
        return {**event, "stock": _masked(event["stock"])}  # the order of a face-down stock
    return event


def redact_events(events: Iterable[dict[str, Any]], sight: Sight, start: int = 0) -> list[dict[str, Any]]:
    """``redact_event`` of each event, the first at index ``start``."""
    return [redact_event(e, sight, i) for i, e in enumerate(events, start)]


def redact_record(record: dict[str, Any], sight: Sight) -> dict[str, Any]:
    """The record as the reader of ``sight`` may see it. When something is hidden the record
    carries ``"redacted": {"from": i, "card": "?", "seats": [...]}`` (the first masked event and
    the seats the reader holds): an extension of the record format that ``parse_record`` refuses
    to fold. Returns ``record`` itself when nothing is hidden."""
    if sight.everything:
        return record
    out = dict(record)
    if "events" in record:
        out["events"] = redact_events(record["events"], sight)
    out[REDACTED_KEY] = sight.marker()
    return out
