"""The club's online table (docs/online.md): a game played from each player's own device.

The table's game is an ordinary record: the server shuffles with `secrets.SystemRandom`, appends
the deal and every seat's action through the append service (games.services.append_events:
expected seq, Idempotency-Key), and reads the state back by folding the record. What the record
cannot hold lives here: who sits where (a secret link per seat), the rest of a hand not dealt yet
(the deal waits for the Grand Tichu decisions) and which seats have decided.

`models` the rows, `services` the writes, `selectors` a seat's view (through games.visibility).
"""
