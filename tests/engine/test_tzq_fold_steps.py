"""Tien Zi Que's fold asks its usual checks in one test (issue #35: its fold was the slowest
against ``json.loads``): ``TienZiQueState._to_act`` tests the phase, the seat and the turn at once
and asks ``_require``, ``_seat_of`` and ``_check_turn`` in turn only when that test fails; a
discard asks whether the card is a card code only when the hand does not hold it; a draw reads
the card it names only when it is not the top of the stock; a round_start compares its cards with
the game's deck as plain dicts. On bot-played games at random positions, every legal action and
mutations of it (another seat, a seat of another JSON type, cards not held or unknown, the wrong
event for the phase, a deck with a card swapped) must give the refusal that asking each check in
turn gives, in the same order, and change nothing when refused; and ``fold`` (``apply_each``)
must agree with ``apply`` and with the whole way (``_apply_other``) event by event."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, fold, random_game
from games.engine.schema import TIEN_ZI_QUE, check_types
from games.engine.tien_zi_que import TienZiQueState
from games.engine.tien_zi_que.cards import CODES, sort_cards
from games.engine.tien_zi_que.state import ACTION, DRAWN, RESHUFFLE, _card_of, _seat_of
from tests.engine.tzq_table import snapshot

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: the phases each action of the player to act is accepted in
STAGES = {"draw": (ACTION,), "discard": (DRAWN,), "pung": (DRAWN,), "chow": (ACTION,), "reshuffle": (ACTION, RESHUFFLE)}


def outcome(apply, event) -> tuple | None:
    try:
        apply(event)
    except EngineError as err:
        return err.code, err.message, err.params
    return None


def stepwise(state: TienZiQueState, event: dict) -> tuple | None:
    """The first refusal of the checks that come before an action's own rules, asked one at a
    time in the order the handlers give them: the field types, the phase, the seat, the turn (and
    a discard's card: a card code, then held). ``None``: all of them pass."""
    kind = event.get("type")

    def steps():
        check_types(TIEN_ZI_QUE, event)
        if kind not in STAGES:
            return
        r = state._require(kind, *STAGES[kind])
        seat = _seat_of(event)
        state._check_turn(r, seat, kind)
        if kind == "discard":
            _card_of(event, "card")
            if event["card"] not in r.hands[seat]:
                raise EngineError("card_not_in_hand", "", params={})
        if kind == "draw" and "card" in event and r.stock:  # an empty stock is refused first (tzq_no_stock)
            _card_of(event, "card")

    return outcome(lambda _: steps(), event)


def mutations(state: TienZiQueState, action: dict, pick) -> list[dict]:
    seat = action.get("seat", 0)
    out = [
        {**action, "seat": 1 - seat},
        {**action, "seat": True},
        {**action, "seat": float(seat)},
        {**action, "seat": str(seat)},
        {**action, "seat": 2},
        {**action, "seat": None},
        {k: v for k, v in action.items() if k != "seat"},
        {"type": "draw", "seat": seat},
        {"type": "draw", "seat": seat, "card": pick(sorted(CODES))},
        {"type": "draw", "seat": seat, "card": "Zz"},
        {"type": "discard", "seat": seat, "card": pick(sorted(CODES))},
        {"type": "discard", "seat": seat, "card": "Zz"},
        {"type": "discard", "seat": seat, "card": 7},
        {"type": "discard", "seat": seat, "card": ["C1b"]},
        {"type": "discard", "seat": seat},
    ]
    r = state.round
    if r is not None:
        hand = r.hands[r.active]
        out.append({"type": "discard", "seat": r.active, "card": pick(hand)})
        if r.stock:
            out.append({"type": "draw", "seat": r.active, "card": r.stock[0]})
            out.append({"type": "draw", "seat": r.active, "card": r.stock[-1]})
    cards = action.get("cards")
    if isinstance(cards, list) and cards:
        out += [
            {**action, "cards": cards[:-1] + ["Zz"]},
            {**action, "cards": cards[:-1] + [7]},
            {**action, "cards": cards[:-1] + [pick(sorted(CODES))]},
            {**action, "cards": cards[:2]},
            {**action, "keep": pick(sorted(CODES))},
        ]
    if action.get("type") == "round_start":
        hands = action["hands"]
        swapped = pick([c for c in sorted(CODES) if c != hands[0][0]])
        out += [
            {**action, "hands": [[swapped, *hands[0][1:]], hands[1]]},
            {**action, "stock": action["stock"][:-1]},
            {**action, "stock": action["stock"] + [action["stock"][0]]},
            {**action, "hands": [hands[0]]},
            {**action, "hands": [hands[0], hands[1], []]},
        ]
    return out


def check(state: TienZiQueState, event: dict) -> None:
    before = snapshot(state)
    copy = state.copy()
    got = outcome(copy.apply, event)
    expected = stepwise(state, event)
    if expected is not None and expected[0] != "card_not_in_hand":
        assert got == expected, event
    elif expected is not None:
        assert got is not None and got[0] == "card_not_in_hand", (event, got)
    whole = state.copy()
    assert outcome(whole._apply_other, event) == got, event
    assert snapshot(whole) == snapshot(copy), event
    if got is not None:
        assert snapshot(copy) == before, event
    if event.get("type") == "round_start" and state.deck is not None and got is None:
        cards = event["hands"][0] + event["hands"][1] + event["stock"]
        assert Counter(cards) == state.deck  # accepted: the game's deck, as Counters compare


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS)
def test_each_check_in_one_test_refuses_as_each_in_turn(data, seed):
    record = random_game(seed, variant="tien-zi-que", players=["A", "B"])
    events = record["events"]
    positions = data.draw(st.lists(st.integers(0, len(events)), min_size=1, max_size=6))
    for k in positions:
        state = fold(record, upto=k)
        actions = state.legal_actions()[:20]
        if k < len(events):
            actions.append(events[k])
        for action in actions:
            check(state, action)
            for event in mutations(state, action, lambda xs: data.draw(st.sampled_from(xs))):
                check(state, event)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS)
