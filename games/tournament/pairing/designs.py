"""Whist tournaments: complete designs for individual events of 4k and 4k+1 players.

A whist tournament Wh(v) seats v players at tables of four over v-1 rounds (v = 4k) or v rounds
(v = 4k+1, one player sitting out each round) so that every two players are partners exactly
once and opponents exactly twice (Haanpää & Kaski 2005, tournaments.md section 1.2: they exist
for all v = 0, 1 mod 4).

Each design here is kept as a *base round* over an abelian group G (Z_n, or Z_3 x Z_3 for nine
players, for which no cyclic design exists) and develops by adding each element of G in turn:

* v = 4k+1: the points are G (|G| = v); in the base round the point 0 sits out; round r adds the
  r-th element of G to every point;
* v = 4k: the points are G (|G| = v-1) plus a fixed point "infinity" that never moves.

A base table ``(a, c, b, d)`` seats partners a and c against partners b and d. The base rounds
were found by a backtracking search on the difference conditions (the partner differences
+-(a-c), +-(b-d) cover every non-zero element of G once, the opponent differences twice);
tests/tournament/test_individual.py develops every design and checks both properties.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

Point = tuple[int, ...] | None  # an element of G, or None for infinity

#: players -> (orders of the cyclic factors of G, has infinity, base tables)
_BASES: dict[int, tuple[tuple[int, ...], bool, list[list[Point]]]] = {}


def _add(v: int, mods: tuple[int, ...], infinity: bool, base: list[list[int | tuple[int, ...] | None]]) -> None:
    def point(p: int | tuple[int, ...] | None) -> Point:
        if p is None:
            return None
        return p if isinstance(p, tuple) else (p,)

    _BASES[v] = (mods, infinity, [[point(p) for p in t] for t in base])


_add(4, (3,), True, [[None, 0, 1, 2]])
_add(5, (5,), False, [[1, 4, 2, 3]])
_add(8, (7,), True, [[None, 4, 2, 5], [0, 6, 1, 3]])
_add(9, (3, 3), False, [[(0, 1), (0, 2), (1, 1), (2, 2)], [(1, 0), (2, 0), (1, 2), (2, 1)]])
_add(12, (11,), True, [[None, 8, 1, 9], [0, 5, 3, 10], [2, 4, 6, 7]])
_add(13, (13,), False, [[1, 10, 5, 7], [2, 8, 3, 4], [6, 11, 9, 12]])
_add(16, (15,), True, [[None, 1, 10, 14], [0, 3, 6, 11], [2, 4, 5, 12], [7, 13, 8, 9]])
_add(17, (17,), False, [[1, 3, 11, 16], [2, 10, 13, 14], [4, 7, 6, 12], [5, 9, 8, 15]])
_add(20, (19,), True, [[None, 9, 11, 14], [0, 1, 4, 10], [2, 6, 8, 13], [3, 12, 7, 15], [5, 17, 16, 18]])
_add(21, (21,), False, [[1, 11, 13, 16], [2, 8, 4, 20], [3, 15, 7, 14], [5, 9, 6, 19], [10, 12, 17, 18]])


@dataclass(frozen=True)
class Design:
    players: int
    mods: tuple[int, ...]
    infinity: bool
    base: tuple[tuple[Point, ...], ...]

    @property
    def group(self) -> str:
        """The group G the design's points are, in the books' notation: ``Z7``, ``Z3 x Z3``."""
        return " x ".join(f"Z{m}" for m in self.mods)

    @property
    def name(self) -> str:
        return f"Wh({self.players}) over {self.group}{' + infinity' if self.infinity else ''}"

    @property
    def elements(self) -> list[tuple[int, ...]]:
        return list(itertools.product(*(range(m) for m in self.mods)))

    @property
    def rounds(self) -> int:
        return len(self.elements)

    def index(self, p: Point) -> int:
        """The player number of a point: the elements of G in order, then infinity."""
        return self.rounds if p is None else self.elements.index(p)

    def round(self, r: int) -> tuple[list[tuple[tuple[int, int], tuple[int, int]]], list[int]]:
        """Round r (0-based) as tables of player numbers ((a, c), (b, d)) and the sit-outs."""
        g = self.elements[r]

        def shift(p: Point) -> int:
            return self.index(None if p is None else tuple((x + y) % m for x, y, m in zip(p, g, self.mods)))

        tables = [((shift(a), shift(c)), (shift(b), shift(d))) for a, c, b, d in self.base]
        sit_out = [] if self.infinity else [shift(tuple(0 for _ in self.mods))]
        return tables, sit_out


def find_design(players: int) -> Design | None:
    if players not in _BASES:
        return None
    mods, infinity, base = _BASES[players]
    return Design(players, mods, infinity, tuple(tuple(t) for t in base))


def available() -> list[int]:
    return sorted(_BASES)


def design_round(
    design: Design, r: int, order: list[str]
) -> tuple[list[tuple[tuple[str, str], tuple[str, str]]], list[str]]:
    """Round r of the design with player number i played by ``order[i]``."""
    tables, out = design.round(r)
    return ([((order[a], order[c]), (order[b], order[d])) for (a, c), (b, d) in tables], [order[i] for i in out])
