"""The one stream store: what a game's and a tournament's event streams share.

A stream is a head row (`seq`: the number of events stored, moved only under the head's row lock
in the transaction that inserts the events) and its append-only event rows, unique on
(head, seq). What each stream's events mean is its own (the engine folds a game, the tournament
core a tournament); how they are stored is here, once:

- `models`: the abstract head and event models both streams' models extend;
- `append`: the append itself (shape, size and storable checks, Idempotency-Key, expected seq,
  all in one transaction), which the game's and the tournament's appends call with their own
  lock and fold;
- `idempotency`: an Idempotency-Key's replay for every write; `checks`: the input checks of every
  write; `errors` and `results`: what a write raises and answers;
- `imports`: the content of an imported file (`import_hash`) and the one "already imported" answer;
- `triggers`: the database's guarantees on an event table (append-only; an INSERT's seq is the
  next one), the SQL the migrations install, on SQLite and PostgreSQL.

It knows no stream in particular: games.services and games.tournaments.services build on it.
"""