def test_fold_apply_and_the_whole_way_agree(data, seed):
    record = random_game(seed, variant="tien-zi-que", players=["A", "B"])
    events = record["events"]
    by_apply = TienZiQueState(record["options"], record["players"])
    whole = TienZiQueState(record["options"], record["players"])
    for event in events:
        by_apply.apply(event)
        whole._apply_other(event)
        assert snapshot(by_apply) == snapshot(whole)
    assert snapshot(fold(record)) == snapshot(by_apply)
    k = data.draw(st.integers(0, len(events) - 1))
    state = fold(record, upto=k)
    for mangled in mutations(state, events[k], lambda xs: data.draw(st.sampled_from(xs))):
        expected = outcome(fold(record, upto=k).apply, mangled)
        folded = TienZiQueState(record["options"], record["players"])
        try:
            folded.apply_each([*events[:k], mangled], 0)
        except EngineError as err:
            assert (err.code, err.message, err.params, err.index) == (*expected, k), mangled
        else:
            assert expected is None, mangled


def test_a_deck_with_a_card_swapped_names_what_is_missing_and_extra():
    record = random_game(3, variant="tien-zi-que", players=["A", "B"])
    starts = [i for i, e in enumerate(record["events"]) if e["type"] == "round_start"]
    k = starts[1]
    state = fold(record, upto=k)
    start = record["events"][k]
    gone = start["hands"][0][0]
    other = (
        next(c for c in sorted(CODES) if state.deck[c] == 0)
        if any(state.deck[c] == 0 for c in CODES)
        else next(c for c in sorted(CODES) if c != gone)
    )
    bad = {**start, "hands": [[other, *start["hands"][0][1:]], start["hands"][1]]}
    with_cards = Counter(bad["hands"][0] + bad["hands"][1] + bad["stock"])
    err = outcome(state.copy().apply, bad)
    assert err is not None and err[0] == "deal_invalid"
    assert err[2]["missing"] == sort_cards((state.deck - with_cards).elements())
    assert err[2]["extra"] == sort_cards((with_cards - state.deck).elements())
