"""Event fields and arbitrary JSON values for the tests that mangle events (engine and API)."""

from __future__ import annotations

from hypothesis import strategies as st

from games.engine.cards import RANK_CODES, TICHU_DECK

#: The fields of each event type, as record-format.md section 3 (and docs/tien-zi-que.md) give them.
FAMILY_FIELDS = {
    "shuffle": ["seat"],
    "draw": ["seat", "card"],
    "deal": ["seat", "cards"],
    "grand_tichu": ["seat"],
    "tichu": ["seat"],
    "push": ["seat", "cards"],
    "play": ["seat", "cards", "wish", "phoenix", "to"],
    "pass": ["seat"],
    "dragon_gift": ["seat", "to"],
    "penalty": ["seat", "reason"],
    "hand_result": ["calls", "out", "points", "dealer"],
    "undo": [],
}
TZQ_FIELDS = {
    "round_start": ["seat", "hands", "stock"],
    "draw": ["seat", "card"],
    "discard": ["seat", "card"],
    "pung": ["seat", "cards", "keep"],
    "chow": ["seat", "cards", "keep", "take"],
    "reshuffle": ["seat", "stock"],
    "undo": [],
}

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=6)  # lone surrogates: test_storable_json
_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | _text
    | st.integers(min_value=-2, max_value=12)
    | st.sampled_from(TICHU_DECK + tuple(RANK_CODES))
)
#: any JSON value (and Python's non-finite floats), biased towards values the engine reads
JSON_VALUES = st.recursive(
    _scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(_text | st.sampled_from("0123"), children, max_size=4)
    ),
    max_leaves=10,
)
