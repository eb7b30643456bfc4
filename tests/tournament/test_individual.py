"""Individual events: whist designs where they exist, an optimiser elsewhere, fair sit-outs."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import fold, propose
from games.tournament.pairing.designs import available, find_design

from .play import header, play_round, register


def individual_record(n, rounds, seed):
    return {
        "header": header(entrants="individuals", system="individual", scoring="dtm", rounds=rounds, seed=seed),
        "events": register(n, "individuals"),
    }


def counts(state):
    partners, opponents, sat_out = Counter(), Counter(), Counter()
    for rnd in state.rounds:
        for t in rnd.tables.values():
            (a, c), (b, d) = t.sides
            partners[frozenset((a, c))] += 1
            partners[frozenset((b, d))] += 1
            for x in (a, c):
                for y in (b, d):
                    opponents[frozenset((x, y))] += 1
        sat_out.update(rnd.byes)
    return partners, opponents, sat_out


@pytest.mark.parametrize("v", available())
def test_every_design_is_a_whist_tournament(v):
    design = find_design(v)
    assert v % 4 in (0, 1)
    assert design.rounds == (v - 1 if v % 4 == 0 else v)
    partners, opponents, sat_out = Counter(), Counter(), Counter()
    for r in range(design.rounds):
        tables, out = design.round(r)
        assert sorted([x for t in tables for side in t for x in side] + out) == list(range(v))
        assert len(out) == v % 4
        sat_out.update(out)
        for (a, c), (b, d) in tables:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset((x, y)) for x in (a, c) for y in (b, d))
    every_pair = [frozenset(p) for p in itertools.combinations(range(v), 2)]
    assert all(partners[p] == 1 for p in every_pair), "everyone partners everyone exactly once"
    assert all(opponents[p] == 2 for p in every_pair), "and meets everyone twice as an opponent"
    assert len(partners) == len(opponents) == len(every_pair)
    if v % 4 == 1:
        assert set(sat_out.values()) == {1} and len(sat_out) == v


@settings(max_examples=6, deadline=None)
@given(v=st.sampled_from([8, 9, 12, 13, 16]), seed=st.integers(0, 10**6))
def test_designs_reach_one_partnership_per_pair_of_players(v, seed):
    rounds = v - 1 if v % 4 == 0 else v
    record = individual_record(v, rounds, seed)
    rng = random.Random(seed)
    for _ in range(rounds):
        play_round(record, rng)
    state = fold(record)
    partners, opponents, sat_out = counts(state)
    players = [f"e{i}" for i in range(v)]
    assert all(partners[frozenset(p)] == 1 for p in itertools.combinations(players, 2))
    assert all(r.explanation["method"].startswith("whist design") for r in state.rounds)
    assert all(r.explanation["repeated_partners"] == 0 for r in state.rounds)
    if v % 4 == 1:
        assert sorted(sat_out.values()) == [1] * v


def seating_without_repeat_exists(playing, partners):
    """Any set of new partnerships can be grouped into tables, so a seating without a repeated
    partner exists exactly when the players who play have a perfect matching of new pairs."""
    graph = nx.Graph()
    graph.add_nodes_from(playing)
    graph.add_edges_from(p for p in itertools.combinations(playing, 2) if partners[frozenset(p)] == 0)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(playing)


@settings(max_examples=12, deadline=None)
@given(n=st.sampled_from([5, 6, 7, 10, 11, 14, 15, 18, 19, 22]), rounds=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_other_counts_never_repeat_a_partner_while_a_seating_without_one_exists(n, rounds, seed):
    record = individual_record(n, rounds, seed)
    rng = random.Random(seed)
    for _ in range(rounds):
        state = fold(record)
        pairing = propose(state)
        seated = [e for t in pairing.tables for s in t["sides"] for e in s]
        assert sorted(seated + pairing.byes) == sorted(state.active_entries()), "everyone plays or sits out"
        assert len(pairing.byes) == n % 4
        partners, _, sat_out = counts(state)
        new = [frozenset(side) for t in pairing.tables for side in t["sides"]]
        repeated = sum(partners[p] > 0 for p in new)
        assert pairing.explanation["repeated_partners"] == sum(partners[p] for p in new)
        if seating_without_repeat_exists(seated, partners):
            assert repeated == 0
        # sit-outs rotate: nobody sits out again while someone who sat out less plays
        if pairing.byes:
            assert max(sat_out[e] for e in pairing.byes) <= min(sat_out[e] for e in seated)
        play_round(record, rng)


def test_a_withdrawal_falls_back_to_the_optimiser_without_repeats():
    record = individual_record(13, 6, seed=3)
    rng = random.Random(3)
    play_round(record, rng)
    play_round(record, rng)
    record["events"].append({"type": "entry_withdrawn", "entry": "e4"})
    play_round(record, rng)
    state = fold(record)
    assert state.rounds[2].explanation["method"].startswith("maximum-weight matching")
    partners, _, _ = counts(state)
    assert max(partners.values()) == 1


def test_proposal_is_deterministic_and_depends_on_the_seed():
    a = propose(fold(individual_record(10, 3, seed=1))).event()
    assert a == propose(fold(individual_record(10, 3, seed=1))).event()
    others = {str(propose(fold(individual_record(10, 3, seed=s))).event()["tables"]) for s in range(2, 8)}
    assert len(others) > 1


def test_individual_pairing_can_be_overridden():
    record = individual_record(8, 3, seed=1)
    state = fold(record)
    proposed = propose(state).event()
    record["events"].append(proposed)
    t1, t2 = proposed["tables"]
    swapped = [
        {"table": 1, "sides": [t1["sides"][0], t2["sides"][0]]},
        {"table": 2, "sides": [t1["sides"][1], t2["sides"][1]]},
    ]
    record["events"].append(
        {
            "type": "pairing_overridden",
            "round": 1,
            "tables": swapped,
            "byes": [],
            "reason": "two players asked to sit apart",
        }
    )
    state = fold(record)
    assert [t.sides for t in state.rounds[0].tables.values()] == [s["sides"] for s in swapped]
    assert state.rounds[0].overrides[0]["reason"] == "two players asked to sit apart"


def test_evaluate_names_repeated_partners():
    from games.tournament import evaluate

    record = individual_record(8, 3, seed=4)
    play_round(record, random.Random(4))
    state = fold(record)
    t = next(iter(state.rounds[0].tables.values()))
    judged = evaluate(state, [{"table": 1, "sides": t.sides}], [])
    assert [p["players"] for p in judged["repeated_partners"]] == [sorted(t.sides[0]), sorted(t.sides[1])]
    assert judged["repeated_opponents"] == 4
