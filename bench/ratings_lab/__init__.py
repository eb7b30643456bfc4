"""The ratings' research code, kept out of the shipped package (games.ratings): the candidate
models and the baselines the bench measures the shipped model against, their evaluation
(prequential log loss, bootstrap intervals), the generated, bot-played and tracker histories, and
the loader that puts a history straight into the tables. Read by bench/ratings.py and
bench/league.py and by the tests; never imported by games or replay (pyproject.toml installs
tichu_site, games and replay only; an import contract keeps the shipped code off this package)."""
