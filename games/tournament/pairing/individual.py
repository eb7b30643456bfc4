"""Individual events: four players a table, a new partner each round.

The cost of a round's seating is lexicographic: repeated partners first, then repeated
opponents, then players returning to a table number they sat at before. Sit-outs (when the
field is not a multiple of 4) go to the players who sat out least, in a seeded order.

* When the field has a complete design (a whist tournament, :mod:`.designs`: 4k and 4k+1
  players) and the design's round for this round number repeats no partner, it is used: over the
  design's rounds everyone partners everyone exactly once (and meets everyone twice as an
  opponent), and with 4k+1 players everyone sits out once.
* Otherwise an optimiser seats the round: a maximum-weight matching forms the partnerships
  (so no partner is repeated when a non-repeating set of partnerships exists for the players who
  play), a second matching forms the tables from the partnerships (fewest repeated opponents),
  then a seeded local search swaps players while the cost falls. All randomness is seeded from
  the header's ``seed`` and the round number, so the proposal is reproducible.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import networkx as nx

from ..errors import TournamentError
from ..state import TournamentState
from . import Pairing
from .designs import design_round, find_design

#: weights of the lexicographic cost; a seating has at most n/2 partnerships and 2n opponent
#: pairs, so with fields below 1,000 players one step of a criterion outweighs all the lower ones
PARTNER, OPPONENT, TABLE = 10**8, 10**4, 1

Table = tuple[tuple[str, str], tuple[str, str]]  # (partners, partners)


class History:
    """Who partnered, opposed and sat where in the rounds so far."""

    def __init__(self, state: TournamentState) -> None:
        self.partners: Counter[frozenset[str]] = Counter()
        self.opponents: Counter[frozenset[str]] = Counter()
        self.table_numbers: dict[str, Counter[int]] = {}
        self.sat_out: Counter[str] = Counter()
        for rnd in state.rounds:
            for t in rnd.tables.values():
                (a, c), (b, d) = t.sides
                self.partners[frozenset((a, c))] += 1
                self.partners[frozenset((b, d))] += 1
                for x in (a, c):
                    for y in (b, d):
                        self.opponents[frozenset((x, y))] += 1
                for x in (a, b, c, d):
                    self.table_numbers.setdefault(x, Counter())[t.number] += 1
            for e in rnd.byes:
                self.sat_out[e] += 1

    def table_cost(self, table: Table) -> tuple[int, int]:
        """(repeated partners, repeated opponents) of one table."""
        (a, c), (b, d) = table
        p = self.partners[frozenset((a, c))] + self.partners[frozenset((b, d))]
        o = sum(self.opponents[frozenset((x, y))] for x in (a, c) for y in (b, d))
        return p, o

    def cost(self, tables: list[Table]) -> int:
        total = 0
        for t in tables:
            p, o = self.table_cost(t)
            total += p * PARTNER + o * OPPONENT
        return total


def _choose_sit_outs(players: list[str], count: int, history: History, rng: random.Random) -> list[str]:
    """The ``count`` players who sat out least (ties in a seeded order); among the equally fair
    choices, one that leaves a seating without a repeated partner when there is one."""
    if count == 0:
        return []
    shuffled = players[:]
    rng.shuffle(shuffled)
    ranked = sorted(shuffled, key=lambda e: history.sat_out[e])
    cutoff = history.sat_out[ranked[count - 1]]
    sure = [e for e in ranked if history.sat_out[e] < cutoff]
    tier = [e for e in ranked if history.sat_out[e] == cutoff]
    need = count - len(sure)
    first = sure + tier[:need]
    if _partner_repeats(players, first, history) == 0:
        return first
    best, best_repeats = first, None
    for combo in itertools.islice(itertools.combinations(tier, need), 300):
        chosen = sure + list(combo)
        repeats = _partner_repeats(players, chosen, history)
        if best_repeats is None or repeats < best_repeats:
            best, best_repeats = chosen, repeats
        if repeats == 0:
            break
    return best


def _partner_matching(playing: list[str], history: History, rng: random.Random) -> list[tuple[str, str]]:
    """Partnerships by maximum-weight matching: fewest repeated partners (exactly: a matching
    without repeats is found whenever one exists), then partners who have not met as opponents,
    with a seeded jitter so that equal choices are drawn, not taken in list order."""
    graph = nx.Graph()
    top = PARTNER * (len(playing) + 2)
    for i, a in enumerate(playing):
        for b in playing[i + 1 :]:
            pair = frozenset((a, b))
            cost = history.partners[pair] * PARTNER + history.opponents[pair] * 10 + rng.randrange(10)
            graph.add_edge(a, b, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted(tuple(sorted(p)) for p in matching)


def _partner_repeats(players: list[str], sit_outs: list[str], history: History) -> int:
    playing = [e for e in players if e not in sit_outs]
    pairs = _partner_matching(playing, history, random.Random(0))
    return sum(history.partners[frozenset(p)] for p in pairs)


def _tables_from_partnerships(pairs: list[tuple[str, str]], history: History, rng: random.Random) -> list[Table]:
    """Two partnerships a table, by maximum-weight matching on the opponents they would meet again."""
    graph = nx.Graph()
    top = OPPONENT * 8 * (len(pairs) + 2)
    for i, p in enumerate(pairs):
        for q in pairs[i + 1 :]:
            cost = sum(history.opponents[frozenset((x, y))] for x in p for y in q) * OPPONENT + rng.randrange(10)
            graph.add_edge(p, q, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return [(p, q) for p, q in sorted(tuple(sorted(m)) for m in matching)]


def _local_search(tables: list[Table], history: History, rng: random.Random, steps: int) -> list[Table]:
    """Swap two players (across tables, or a partner with an opponent) while the cost does not
    rise; plateau moves are taken so the search can walk past equal seatings."""
    seats = [list(t[0]) + list(t[1]) for t in tables]  # a, c, b, d: (a, c) and (b, d) partners

    def cost_of(i: int) -> int:
        a, c, b, d = seats[i]
        p, o = history.table_cost(((a, c), (b, d)))
        return p * PARTNER + o * OPPONENT

    costs = [cost_of(i) for i in range(len(seats))]
    if sum(costs) == 0:
        return tables
    for _ in range(steps):
        i, j = rng.randrange(len(seats)), rng.randrange(len(seats))
        x, y = rng.randrange(4), rng.randrange(4)
        if i == j and (x == y or {x, y} in ({0, 1}, {2, 3})):
            continue  # swapping two partners, or a player with themself, changes nothing
        before = costs[i] + (costs[j] if i != j else 0)
        seats[i][x], seats[j][y] = seats[j][y], seats[i][x]
        new_i, new_j = cost_of(i), cost_of(j)
        after = new_i + (new_j if i != j else 0)
        if after <= before:
            costs[i], costs[j] = new_i, new_j
            if sum(costs) == 0:
                break
        else:
            seats[i][x], seats[j][y] = seats[j][y], seats[i][x]
    return [((s[0], s[1]), (s[2], s[3])) for s in seats]


def _number_tables(tables: list[Table], history: History) -> list[dict[str, Any]]:
    """Table numbers 1..T so that the fewest players return to a number they sat at before."""
    numbers = range(1, len(tables) + 1)
    graph = nx.Graph()
    top = 4 * len(tables) + 1
    for i, t in enumerate(tables):
        players = [*t[0], *t[1]]
        for n in numbers:
            back = sum(history.table_numbers.get(e, Counter())[n] for e in players)
            graph.add_edge(("t", i), ("n", n), weight=top - back)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assigned = {}
    for u, v in matching:
        t, n = (u, v) if u[0] == "t" else (v, u)
        assigned[t[1]] = n[1]
    out = [{"table": assigned[i], "sides": [list(t[0]), list(t[1])]} for i, t in enumerate(tables)]
    return sorted(out, key=lambda t: t["table"])


def _returns(tables: list[dict[str, Any]], history: History) -> int:
    return sum(history.table_numbers.get(e, Counter())[t["table"]] for t in tables for s in t["sides"] for e in s)


def pair_individuals(state: TournamentState, number: int) -> Pairing:
    players = state.active_entries()
    n = len(players)
    if n < 4:
        raise TournamentError(
            "pairing_impossible", "an individual round needs at least four active players", rule="individual"
        )
    history = History(state)
    seed = state.header["seed"]
    rng = random.Random(f"seat:{seed}:{number}")

    tables: list[Table] | None = None
    sit_outs: list[str] = []
    method = ""
    design_words: dict | None = None  # the method's words, for pages that say it in their reader's language
    design = find_design(n)
    if design is not None and number - 1 < design.rounds:
        order = sorted(players, key=lambda e: state.entries[e].registered_at)
        random.Random(f"design:{seed}").shuffle(order)
        candidate, out = design_round(design, number - 1, order)
        if sum(history.partners[frozenset(p)] for t in candidate for p in t) == 0:
            tables, sit_outs = candidate, out
            fixed_point = " with a fixed point" if design.infinity else ""
            method = (
                f"whist design for {design.players} players over the group {design.group}{fixed_point}, "
                f"round {number} of {design.rounds}"
            )
            design_words = {
                "name": design.name,
                "players": design.players,
                "group": design.group,
                "fixed_point": design.infinity,
                "round": number,
                "of": design.rounds,
            }
    if tables is None:
        sit_outs = _choose_sit_outs(players, n % 4, history, rng)
        playing = [e for e in players if e not in sit_outs]
        pairs = _partner_matching(playing, history, rng)
        tables = _tables_from_partnerships(pairs, history, rng)
        tables = _local_search(tables, history, rng, steps=40 * n)
        method = "maximum-weight matching of partners, then of partnerships to tables, then seeded local search"
    numbered = _number_tables(tables, history)
    repeated_partners = sum(history.table_cost(t)[0] for t in tables)
    repeated_opponents = sum(history.table_cost(t)[1] for t in tables)
    returns = _returns(numbered, history)
    explanation = {
        "system": "individual",
        "design": design_words,
        "method": method,
        "constraints": [
            "no repeated partner while one can be avoided",
            "fewest repeated opponents",
            "fewest returns to a table number",
            "sit-outs to those who sat out least",
        ],
        "repeated_partners": repeated_partners,
        "repeated_opponents": repeated_opponents,
        "table_returns": returns,
        "cost": repeated_partners * PARTNER + repeated_opponents * OPPONENT + returns * TABLE,
        "sit_outs": [{"entry": e, "sat_out_before": history.sat_out[e]} for e in sit_outs],
    }
    return Pairing(number, numbered, sit_outs, explanation)
