"""How big a tournament and its numbers may be (docs/tournament.md, "Bounds").

A tournament's work grows with its entries, rounds and boards, and its standings add up every
number its events carry: unbounded, a 170-byte file with 8,000 pairs took half a minute to import
and two adjustments of 1e308 VP made the standings overflow for good (the stream is append-only).
Each bound is far above any real event (the largest Tichu tournaments have a few hundred players)
and is checked where the value comes in: the header by ``record.parse_header``, the entry count by
the fold (``state``), every number an event carries by ``fields.check_incoming``. With these, any
sum the standings make stays a finite float far from overflow.
"""

from __future__ import annotations

#: entries registered in one tournament (pairs, or individuals)
MAX_ENTRIES = 500
#: rounds a tournament plays (the header's ``rounds``, and the rounds paired)
MAX_ROUNDS = 100
#: hands (or duplicate boards) a round plays (the header's ``hands_per_round``)
MAX_HANDS_PER_ROUND = 64
#: boards of a duplicate tournament in all (rounds x boards a round)
MAX_BOARDS = 500
#: a table number (a round has at most half its entries' worth of tables)
MAX_TABLE = MAX_ENTRIES
#: the points a box game is played to (the header's ``target``)
MAX_TARGET = 10_000
#: any Tichu-point figure an event carries: a hand line, a round's score, an adjustment, a bye
MAX_POINTS = 100_000
#: any VP figure an event carries: a paper DTM sheet's VP, an adjustment
MAX_VP = 10_000
#: an id (a game's, a player's) or a seed: what a PostgreSQL bigint holds
MAX_ID = 2**63 - 1
#: a round's clock, in minutes (a round of a club evening is about an hour)
MAX_CLOCK_MINUTES = 600
#: the most items (entries, boards) an error lists; its params give the count
LISTED = 10
