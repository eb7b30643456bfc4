"""Each hand's deal at a glance (issue 39), as a bridge hand record shows one: per seat the cards it
held once the deal was over (in the Tichu family after the Grand Tichu calls, all 14), what it passed
in the exchange and to whom, and what it received; sorted in the order of the game's declared deck.

Read off the frames the reader was given (``ReplayData``), so the one visibility decision of
``masking`` holds here too: a card the reader may not see is the frame's ``HIDDEN`` and stays so.
Nothing here knows a rule: the deal is over at the first frame of the hand whose engine ``phase`` is
no longer ``deal`` (a Tien Zi Que round is dealt by its ``round_start``: its first frame), and the
exchange is the engine's ``pushes``, which only grow within a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import engine

from .compaction import apply_delta

if TYPE_CHECKING:
    from .replay_data import ReplayData

DEALING = "deal"  # the engine's phase while cards are being dealt (drawn)


def deck_order(variant: str) -> dict[str, int]:
    """A card's place in the game's declared deck (``GameInfo.deck``: lowest rank first)."""
    return {code: i for i, code in enumerate(engine.game_info(variant).deck)}


def _sorted(cards: list[str], order: dict[str, int]) -> list[str]:
    return sorted(cards, key=lambda code: order.get(code, len(order)))  # a hidden card last


def _seat_deals(dealt: list[list[str]], pushes: dict, order: dict[str, int]) -> list[dict]:
    seats: list[dict] = [{"dealt": _sorted(list(h), order), "passed": {}, "received": {}} for h in dealt]
    for giver, to in sorted(pushes.items(), key=lambda kv: int(kv[0])):
        for taker, cards in sorted(to.items(), key=lambda kv: int(kv[0])):
            cards = cards if isinstance(cards, list) else [cards]
            if int(giver) < len(seats):
                seats[int(giver)]["passed"][taker] = list(cards)
            if int(taker) < len(seats):
                seats[int(taker)]["received"][giver] = list(cards)
    return seats


def deals(data: ReplayData) -> list[dict]:
    """Per hand with cards: ``{"at": its start, "number", "seats": [{"dealt": [...], "passed":
    {to: cards}, "received": {from: cards}}]}``."""
    order = deck_order(data.variant)
    marks = data.marks.get("hands", [0])
    out: list[dict] = []
    for k, at in enumerate(marks):
        end = marks[k + 1] - 1 if k + 1 < len(marks) else data.length
        frame = data.frame_at(at)
        number = frame.get("hand_number")
        if not number:  # position 0, before the first hand
            continue
        dealt = None
        pushes: dict = {}
        for n in range(at, end + 1):
            if n > at:
                apply_delta(frame, data.deltas[n])  # replaces values: the lists kept below stay as they were
            if dealt is None and frame.get("phase") != DEALING:
                dealt = frame.get("hands") or []
            if frame.get("pushes"):
                pushes = frame["pushes"]
        if dealt is None:  # the record stops during the deal: what was dealt so far
            dealt = frame.get("hands") or []
        if not any(dealt):  # a hand entered from the score sheet: no cards to show
            continue
        out.append({"at": at, "number": number, "seats": _seat_deals(dealt, pushes, order)})
    return out
