"""The league in the API (docs/api.md, "The league"): a club's tables and a player's rating
history, read through games.ratings.queries with the pages' visibility."""
