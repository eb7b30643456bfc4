"""Property tests: bot-played games (seeded by hypothesis) against the engine's invariants."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    Replay,
    fold,
    legal_actions,
    push_due,
    push_forced,
    random_game,
    random_record,
    state_json,
)
from games.engine.family import tribute_rank
from games.engine.legal import push_actions
from games.engine.state import EXCHANGE, GameState

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PRESETS = st.sampled_from(
    [{"preset": "rio"}, {"preset": "tiki"}, {"preset": "abacus"}, {"preset": "rio", "deal_method": "western"}]
)
#: (variant, players, options) for every game of the books in the Tichu family
TABLES = [
    ("nanking", list("ABCD"), {}),
    ("tientsin", list("ABCDEF"), {}),
    ("threechu", list("ABC"), {"preset": "rio"}),
    ("threechu", list("ABC"), {"preset": "tiki"}),
    ("grand-seigneur", list("ABCDE"), {"preset": "abacus"}),
    ("grand-seigneur", list("ABCDEFGH"), {"decks": 2, "double_specials": True}),
    ("grand-seigneur", list("ABCDEFGHIJKL"), {"scoring": "ranks"}),
]
VARIANT_TABLES = st.sampled_from(TABLES)


def variant_hands(seed: int, table: tuple, hands: int = 2) -> dict:
    """The first hands of a game of another variant (two, so that Grand Seigneur's tribute and
    Threechu's dealer rotation are exercised)."""
    variant, players, options = table
    return random_record(seed, variant=variant, options=options, players=players, max_hands=hands)


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def one_hand(seed: int, options: dict | None = None) -> dict:
    """A one-hand game: many independent deals for the price of one."""
    return random_game(seed, options={**(options or {}), "hands": 1})


def card_places(state: GameState) -> Counter:
    """Every card of the hand in progress, wherever it is: hands, pile, pushes in transit,
    the trick on the table, the tricks won."""
    h = state.hand
    assert h is not None
    places = Counter()
    for cards in h.cards:
        places.update(cards)
    places.update(h.pile)
    if state.phase == EXCHANGE:
        for gifts in h.pushes.values():
            for cards in gifts.values():
                places.update(cards)
    for _, combo in h.trick:
        places.update(combo.cards)
    for cards in h.won:
        places.update(cards)
    return +places


def assert_cards_conserved(record: dict) -> GameState:
    """Fold the record, checking at every event of a hand that each card of the deck is in
    exactly one place; return the final state."""
    state = GameState(record["variant"], record["options"], record["players"])
    deck = Counter(state.variant.deck(state.options))
    for event in record["events"]:
        state.apply(event)
        if state.hand is not None:
            assert card_places(state) == deck, event
    return state


@FAST
@given(seed=SEEDS, options=PRESETS)
def test_every_card_is_in_exactly_one_place_at_every_event(seed, options):
    assert_cards_conserved(one_hand(seed, options))


@FAST
@given(seed=SEEDS, options=PRESETS)
def test_card_points_of_a_hand_sum_to_100_unless_double_victory(seed, options):
    state = fold(one_hand(seed, options))
    (line,) = state.history
    if line["double_victory"]:
        assert sorted(line["card_points"]) == [0, 200]
    else:
        assert sum(line["card_points"]) == 100
    assert sorted(line["out"]) == [0, 1, 2, 3] or line["double_victory"]


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_the_fold_is_deterministic_and_games_end(seed):
    record = random_game(seed)
    assert random_game(seed) == record
    first, second = fold(record), fold(json.loads(json.dumps(record)))
    assert state_json(first) == state_json(second)
    assert first.over and first.winner is not None
    assert max(first.totals) >= 1000


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, data=st.data())
def test_state_at_n_equals_the_fold_of_the_first_n_events(seed, data):
    record = random_game(seed)
    replay = Replay(record)
    for _ in range(5):
        n = data.draw(st.integers(0, len(record["events"])))
        assert state_json(replay.state_at(n)) == state_json(fold(record, n))
        assert replay.state_at(n).events_applied == n


def _sampled_states(record: dict, rng: random.Random, k: int):
    state = GameState(record["variant"], record["options"], record["players"])
    picks = set(rng.sample(range(len(record["events"])), min(k, len(record["events"]))))
    for i, event in enumerate(record["events"]):
        if i in picks:
            yield state
        state.apply(event)


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, options=PRESETS)
@example(seed=282889, options={"preset": "rio"})  # four Tichu calls, seat 3 still to push
def test_every_offered_action_is_accepted(seed, options):
    record = one_hand(seed, options)
    rng = random.Random(seed)
    for state in _sampled_states(record, rng, 12):
        # pushes are many: offered only where nothing else is (every seat called, one still to push)
        actions = legal_actions(state, include_pushes=False) or legal_actions(state)
        assert actions, state_json(state)["phase"]
        assert_offered_accepted(state, actions, rng, 40)


def assert_offered_accepted(state: GameState, actions: list[dict], rng: random.Random, k: int) -> None:
    """Up to k of the offered actions, each applied to a copy: raises if one is illegal."""
    for action in rng.sample(actions, min(k, len(actions))):
        state.copy().apply(action)


def _key(event: dict) -> tuple:
    return (
        event["type"],
        event.get("seat"),
        tuple(sorted(event.get("cards", []))) if isinstance(event.get("cards"), list) else None,
        event.get("card"),
        event.get("to"),
    )


