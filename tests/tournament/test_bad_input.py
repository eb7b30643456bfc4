"""Bad input never crashes: any JSON as an event or a header is accepted or refused with a
TournamentError (a stable code), and a refused event leaves the state exactly as it was."""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.tournament import CODES, EVENT_TYPES, TournamentError, fold, parse_record

from .play import tournament
from .test_fold import state_snapshot

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=4)
    | st.sampled_from(["e0", "e1", "e2", "e9", "tichu"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
FIELDS = [
    "entry",
    "players",
    "name",
    "round",
    "table",
    "tables",
    "byes",
    "score",
    "hands",
    "vp",
    "game",
    "reason",
    "order",
    "points",
    "sides",
    "double_victory",
]
events = st.builds(
    lambda t, fields: dict(fields, type=t),
    st.sampled_from(list(EVENT_TYPES) + ["bogus"]),
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6),
)
# near-valid tables and results, so the checks past the first field are reached too
tables = st.lists(
    st.fixed_dictionaries(
        {
            "table": st.integers(0, 4),
            "sides": st.lists(
                st.lists(st.sampled_from(["e0", "e1", "e2", "e3", "e4", "e5", "zz"]), min_size=0, max_size=2),
                min_size=1,
                max_size=3,
            ),
        }
    ),
    max_size=4,
)
near_valid = st.one_of(
    st.builds(
        lambda r, t, b: {"type": "pairing_overridden", "round": r, "tables": t, "byes": b, "reason": "x"},
        st.integers(0, 3),
        tables,
        st.lists(st.sampled_from(["e0", "e5", "zz"]), max_size=2),
    ),
    st.builds(
        lambda r, t, h, s, v: {"type": "result_recorded", "round": r, "table": t, "hands": h, "score": s, "vp": v},
        st.integers(0, 3),
        st.integers(0, 4),
        st.none() | st.lists(st.lists(st.integers(-50, 250), min_size=2, max_size=2), max_size=5),
        st.none() | st.lists(st.integers(-50, 900), min_size=2, max_size=2),
        st.none() | st.lists(st.integers(0, 9), min_size=2, max_size=2),
    ),
)


RECORD = tournament(6, 4, seed=1, played=2)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(event=events | near_valid)
def test_any_event_is_applied_or_refused_with_a_code_and_nothing_changed(event):
    state = fold(RECORD)
    before = state_snapshot(state)
    try:
        state.apply(copy.deepcopy(event))
    except TournamentError as err:
        assert err.code in CODES
        assert state_snapshot(state) == before


@settings(max_examples=200, deadline=None)
@given(
    header=st.dictionaries(
        st.sampled_from(
            [
                "entrants",
                "system",
                "scoring",
                "rounds",
                "hands_per_round",
                "target",
                "legs",
                "tiebreaks",
                "policy",
                "seed",
                "name",
                "meta",
                "other",
            ]
        ),
        json_values,
        max_size=6,
    )
)
def test_any_header_is_parsed_or_malformed(header):
    try:
        parse_record({"header": header, "events": []})
    except TournamentError as err:
        assert err.code == "malformed"
