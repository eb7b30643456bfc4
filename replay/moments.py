"""The replay's ways to a moment (issue 39): the hands with their tricks (the hand and trick
pickers), the calls, the bombs and the reader's own plays (marks on the slider, "your Tichu
call"), read off the frames' navigation marks and each frame's event (`replay.frames`): nothing
here knows a rule. `static/replay/moments.js` reads the same lists off the payload (a game in
play grows), as `nav.js` mirrors `present.nav_targets`.

Corrections (an undo and the event it took back) are no moment: a call taken back is no call."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from . import frames

CALLS = ("tichu", "grand_tichu")


@dataclass
class Hand:
    number: int  # the engine's hand_number (a round's, in Tien Zi Que)
    at: int  # where it starts (its shuffle)
    tricks: list[int] = field(default_factory=list)  # where each of its tricks starts (the lead)


@dataclass
class Moments:
    hands: list[Hand]
    calls: list[dict]  # {"at", "seat", "call", "hand"}
    bombs: list[int]
    mine: list[int]  # the reader's own plays (their seats')

    def hand_index(self, n: int) -> int | None:
        """The index in `hands` of the hand position `n` is in (None before the first)."""
        i = bisect_right([h.at for h in self.hands], n) - 1
        return i if i >= 0 else None

    def as_json(self) -> dict:
        return {
            "hands": [{"number": h.number, "at": h.at, "tricks": h.tricks} for h in self.hands],
            "calls": self.calls,
            "bombs": self.bombs,
            "mine": self.mine,
        }


def moments(data: frames.ReplayData, my_seats: list[int] | tuple[int, ...] = ()) -> Moments:
    undone = set(data.marks.get("undone", []))
    hand_marks = data.marks.get("hands", [0])
    trick_marks = [t for t in data.marks.get("tricks", []) if t not in undone]
    hands: list[Hand] = []
    for k, at in enumerate(hand_marks):
        number = (data.checkpoints.get(at) or {}).get("hand_number")
        if not number:  # position 0, before the first hand
            continue
        end = hand_marks[k + 1] if k + 1 < len(hand_marks) else data.length + 1
        hands.append(Hand(number, at, [t for t in trick_marks if at <= t < end]))
    starts = [h.at for h in hands]
    calls, bombs, mine = [], [], []
    mine_seats = set(my_seats)
    for n in range(1, min(len(data.deltas), data.length + 1)):
        if n in undone:
            continue
        delta = data.deltas[n]
        event = delta.get("e") or {}
        kind, seat = event.get("type"), event.get("seat")
        if kind in CALLS:
            i = bisect_right(starts, n) - 1
            calls.append({"at": n, "seat": seat, "call": kind, "hand": hands[i].number if i >= 0 else None})
        if "bombs+" in delta:
            bombs.append(n)
        if kind == "play" and seat in mine_seats:
            mine.append(n)
    return Moments(hands, calls, bombs, mine)
