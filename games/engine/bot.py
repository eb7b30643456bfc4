"""A bot that plays complete games through the engine, for tests, benchmarks and demo data.

Randomness comes only from the ``random.Random`` the caller seeds: the same seed gives the same
record. The engine never shuffles; the bot does, and records the outcome as draw events.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .cards import MAHJONG, RANK_CODES, rank
from .game import game_for, game_of
from .hand import BETWEEN_HANDS, DEAL, DRAGON_GIFT, EXCHANGE, PLAY
from .legal import (
    family_bombs_out_of_turn,
    legal_actions,
    may_pass,
    play_event,
    plays_for,
    push_actions,
)
from .record import FORMAT
from .state import GameState

Policy = Callable[[GameState, int, list[dict[str, Any]], random.Random], dict[str, Any]]


def random_policy(state: GameState, seat: int, options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal action, passing less often than playing so that hands move along."""
    plays = [a for a in options if a["type"] == "play"]
    if plays and (len(plays) == len(options) or rng.random() < 0.7):
        return rng.choice(plays)
    return rng.choice(options)


def greedy_policy(state: GameState, seat: int, options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A plain heuristic player: lead the longest low combination, follow as cheaply as possible,
    never pass a partner's trick needlessly, keep bombs for when they matter."""
    h = state.hand
    assert h is not None
    plays = [a for a in options if a["type"] == "play"]
    if not plays:
        return options[0]
    leading = not h.trick or h.closed

    def cost(a: dict[str, Any]) -> tuple[float, ...]:
        cards = a["cards"]
        is_bomb_like = len(cards) >= 4 and len({c[-1] for c in cards}) == 1
        return (is_bomb_like, max(rank(c) for c in cards) - (len(cards) * 2 if leading else 0), len(cards))

    if not leading:
        owner = h.trick[-1][0]
        if h.team_of[owner] == h.team_of[seat] and any(a["type"] == "pass" for a in options):
            return next(a for a in options if a["type"] == "pass")
    return min(plays, key=cost)


def random_record(
    seed: int,
    variant: str = "nanking",
    options: dict[str, Any] | None = None,
    players: list[str] | None = None,
    policies: list[Policy] | None = None,
    max_hands: int = 40,
    bomb_rate: float = 0.3,
    call_rate: float = 0.1,
) -> dict[str, Any]:
    """A complete bot-played game as a record. ``policies`` gives each seat its player."""
    rng = random.Random(seed)
    players = players or ["Ann", "Bob", "Cid", "Dee"]
    state = GameState(variant, options, players)
    policies = policies or [random_policy] * state.n
    events: list[dict[str, Any]] = []

    def do(event: dict[str, Any]) -> None:
        state.apply(event)
        events.append(event)

    while not state.over and len(state.history) < max_hands:
        _play_hand(state, do, rng, policies, bomb_rate, call_rate)
    return {
        "format": FORMAT,
        "variant": state.variant.name,
        "options": dict(options or {}),
        "players": list(players),
        "events": events,
    }


def random_game(
    seed: int,
    variant: str = "nanking",
    options: dict[str, Any] | None = None,
    players: list[str] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """A complete random game (seeded) as a record: the demo data and property-test generator."""
    return game_for(variant).random_record(seed, options, players, **kwargs)


def _play_hand(
    state: GameState,
    do: Callable[[dict[str, Any]], None],
    rng: random.Random,
    policies: list[Policy],
    bomb_rate: float,
    call_rate: float,
) -> None:
    assert state.phase == BETWEEN_HANDS
    shuffler = state.next_shuffler if state.next_shuffler is not None else rng.choice(state.variant.dealers(state.n))
    do({"type": "shuffle", "seat": shuffler})
    h = state.hand
    assert h is not None
    pile = [c for c, k in h.pile.items() for _ in range(k)]  # Counter.elements()'s order
    rng.shuffle(pile)
    western = state.options.get("deal_method") == "western"
    if western:
        first: dict[int, list[str]] = {s: [] for s in h.order}
        limit = state.variant.grand_tichu_cards
        rest = list(pile)
        for s in h.order:
            first[s], rest = rest[: min(limit, h.sizes[s])], rest[min(limit, h.sizes[s]) :]
            do({"type": "deal", "seat": s, "cards": first[s]})
        for s in h.order:
            if state.variant.grand_tichu_limit(h, s) is not None and rng.random() < call_rate / 3:
                do({"type": "grand_tichu", "seat": s})
        for s in h.order:
            need = h.sizes[s] - h.received[s]
            if need:
                do({"type": "deal", "seat": s, "cards": rest[:need]})
                rest = rest[need:]
    else:
        while state.phase == DEAL:
            drawer = state._expected_drawer(h)
            if (
                h.received[drawer] == state.variant.grand_tichu_cards
                and drawer not in h.calls
                and state.variant.grand_tichu_limit(h, drawer) is not None
                and rng.random() < call_rate / 3
            ):
                do({"type": "grand_tichu", "seat": drawer})
            do({"type": "draw", "seat": drawer, "card": pile.pop()})
    for s in h.order:
        if s not in h.calls and state.variant.may_call(h, s) and rng.random() < call_rate:
            do({"type": "tichu", "seat": s})
    if state.phase == EXCHANGE:
        for s in h.order:
            if state.variant.push_targets(h, s):
                do(_choose_push(state, s, rng))
    number = len(state.history)
    while len(state.history) == number and not state.over:
        h = state.hand
        assert h is not None
        if state.phase == DRAGON_GIFT:
            bombs = family_bombs_out_of_turn(state)
            if bombs and rng.random() < bomb_rate:
                do(rng.choice(rng.choice(list(bombs.values()))))
                continue
            seat = h.gift_from
            assert seat is not None
            targets = [t for t in h.order if state.variant.is_opponent(h, seat, t)]
            live = [t for t in targets if h.cards[t]] or targets
            do({"type": "dragon_gift", "seat": seat, "to": rng.choice(live)})
            continue
        bombs = family_bombs_out_of_turn(state)
        if bombs and rng.random() < bomb_rate * 0.2:
            do(rng.choice(rng.choice(list(bombs.values()))))
            continue
        seat = h.turn
        assert seat is not None
        if (
            seat not in h.played
            and seat not in h.calls
            and state.variant.may_call(h, seat)
            and rng.random() < call_rate * 0.1
        ):
            do({"type": "tichu", "seat": seat})
        options: list[dict[str, Any]] = []
        for combo in plays_for(state, seat):
            event = play_event(seat, combo)
            if (
                MAHJONG in combo.cards
                and state.variant.has_wish
                and (state.options.get("wish_required") or rng.random() < 0.8)
            ):
                event["wish"] = rng.choice(RANK_CODES)
            if combo.kind == "dog":
                dog_choices = getattr(state.variant, "dog_choices", None)
                partners = dog_choices(h, seat) if dog_choices is not None else []
                if partners:
                    event["to"] = rng.choice(partners)
            options.append(event)
        if may_pass(state, seat):
            options.append({"type": "pass", "seat": seat})
        do(policies[seat](state, seat, options, rng))


def _choose_push(state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random push the variant accepts (the tribute's best cards are forced)."""
    h = state.hand
    assert h is not None
    counts = state.variant.push_counts(h, seat)
    if state.variant.plain_push:  # one card to each target, any card (Variant.plain_push)
        cards = rng.sample(h.cards[seat], len(counts))
        return {"type": "push", "seat": seat, "cards": {str(t): c for t, c in zip(counts, cards)}}
    choices = list(push_actions(state, seat))
    return rng.choice(choices)


def bot_moves(
    state: Any, bots: frozenset[int] | set[int], rng: random.Random, policy: Policy = greedy_policy, limit: int = 1000
) -> list[dict[str, Any]]:
    """The events the bots seated at ``bots`` take from ``state`` on, in order, up to the first
    moment a seat that is no bot's must act or the table must deal: their exchange, their plays
    and passes (chosen by ``policy``), their Dragon gifts. A bot plays for the seats its seat
    plays for (Threechu's dealer: the dummy). It calls nothing and bombs only in turn, and it
    decides only from the options the rules give its seat. ``state`` is left as it was. A game
    the online table does not serve (its declared ``GameInfo.online``) has no bot: no events. A
    game with a bot of its own (its game object's ``bot_moves``: Tien Zi Que's draws, claims and
    discards) answers for itself; ``policy`` is the Tichu family's."""
    if not bots or not game_of(state).info.online:
        return []
    own = getattr(game_of(state), "bot_moves", None)
    if own is not None:
        return own(state, frozenset(bots), rng, limit)
    work = state.copy()
    events: list[dict[str, Any]] = []
    for _ in range(limit):
        event = _bot_move(work, frozenset(bots), rng, policy)
        if event is None:
            break
        work.apply(event)
        events.append(event)
    return events


def _bot_move(state: GameState, bots: frozenset[int], rng: random.Random, policy: Policy) -> dict[str, Any] | None:
    """The next event of a bot, or None when the next step is not a bot's."""
    h = state.hand
    if state.over or h is None or state.phase in (BETWEEN_HANDS, DEAL):
        return None
    played = {s for b in bots for s in state.variant.hands_seen(b, h.shuffler)}
    if state.phase == EXCHANGE:
        for seat in h.order:
            if seat in played and seat not in h.pushes and state.variant.push_targets(h, seat):
                return _choose_push(state, seat, rng)
        return None
    if state.phase == DRAGON_GIFT:
        if h.gift_from not in played:
            return None
        gifts = [a for a in legal_actions(state) if a["type"] == "dragon_gift"]
        return rng.choice(gifts) if gifts else None
    if state.phase == PLAY and h.turn in played:
        seat = h.turn
        options = [
            a
            for a in legal_actions(state, include_pushes=False)
            if a.get("seat") == seat and a["type"] in ("play", "pass")
        ]
        return policy(state, seat, options, rng) if options else None
    return None
