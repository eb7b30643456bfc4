"""The HTTP API (DRF): thin views over `games.services` (writes) and `games.selectors` (reads)."""
