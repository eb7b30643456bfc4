"""Small hand-written records and events for the API tests (score-sheet style `hand_result`
events are legal at any hand boundary, so they make short games with known totals)."""

from __future__ import annotations

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def hand(points=(50, 50), out=(0, 1, 2, 3), calls=None) -> dict:
    event = {"type": "hand_result", "calls": calls or {}, "out": list(out)}
    if points is not None:
        event["points"] = list(points)
    return event


def grand_double(seat: int = 0) -> dict:
    """A double victory with a successful Grand Tichu: 400 to the seat's team."""
    return hand(points=None, out=(seat, seat + 2), calls={str(seat): "grand_tichu"})


def record(events=(), players=PLAYERS, variant="nanking", **extra) -> dict:
    return {"format": "tichu-record/1", "variant": variant, "players": list(players), "events": list(events), **extra}


# The rules refuse this at any point of a nanking game: points must sum to 100.
ILLEGAL_HAND = hand(points=(50, 45))
