"""What the fold keeps in a cheaper form than it shows (docs/speed.md, "tenth increment").

- The trick's display log (``trick_log`` of the state's JSON) is kept as seats and tuples by the
  fold and written as dicts when asked (``Hand.trick_log``): on bot games of every Tichu-family
  table it must show, after every event, the plays and passes of the current trick as the record
  gives them (a play's cards, its combination as it lies on the table, the Phoenix's reading,
  the wish named, a bomb out of turn; a pass as its seat).
- The readings of a play are cached per rules object, found by identity (``combos.readings_of``):
  equal rules objects made anew, and different rules, must give the uncached answer.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import random_record, state_json
from games.engine.cards import rank_code
from games.engine.combos import ComboRules, readings_of
from games.engine.combos import _read as read_uncached
from games.engine.record import new_state
from tests.engine.test_properties import TABLES

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CARDS = ["2j", "2s", "5j", "5s", "5p", "6j", "6s", "7j", "8j", "9j", "Tj", "Phoenix", "Mahjong", "Dragon", "Dog"]


def expected_entry(event: dict, combo, in_turn: bool) -> dict:
    entry = {"seat": event["seat"], "cards": list(event["cards"]), "combination": combo.kind}
    if combo.phoenix is not None:
        entry["phoenix"] = rank_code(combo.phoenix)
    if event.get("wish") is not None:
        entry["wish"] = event["wish"]
    if not in_turn:
        entry["out_of_turn"] = True
    return entry


@settings(max_examples=14, deadline=None)
@given(seed=SEEDS, table=st.sampled_from(TABLES))
def test_the_trick_log_shows_the_plays_and_passes_of_the_trick(seed, table):
    variant, players, options = table
    record = random_record(seed, variant=variant, options=options, players=players, max_hands=2)
    state = new_state(variant, options, players)
    expected: list[dict] = []
    plays = passes = 0
    for event in record["events"]:
        h = state.hand
        in_turn = h is not None and h.gift_from is None and event.get("seat") == h.turn
        state.apply(event)
        h = state.hand
        if h is None or not h.trick:  # a new hand, or the trick collected (the Dog's lead, a gift)
            expected = []
        elif event["type"] == "play":
            entry = expected_entry(event, h.trick[-1][1], in_turn)
            expected = [entry] if len(h.trick) == 1 else [*expected, entry]
            plays += 1
        elif event["type"] == "pass":
            expected = [*expected, {"seat": event["seat"], "pass": True}]
            passes += 1
        assert state_json(state)["trick_log"] == expected, event
    assert plays and passes


@settings(max_examples=200, deadline=None)
@given(
    cards=st.lists(st.sampled_from(CARDS), min_size=1, max_size=6),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_readings_are_cached_per_rules_value(cards, flags):
    key = tuple(cards)
    rules = ComboRules(*flags)
    first = readings_of(key, rules)
    again = readings_of(key, ComboRules(*flags))  # an equal rules object made anew
    assert first == again == tuple(read_uncached(key, rules))
    for other in (ComboRules(), ComboRules(True, True, True)):
        assert readings_of(key, other) == tuple(read_uncached(key, other))