def _mutations(event: dict, state: GameState, rng: random.Random) -> list[dict]:
    """Events near a legal one: another seat, a card swapped, a card added or dropped, a pass."""
    out = []
    n = state.n
    out.append({**event, "seat": (event.get("seat", 0) + rng.randrange(1, n)) % n})
    out.append({"type": "pass", "seat": event.get("seat", 0)})
    if isinstance(event.get("cards"), list):
        cards = [c for c in event["cards"]]
        deck = list(state.variant.deck(state.options))
        other = rng.choice(deck)
        out.append({"type": "play", "seat": event["seat"], "cards": cards[:-1] + [other]})
        out.append({"type": "play", "seat": event["seat"], "cards": cards + [other]})
        if len(cards) > 1:
            out.append({"type": "play", "seat": event["seat"], "cards": cards[1:]})
    if event["type"] == "draw":
        out.append({**event, "card": rng.choice(list(state.variant.deck(state.options)))})
    if event["type"] == "dragon_gift":
        out.append({**event, "to": rng.randrange(n)})
    out.append({"type": "tichu", "seat": rng.randrange(n)})
    out.append({"type": "grand_tichu", "seat": rng.randrange(n)})
    return out


def assert_mutations_refused_unless_offered(state: GameState, actions: list[dict], rng: random.Random) -> None:
    """Events near an offered one are accepted exactly when offered; a refusal names a code and
    leaves the state as it was."""
    offered = {_key(a) for a in actions}
    for mutant in _mutations(rng.choice(actions), state, rng):
        trial = state.copy()
        if _key(mutant) in offered:
            trial.apply(mutant)
            continue
        before = state_json(trial)
        with pytest.raises(EngineError) as refused:
            trial.apply(mutant)
        assert refused.value.code
        assert state_json(trial) == before, mutant


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS)
def test_mutated_events_are_refused_exactly_when_not_offered_and_refusal_changes_nothing(seed):
    record = one_hand(seed)
    rng = random.Random(seed ^ 0x5EED)
    for state in _sampled_states(record, rng, 10):
        if state.phase != EXCHANGE:  # pushes are checked by the exchange tests
            assert_mutations_refused_unless_offered(state, legal_actions(state, include_pushes=False), rng)


def test_thousands_of_random_hands_fold_and_score():
    """A broad sweep: 1,500 seeded one-hand games under every preset, each refolded and scored."""
    presets = [{"preset": "rio"}, {"preset": "tiki"}, {"preset": "abacus"}, {"deal_method": "western"}]
    for seed in range(1500):
        record = one_hand(seed, presets[seed % 4])
        state = fold(record)
        (line,) = state.history
        assert state.over and sum(line["points"]) == sum(state.totals)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, table=VARIANT_TABLES)
def test_every_variant_conserves_cards_at_every_event(seed, table):
    assert len(assert_cards_conserved(variant_hands(seed, table)).history) == 2


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, table=VARIANT_TABLES)
def test_every_variant_accepts_what_it_offers_and_refuses_mutations_unchanged(seed, table):
    record = variant_hands(seed, table)
    rng = random.Random(seed)
    for state in _sampled_states(record, rng, 8):
        actions = legal_actions(state, include_pushes=True)
        assert actions
        assert_offered_accepted(state, actions, rng, 20)
        if state.phase != EXCHANGE:
            assert_mutations_refused_unless_offered(state, actions, rng)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, table=VARIANT_TABLES)
def test_every_variant_folds_deterministically_and_replays_at_any_n(seed, table):
    record = variant_hands(seed, table)
    replay = Replay(record)
    rng = random.Random(seed)
    for n in rng.sample(range(len(record["events"]) + 1), 5):
        assert state_json(replay.state_at(n)) == state_json(fold(record, n))
    assert state_json(fold(record)) == state_json(fold(json.loads(json.dumps(record))))


GS_TRIBUTE_TABLES = st.sampled_from(
    [
        ("grand-seigneur", list("ABCDE"), {"preset": "abacus"}),
        ("grand-seigneur", list("ABCDEFG"), {"return_worst": True}),
        ("grand-seigneur", list("ABCDEFGHIJKL"), {"decks": 2}),
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), table=GS_TRIBUTE_TABLES)
def test_the_forced_tribute_is_the_one_push_the_rules_leave(seed, table):
    """push_forced (what an online seat's page offers at the exchange): where it names cards, the
    fold takes them, and every push the rules accept gives cards of the same ranks (the tribute's
    best, with return_worst the return's worst); where it names none, the seat has a choice of
    ranks. Checked at the second hand's exchange, the first with a tribute."""
    record = variant_hands(seed, table)
    exchange = next((n for n in range(len(record["events"]) + 1) if fold(record, upto=n).phase == EXCHANGE), None)
    assert exchange is not None, "the second hand has a tribute"
    state = fold(record, upto=exchange)
    due = {seat: push_due(state, seat) for seat in range(len(table[1]))}
    assert any(due.values())
    for seat, counts in due.items():
        forced = push_forced(state, seat)
        if not counts:
            assert forced == {}
            continue
        ranks = {tuple(sorted(map(tribute_rank, next(iter(p["cards"].values()))))) for p in push_actions(state, seat)}
        if not forced:
            assert len(ranks) > 1, f"seat {seat} is left no choice, yet nothing is forced"
            continue
        ((target, cards),) = forced.items()
        assert counts == {target: len(cards)}
        assert ranks == {tuple(sorted(map(tribute_rank, cards)))}
        state.copy().apply({"type": "push", "seat": seat, "cards": forced})
