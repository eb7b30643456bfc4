"""Swiss pairing of fixed pairs by maximum-weight matching (networkx), never greedy.

The cost of a pairing is lexicographic, built into integer weights so that one step of a more
important criterion outweighs every possible sum of the less important ones:

1. rematches (a pair of entries that met before) — none while one can be avoided;
2. a second (third, ...) bye;
3. the bye away from the bottom of the standings (the lowest-placed entry without a bye gets it);
4. closest scores first: the squared gap of primary scores, then the gap in standing position.

An odd field adds a phantom "bye" vertex; with ``maxcardinality`` every entry is matched. Fields of
more than 32 entries are matched first on opponents at most 16 places apart (the complete graph
of 200 entries takes seconds); if that leaves an entry unmatched or forces a rematch, the
complete graph decides.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import networkx as nx

from ..errors import TournamentError
from ..standings import primary, ranking, round_lines
from ..state import TournamentState
from . import Pairing

BYE = ("bye",)  # the phantom vertex: a tuple, so no entry id (a string) can be it
#: places apart an entry's candidate opponents may be in a large field (see pair_swiss)
WINDOW = 16


def meetings(state: TournamentState) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for rnd in state.rounds:
        for table in rnd.tables.values():
            for a in table.sides[0]:
                for b in table.sides[1]:
                    met[frozenset((a, b))] += 1
    return met


def bye_counts(state: TournamentState) -> Counter[str]:
    return Counter(e for rnd in state.rounds for e in rnd.byes)


def pair_swiss(state: TournamentState, number: int) -> Pairing:
    lines = round_lines(state)
    order = [e for group in ranking(state, lines) for e in group if state.entries[e].active]
    order += [e for e in state.active_entries() if e not in order]  # unranked but still playing
    n = len(order)
    if n < 2:
        raise TournamentError("pairing_impossible", "a Swiss round needs at least two active entries", rule="swiss")
    score = {e: primary(state, lines[e]) for e in order}
    pos = {e: i for i, e in enumerate(order)}
    met = meetings(state)
    byes = bye_counts(state)

    # Scales of the lexicographic cost (see the module docstring).
    gaps = [abs(score[a] - score[b]) for a in order for b in order]
    max_gap = max(gaps) if gaps else 0
    unit_gap = n + 1  # one step of squared score gap outweighs every position gap
    s_score = (int(max_gap**2 + 1) * unit_gap + n) * (n // 2 + 1)  # > any total of score costs
    b_place = s_score  # one step of bye placement
    b_repeat = b_place * (n + 1)  # one more bye outweighs any placement
    r_meet = b_repeat * (max(byes.values(), default=0) + 2)  # one rematch outweighs all bye costs
    top = r_meet * (max(met.values(), default=0) + 2)

    def score_cost(a: str, b: str) -> int:
        return int(round((score[a] - score[b]) ** 2 * 1000)) * unit_gap // 1000 + abs(pos[a] - pos[b])

    def solve(window: int | None) -> set[tuple[Any, Any]]:
        graph = nx.Graph()
        for i, a in enumerate(order):
            for b in order[i + 1 :] if window is None else order[i + 1 : i + 1 + window]:
                graph.add_edge(a, b, weight=top - met[frozenset((a, b))] * r_meet - score_cost(a, b))
        if n % 2:
            for a in order:
                graph.add_edge(a, BYE, weight=top - byes[a] * b_repeat - (n - 1 - pos[a]) * b_place)
        return nx.max_weight_matching(graph, maxcardinality=True)

    # A large field is first matched on the edges between entries at most WINDOW places apart (the
    # closest-scores criterion never wants longer ones unless rematches force them); a matching
    # that is not perfect, or has a rematch, is redone on the complete graph, so "no rematch while
    # one can be avoided" holds exactly.
    window = WINDOW if n > 2 * WINDOW else None
    matching = solve(window)
    if window is not None and (
        2 * len(matching) < n + n % 2 or any(met[frozenset(m)] for m in matching if BYE not in m)
    ):
        window = None
        matching = solve(None)

    pairs, bye = [], []
    for a, b in matching:
        if BYE in (a, b):
            bye.append(a if b == BYE else b)
        else:
            pairs.append(tuple(sorted((a, b), key=pos.__getitem__)))
    pairs.sort(key=lambda p: pos[p[0]])
    tables, explained = [], []
    rematches = 0
    for i, (a, b) in enumerate(pairs, 1):
        tables.append({"table": i, "sides": [[a], [b]]})
        times = met[frozenset((a, b))]
        rematches += times > 0
        explained.append(
            {
                "table": i,
                "entries": [a, b],
                "scores": [score[a], score[b]],
                "places": [pos[a] + 1, pos[b] + 1],
                "met_before": times,
            }
        )
    explanation: dict[str, Any] = {
        "system": "swiss",
        "window": window,  # the method's words, for pages that say it in their reader's language
        "method": "maximum-weight matching (networkx.max_weight_matching, maxcardinality)"
        + (f", on opponents at most {window} places apart" if window else ""),
        "constraints": [
            "no rematch while one can be avoided",
            "no second bye while one can be avoided",
            "bye to the lowest-placed entry without a bye",
            "closest scores first, then closest places",
        ],
        "rematches": rematches,
        "score_gaps": sum(abs(score[a] - score[b]) for a, b in pairs),
        "cost": sum(met[frozenset((a, b))] * r_meet + score_cost(a, b) for a, b in pairs)
        + sum(byes[e] * b_repeat + (n - 1 - pos[e]) * b_place for e in bye),
        "tables": explained,
    }
    if bye:
        e = bye[0]
        explanation["bye"] = {"entry": e, "place": pos[e] + 1, "byes_before": byes[e]}
    return Pairing(number, tables, bye, explanation)
