"""What the visibility tests compare: the card codes a channel shows, and the cards the rule
hides, worked out here from the full fold (not from games.engine.visibility)."""

from __future__ import annotations

from typing import Any, Iterable

from games import engine

PLAYERS = {"nanking": 4, "threechu": 3, "tientsin": 6, "grand-seigneur": 5, "tien-zi-que": 2}
VARIANTS = tuple(PLAYERS)
AT_REST = {"between_hands", "between_rounds", "game_over"}
#: Keys whose cards are public whatever the moment: a Tien Zi Que deck's composition, the options,
#: finished hands' score-sheet lines.
PUBLIC_KEYS = {"deck", "options", "score_sheet"}


def bot_record(seed: int, variant: str, max_hands: int = 2) -> dict:
    players = [f"P{i}" for i in range(PLAYERS[variant])]
    if variant == "tien-zi-que":
        return engine.random_game(seed, variant=variant, players=players)
    return engine.random_record(seed, variant=variant, players=players, max_hands=max_hands)


def shown_codes(obj: Any, universe: set[str]) -> set[str]:
    """Every card code of `universe` written anywhere in the JSON `obj` (values and keys), but
    under PUBLIC_KEYS."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if x in universe:
                found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                if k in PUBLIC_KEYS:
                    continue
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(obj)
    return found


def universe(record: dict) -> set[str]:
    codes = set(engine.TICHU_DECK)
    if record["variant"] == "tien-zi-que":
        for e in record["events"]:
            if e["type"] == "round_start":
                codes |= {c for h in e["hands"] for c in h} | set(e["stock"])
    return codes


def _public_cards(event: dict) -> Iterable[str]:
    """Cards an event shows the whole table: plays, Tien ZiQue discards and combinations."""
    kind = event.get("type")
    if kind == "play":
        yield from event.get("cards") or []
    elif kind == "discard":
        yield event["card"]
    elif kind in ("pung", "chow"):
        yield from event.get("cards") or []
        for key in ("keep", "take"):
            if key in event:
                yield event[key]


def hand_start(events: list[dict]) -> int:
    """The index of the event that began the hand in play (records without undo)."""
    return max(i for i, e in enumerate(events) if e["type"] in ("shuffle", "round_start"))


def seen_seats(variant: str, seats: set[int], shuffler: int | None) -> set[int]:
    """spec/rules.md: a player sees their own hand; Threechu's dealer also the dummy's (seat 3)."""
    if variant == "threechu" and shuffler in seats:
        return seats | {3}
    return set(seats)


def secret_cards(record: dict, cut: int, seats: set[int]) -> set[str]:
    """The cards a reader holding `seats` may not see after the first `cut` events (clubs that
    reveal after the hand): those in the other seats' hands, their exchange pushes and Tien Zi
    Que's stock, minus every card the reader sees or the table saw in this hand (duplicate codes
    of Grand Seigneur and Tien Zi Que)."""
    events = record["events"][:cut]
    replay = engine.Replay(record)
    final = engine.state_json(replay.state_at(cut))
    if final["phase"] in AT_REST:
        return set()
    start = hand_start(events)
    seen = seen_seats(record["variant"], seats, final.get("shuffler"))
    visible: set[str] = set()
    for e in events[start:]:
        visible |= set(_public_cards(e))
    for n in range(start + 1, cut + 1):
        st = engine.state_json(replay.state_at(n))
        for s in seen:
            if s < len(st["hands"]):
                visible |= set(st["hands"][s])
        for pusher, gifts in (st.get("pushes") or {}).items():
            if int(pusher) in seen:
                visible |= {c for cards in gifts.values() for c in (cards if isinstance(cards, list) else [cards])}
    secret = {c for s, h in enumerate(final["hands"]) if s not in seen for c in h}
    for pusher, gifts in (final.get("pushes") or {}).items():
        if int(pusher) not in seen:
            secret |= {c for cards in gifts.values() for c in (cards if isinstance(cards, list) else [cards])}
    for e in events[start:]:
        if e["type"] in ("round_start", "reshuffle"):
            secret |= set(e["stock"])
    return secret - visible
