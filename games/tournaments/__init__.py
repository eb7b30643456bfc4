"""Club tournaments in the database: the Django side of `games.tournament` (the pure core).

A tournament is stored as its own append-only event stream (`Tournament` head + ordered
`TournamentEvent` rows), exactly like a game: the database refuses UPDATE, DELETE and TRUNCATE on
the events (migration 0002), writers lock the head row and give `expected_seq`, retries carry an
`Idempotency-Key`. Standings, crosstable and pairings are folds by the core; the tables' games
are ordinary games of the club, linked to their round and table by `TableGame`.
"""
