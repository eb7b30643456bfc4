"""Ratings: pure maths (types, elo, model, evaluate) plus the Django side (models, views, tasks)."""

# The engine's import checks the compiled build (games/engine/build_check.py, mypyc_build.py),
# this package's compiled module (rating_steps) included, and with TICHU_PURE_PYTHON=1 has it
# imported from its source: so it comes before anything of this package is imported.
import games.engine  # noqa: E402, F401
