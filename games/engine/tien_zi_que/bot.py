"""The seeded bot of Tien Zi Que: a whole game as a record (tests, demos, benchmarks), and the
bot that takes a seat at an online table (``bot_moves``, through ``engine.bot_moves``)."""

from __future__ import annotations

import random
from typing import Any

from .cards import COLOUR_ORDER, HONOURS, JOKER_CODE, NAME, face, is_coin, is_joker, number, sort_cards
from .state import TienZiQueState
from .table import ACTION, BETWEEN_ROUNDS, DRAWN, RESHUFFLE


def random_deck(rng: random.Random) -> list[str]:
    """A deck with colours chosen by ``rng``: four coin series of four different colours, each
    honour any colour, the Tien Zi Que black. (An example edition for tests and demos; a real
    record names its own deck.)"""
    series = rng.sample(COLOUR_ORDER, 4)
    cards = [f"C{n}{c}" for c in series for n in range(1, 10)]
    cards += [f"{h}{rng.choice(COLOUR_ORDER)}" for h in HONOURS for _ in range(3)]
    cards += [JOKER_CODE] * 3
    return sort_cards(cards)


def random_tzq_record(
    seed: int,
    options: dict[str, Any] | None = None,
    players: list[str] | None = None,
    combine_rate: float = 0.85,
    max_events: int = 50_000,
) -> dict[str, Any]:
    """A complete bot-played Tien Zi Que game as a record (the same seed gives the same record).

    The bot shuffles with ``random.Random(seed)`` and records the outcome in ``round_start`` and
    ``reshuffle``. Without a ``deck`` option it picks one (:func:`random_deck`) and writes it into
    the record's options. It makes a combination when it can with probability ``combine_rate``.
    A random player may never reach a high ``min_points`` (a round only ends by a Mah-jong unless
    ``exhausted_stock_draws``): past ``max_events`` events it gives up with RuntimeError.
    """
    from ..record import FORMAT

    rng = random.Random(seed)
    players = list(players or ["Ann", "Bob"])
    opts = dict(options or {})
    if opts.get("deck") is None:
        opts["deck"] = random_deck(rng)
    state = TienZiQueState(opts, players)
    events: list[dict[str, Any]] = []

    def do(event: dict[str, Any]) -> None:
        state.apply(event)
        events.append(event)

    while not state.over:
        if len(events) > max_events:
            raise RuntimeError(f"seed {seed}: no end after {max_events} events")
        phase = state.phase
        if phase == BETWEEN_ROUNDS:
            seat = state.next_starter
            if seat is None:
                seat = rng.choice([s for s in (0, 1) if state._starts_left(s) > 0])
            assert state.deck is not None
            cards = sort_cards(state.deck.elements())
            rng.shuffle(cards)
            first, second = cards[0:10:2], cards[1:10:2]  # dealt one at a time, the starter first
            hands = [first, second] if seat == 0 else [second, first]
            do({"type": "round_start", "seat": seat, "hands": hands, "stock": cards[10:]})
            continue
        actions = state.legal_actions()
        reshuffles = [a for a in actions if a["type"] == "reshuffle"]
        combos = [a for a in actions if a["type"] in ("pung", "chow")]
        if combos and rng.random() < combine_rate:
            do(rng.choice(combos))
        elif phase == RESHUFFLE or (reshuffles and not combos) or (reshuffles and rng.random() < 0.5):
            event = reshuffles[0]
            stock = list(event["stock"])
            rng.shuffle(stock)
            do({"type": "reshuffle", "seat": event["seat"], "stock": stock})
        else:
            others = [a for a in actions if a["type"] in ("draw", "discard")]
            choice = rng.choice(others or combos or actions)
            if choice["type"] == "draw":
                r = state.round
                assert r is not None
                choice = {**choice, "card": r.stock[0]}
            do(choice)
    return {"format": FORMAT, "variant": NAME, "options": opts, "players": players, "events": events}


def bot_moves(
    state: TienZiQueState, bots: frozenset[int] | set[int], rng: random.Random, limit: int = 1000
) -> list[dict[str, Any]]:
    """The events the bots seated at ``bots`` take from ``state`` on, in order, up to the first
    moment the other seat acts or the table deals (a ``round_start``, the reshuffle a refill waits
    for: ``engine.table_events``). A bot makes a Chow or a Pung whenever the rules offer one,
    else draws (reshuffling the discards in ``rng``'s order when the stock is empty) and discards
    the card that helps its hand least. ``state`` is left as it was."""
    work = state.copy()
    events: list[dict[str, Any]] = []
    for _ in range(limit):
        if work.over or work.phase not in (ACTION, DRAWN) or work.turn not in bots:
            break
        event = _bot_move(work, rng)
        work.apply(event)
        events.append(event)
    return events


def _bot_move(state: TienZiQueState, rng: random.Random) -> dict[str, Any]:
    actions = state.legal_actions()
    combos = [a for a in actions if a["type"] in ("pung", "chow")]
    if combos:
        return rng.choice(combos)
    if state.phase == ACTION:
        move = next(a for a in actions if a["type"] in ("draw", "reshuffle"))
        if move["type"] == "reshuffle":
            stock = list(move["stock"])
            rng.shuffle(stock)
            move = {**move, "stock": stock}
        return move
    discards = [a for a in actions if a["type"] == "discard"]
    r = state.round
    assert r is not None
    hand = r.hands[r.active]
    return min(discards, key=lambda a: (_use(a["card"], hand), rng.random()))


def _use(card: str, hand: list[str]) -> int:
    """How much ``card`` helps the rest of ``hand`` towards a combination: a Tien Zi Que most,
    then a card with the same face or a coin one or two numbers away."""
    if is_joker(card):
        return 10
    rest = list(hand)
    rest.remove(card)
    same = sum(1 for c in rest if face(c) == face(card))
    near = 0
    if is_coin(card):
        near = sum(1 for c in rest if is_coin(c) and 0 < abs(number(c) - number(card)) <= 2)
    return 2 * same + near
