"""engine.bot_moves: the bots seated at an online table (games/online) take their seats' steps
and stop at the first step that is another seat's. A property over seeded tables of four games:
every event they give folds, is the step of a seat a bot plays for, and when they stop the next
step is not a bot's."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine

TABLES = [("nanking", 4), ("threechu", 3), ("tientsin", 6), ("grand-seigneur", 5)]


def deal(state, rng: random.Random) -> None:
    """The site's part: shuffle and deal the hand (no Grand Tichu called)."""
    state.apply(engine.legal_actions(state)[0])
    pile = engine.deal_pile(state)
    rng.shuffle(pile)
    first, later = engine.deal_events(state, pile)
    for event in first + later:
        state.apply(event)


def someone_else(state, bots, rng: random.Random) -> dict | None:
    """A person's step: any legal action of a seat no bot plays for (pushes included)."""
    played = {s for b in bots for s in engine.seats_played_by(state, b)}
    options = [
        a
        for a in engine.legal_actions(state)
        if a.get("seat") not in played and a["type"] not in ("tichu", "grand_tichu")
    ]
    return rng.choice(options) if options else None


@settings(max_examples=12, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), data=st.data())
def test_bots_take_only_their_steps_and_stop_at_anothers(table, seed, data):
    variant, n = table
    rng = random.Random(seed)
    bots = frozenset(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n - 1)))
    state = engine.GameState(variant, None, [f"P{i}" for i in range(n)])
    deal(state, rng)
    for _ in range(2000):
        if state.phase == "between_hands" or state.over:
            break
        moves = engine.bot_moves(state, bots, rng)
        before = engine.state_json(state)
        for event in moves:
            assert event["seat"] in {s for b in bots for s in engine.seats_played_by(state, b)}
            state.apply(event)  # raises on an illegal event
        assert engine.bot_moves(state, bots, rng) == []  # stopped: the next step is not a bot's
        if not moves:
            assert engine.state_json(state) == before
        if state.phase == "between_hands" or state.over:
            break
        event = someone_else(state, bots, rng)
        if event is None:
            assert state.phase == "between_hands" or state.over, "a table nobody can move"
            break
        state.apply(event)
    assert state.phase == "between_hands" or state.over, "the hand was not finished"


def test_the_state_given_is_left_as_it_was():
    rng = random.Random(3)
    state = engine.GameState("nanking", None, ["A", "B", "C", "D"])
    deal(state, rng)
    before = engine.state_json(state)
    moves = engine.bot_moves(state, {0, 1, 2, 3}, rng)
    assert moves and engine.state_json(state) == before
    assert all(e["type"] in ("push", "play", "pass", "dragon_gift") for e in moves)
