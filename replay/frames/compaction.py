"""The frames compacted for the browser, without loss: frame 0 whole, then each frame as the keys
that changed since the previous one. Per-seat lists (``hands``, ``received``, ``tricks_won``) change
seat by seat (``{"hands": {"2": [...]}}``), and a list that only grew is sent as its new tail under
``key + "+"``. ``apply_delta`` (here) and ``expandFrames``
of ``static/replay/frames.js`` (in the page) undo it the same way."""

from __future__ import annotations

import copy
from typing import Any

from .annotations import PRIVATE_KEYS

#: state_json keys that are the same in every frame of a game: sent once, not per frame.
CONSTANT_KEYS = ("ok", "variant", "players", "seat_names", "options", "events")
#: lists with one entry per seat: compacted entry by entry.
PER_SEAT_KEYS = ("hands", "received", "tricks_won")


def frame_of(state_obj: dict) -> dict:
    """A ``state_json`` without the keys sent once per game."""
    return {k: v for k, v in state_obj.items() if k not in CONSTANT_KEYS}


def delta_of(prev: dict, cur: dict) -> dict:
    """The keys of ``cur`` that differ from ``prev`` (the encoding: this module's docstring)."""
    out: dict[str, Any] = {}
    for key, value in cur.items():
        if key in SKIP_IN_DELTA:
            continue
        old = prev.get(key, _MISSING)
        if old == value:
            continue
        if key in PER_SEAT_KEYS and isinstance(old, list) and isinstance(value, list) and len(old) == len(value):
            out[key] = {str(i): v for i, (o, v) in enumerate(zip(old, value)) if o != v}
        elif isinstance(old, list) and isinstance(value, list) and len(value) > len(old) and value[: len(old)] == old:
            out[key + "+"] = value[len(old) :]
        else:
            out[key] = value
    for key in prev:
        if key not in cur and key not in SKIP_IN_DELTA:
            out[key] = None  # not expected: state_json always gives the same keys for a phase
            out.setdefault("-", []).append(key)
    return out


_MISSING = object()
#: not sent per frame: "n" is the frame's index, "text" goes in ``texts``, the private keys are
#: build-time helpers.
SKIP_IN_DELTA = frozenset(("n", "text") + PRIVATE_KEYS)


def apply_delta(frame: dict, delta: dict, copy_values: bool = False) -> dict:
    """Apply one compacted delta to ``frame`` in place (the inverse of ``delta_of``)."""
    for key, value in delta.items():
        if key == "-":
            continue
        if copy_values:
            value = copy.deepcopy(value)
        if key.endswith("+"):
            base = key[:-1]
            frame[base] = list(frame.get(base) or []) + value
        elif key in PER_SEAT_KEYS and isinstance(value, dict):
            seats = list(frame.get(key) or [])
            for i, v in value.items():
                seats[int(i)] = v
            frame[key] = seats
        else:
            frame[key] = value
    for key in delta.get("-", []):
        frame.pop(key, None)
    return frame
