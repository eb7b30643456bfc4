"""The usual play, pass and push take a quick way through the fold (GameState._quick_play,
_quick_pass and _quick_push, for speed: the import folds every event). The whole way stays the reference: the
one ``apply`` takes for anything unusual (``_apply_other``: the field check, the game's end, the
full handler). On bot-played games of every Tichu-family table, at random positions, every legal
action and mutations of them (another seat, cards not held or unknown, a card twice, fields of
the wrong type, a wish or a Phoenix reading added, passes where none is allowed, pushes to other
targets or of other cards) must give the same refusal (code, message, parameters) or the same state both ways."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, fold, legal_actions, random_record
from games.engine.record import fold_steps
from games.engine.state import EXCHANGE, GameState, Hand
from tests.engine.test_properties import TABLES

# A subclass of GameState (Probe) and patched handlers: on the Python source when the engine is
# compiled (tests/engine/conftest.py)
pytestmark = pytest.mark.pure_python

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def snapshot(state: GameState) -> dict:
    """Every field of the state and of its hand (the undo checkpoints by count and events)."""
    out = {name: getattr(state, name) for name in GameState.__slots__ if name not in ("hand", "_checkpoints")}
    out["checkpoints"] = [events for _, events in state._checkpoints]
    if state.hand is not None:
        out["hand"] = {name: getattr(state.hand, name) for name in Hand.__slots__}
    return out


def outcome(apply, event) -> tuple | None:
    try:
        apply(event)
    except EngineError as err:
        return err.code, err.message, err.params
    return None


def both_ways(state: GameState, event) -> None:
    quick, whole = state.copy(), state.copy()
    got = outcome(quick.apply, event)
    assert got == outcome(whole._apply_other, event), event
    assert snapshot(quick) == snapshot(whole), event


def mutations(state: GameState, action: dict, pick) -> list:
    """Events near a legal one: the shapes the quick way must send on, or accept alike."""
    n = state.n
    seat = action.get("seat", 0)
    out = [
        {**action, "seat": (seat + 1) % n},
        {**action, "seat": True},
        {**action, "seat": float(seat)},
        {**action, "seat": str(seat)},
        {**action, "seat": n},
        {**action, "extra": 1},
        {"type": "pass", "seat": seat},
        {"type": "play", "seat": seat, "cards": []},
        {"type": "play", "seat": seat},
    ]
    cards = action.get("cards")
    if isinstance(cards, list) and cards:
        held = state.hand.cards[seat] if state.hand is not None else []
        others = [c for c in ("2j", "5s", "Ar", "Dragon", "Phoenix", "Mahjong", "Dog") if c not in held]
        out += [
            {**action, "cards": cards + [cards[0]]},
            {**action, "cards": cards[:-1] + [pick(others)]} if others else action,
            {**action, "cards": cards[:-1] + ["Zz"]},
            {**action, "cards": cards[:-1] + [7]},
            {**action, "cards": cards[:-1] + [["5s"]]},
            {**action, "cards": tuple(cards)},
            {**action, "cards": cards[:-1]},
            {**action, "wish": "7"},
            {**action, "wish": []},
            {**action, "phoenix": "5"},
            {**action, "to": 1},
            {**action, "cards": [pick(held)]} if held else action,
            {**action, "cards": held[:2]} if len(held) >= 2 else action,
        ]
    if isinstance(cards, dict) and cards:
        out += push_mutations(state, action, cards, pick)
    return out


def push_mutations(state: GameState, action: dict, gifts: dict, pick) -> list:
    """Pushes near a legal one (the quick push reads each target key and card itself)."""
    seat = action.get("seat", 0)
    held = state.hand.cards[seat] if state.hand is not None and isinstance(seat, int) else []
    keys, cards = list(gifts), list(gifts.values())
    first, *rest = keys
    others = [c for c in ("2j", "5s", "Ar", "Dragon", "Phoenix", "Mahjong", "Dog") if c not in held]
    return [
        {**action, "cards": {int(k): c for k, c in gifts.items()}},  # int keys
        {**action, "cards": {"0" + first: gifts[first], **{k: gifts[k] for k in rest}}},  # "02": int() reads it
        {**action, "cards": {k: gifts[k] for k in rest}},  # a target left out
        {**action, "cards": {**gifts, str(seat): pick(held) if held else "2j"}},  # to itself
        {**action, "cards": {**gifts, str(state.n): pick(held) if held else "2j"}},  # to no seat
        {**action, "cards": {**gifts, first: [gifts[first]]}},  # a list of one card
        {**action, "cards": {**gifts, first: [gifts[first], pick(held) if held else "2j"]}},  # two cards
        {**action, "cards": {**gifts, first: "Zz"}},
        {**action, "cards": {**gifts, first: 7}},
        {**action, "cards": {**gifts, first: pick(others)}} if others else action,  # not held
        {**action, "cards": {**gifts, first: cards[-1]}},  # one card twice
        {**action, "cards": {}},
        {**action, "cards": cards},
        {**action, "cards": dict(reversed(list(gifts.items())))},  # another order
        {"type": "push", "seat": seat},
    ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS, table=st.sampled_from(TABLES))
def test_quick_and_whole_way_agree(data, seed, table):
    variant, players, options = table
    record = random_record(seed, variant=variant, options=options, players=players, max_hands=2)
    events = record["events"]
    positions = data.draw(st.lists(st.integers(0, len(events)), min_size=1, max_size=6))
    # and where a wish stands (rare at random positions): the quick ways let through only what it
    # allows; and in the exchange (four events a hand), where the quick push is asked
    wished, exchanging = [], []
    for n, _, state in fold_steps(GameState(variant, options, players), events):
        if state.hand is not None and state.hand.wish is not None:
            wished.append(n)
        if state.phase == EXCHANGE:
            exchanging.append(n)
    positions += wished[:: max(1, len(wished) // 4)] + exchanging[:: max(1, len(exchanging) // 2)]
    for k in positions:
        state = fold(record, upto=k)
        actions = legal_actions(state)
        if k < len(events):
            actions.append(events[k])
        for action in actions[:40]:
            both_ways(state, action)
            for event in mutations(state, action, lambda xs: data.draw(st.sampled_from(xs))):
                both_ways(state, event)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, table=st.sampled_from(TABLES))
def test_a_whole_game_folds_the_same_both_ways(seed, table):
    variant, players, options = table
    record = random_record(seed, variant=variant, options=options, players=players, max_hands=3)
    quick = GameState(variant, options, players)
    whole = GameState(variant, options, players)
    for event in record["events"]:
        quick.apply(event)
        whole._apply_other(event)
        assert snapshot(quick) == snapshot(whole)


class Probe(GameState):
    """A state that says when an event left the quick way."""

    __slots__ = ()
    left: list = []

    def _checked(self, kind, event):
        Probe.left.append(kind)
        super()._checked(kind, event)


def test_the_quick_ways_are_taken():
    """The properties above compare something: most plays, passes and pushes do take the quick way."""
    record = random_record(7, max_hands=2)
    state = GameState("nanking", {}, record["players"])
    kinds = [e["type"] for e in record["events"] if e["type"] in ("play", "pass", "push")]
    for event in record["events"]:
        if event["type"] in ("play", "pass", "push"):
            probe = state.copy()
            probe.__class__ = Probe
            probe.apply(event)
        state.apply(event)
    for kind in ("play", "pass", "push"):
        assert Probe.left.count(kind) < kinds.count(kind) / 2, (kind, Probe.left.count(kind), kinds.count(kind))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS, table=st.sampled_from(TABLES))
def test_folding_a_record_is_applying_each_event(data, seed, table):
    """fold() runs EventFold.apply_each, apply's short way inline for plays and passes: the same
    state as apply() event by event, and on a record with one event mangled the same refusal at
    the same index, the events before it applied (or the same state when it is accepted)."""
    variant, players, options = table
    record = random_record(seed, variant=variant, options=options, players=players, max_hands=2)
    events = record["events"]
    by_apply = GameState(variant, options, players)
    for event in events:
        by_apply.apply(event)
    assert snapshot(fold(record)) == snapshot(by_apply)
    k = data.draw(st.integers(0, len(events) - 1))
    state = fold(record, upto=k)
    action = events[k]
    for mangled in mutations(state, action, lambda xs: data.draw(st.sampled_from(xs))):
        one_by_one = fold(record, upto=k)
        expected = outcome(one_by_one.apply, mangled)
        folded = GameState(variant, options, players)
        try:
            folded.apply_each([*events[:k], mangled], 0)
        except EngineError as err:
            assert (err.code, err.message, err.params, err.index) == (*expected, k), mangled
        else:
            assert expected is None, mangled
        assert snapshot(folded) == snapshot(one_by_one), mangled


def test_both_ways_run_the_one_set_of_rules(monkeypatch):
    """The quick ways read the fields only: every play, pass and push, whichever way it comes in,
    is judged by the same rules (``_play``, ``_pass``, ``_push``). A rule changed there is
    changed for both ways: here a rule that refuses everything refuses each event both ways."""
    record = random_record(11, max_hands=1)
    state = GameState("nanking", {}, record["players"])
    rules = {"play": "_play", "pass": "_pass", "push": "_push"}
    seen = dict.fromkeys(rules, 0)
    for event in record["events"]:
        kind = event["type"]
        if kind in rules:
            for way in ("quick", "whole"):
                probe = state.copy()

                def refuse(self, *args, kind=kind):
                    raise EngineError("malformed", f"the one {kind} rule", params={"rule": "probe"})

                with monkeypatch.context() as patch:
                    patch.setattr(GameState, rules[kind], refuse)
                    apply = probe.apply if way == "quick" else probe._apply_other
                    assert outcome(apply, event) == ("malformed", f"the one {kind} rule", {"rule": "probe"})
            seen[kind] += 1
        state.apply(event)
    assert all(seen.values()), seen
