"""Scorer entry pages (issue #7): start a game, enter hands from the score sheet or card by card,
undo. Pages render here; every write goes through the JSON API (games/api), which calls
games.services. See docs/entry.md."""
