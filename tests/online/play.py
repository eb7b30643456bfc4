"""Driving an online table from its seats in tests: a seeded bot picks each seat's action among
those the seat's own view offers (so it plays only what a page would offer)."""

from __future__ import annotations

import random

from games.online import selectors, services
from games.online.models import OnlineSeat, OnlineTable
from games.services import ServiceError


def open_four(club, user, variant: str = "nanking", options=None) -> OnlineTable:
    return services.open_table(
        club=club, variant=variant, options=options, players=["Ada", "Ben", "Cyd", "Dot"], user=user
    )


def join_all(table: OnlineTable) -> list[OnlineSeat]:
    seats = list(table.seats.order_by("seat"))
    for seat in seats:
        services.join(seat)
    return list(table.seats.order_by("seat"))


def choose(view: dict, rng: random.Random) -> dict | None:
    """A seat's move from its own view, or None when it has nothing to do now."""
    hand = view["state"]["hands"][view["hand_seat"]] if view["state"].get("hands") else []
    if view["push_due"]:
        return {"type": "push", "seat": view["push_seat"], "cards": push_choice(view, hand, rng)}
    actions = [a for a in view["actions"] if a["type"] not in ("tichu", "grand_tichu")]
    if not actions:
        return None
    plays = [a for a in actions if a["type"] == "play"]
    bombs_only = plays and view["state"].get("turn") not in view["controls"]
    if bombs_only and rng.random() < 0.9:
        return None  # out of turn: bomb now and then only
    return dict(rng.choice(plays if plays and rng.random() < 0.7 else actions))


def push_choice(view: dict, hand: list[str], rng: random.Random) -> dict:
    """The push a page would send: the forced tribute as offered (Grand Seigneur), else random
    cards, as many as each target is due (one card written as the card, several as a list)."""
    chosen = view.get("push_forced") or {}
    pool = [c for c in hand if all(c not in cs for cs in chosen.values())]
    rng.shuffle(pool)
    cards = {}
    for target, count in view["push_due"].items():
        picked = chosen.get(target) or [pool.pop() for _ in range(count)]
        cards[target] = picked if count > 1 else picked[0]
    return cards


def step(table: OnlineTable, rng: random.Random, on_view=None) -> bool:
    """One action by the first seat (in a random order) that has one; False when none has."""
    seats = list(table.seats.select_related("table").order_by("seat"))
    rng.shuffle(seats)
    for seat in seats:
        view = selectors.seat_view(seat)
        if on_view is not None:
            on_view(seat, view)
        move = choose(view, rng)
        if move is not None:
            if move.get("seat") == seat.seat and rng.random() < 0.5:
                move.pop("seat")  # the seat's own action may leave its seat unsaid
            try:
                services.act(seat=seat, action=move, expected_seq=view["seq"])
            except ServiceError:  # a random push the rules refuse (Grand Seigneur's tribute): nothing stored
                continue
            return True
    return False
