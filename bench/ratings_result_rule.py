"""The cost of the rule that a win agrees with its result (model.result_kept; docs/ratings.md §3,
"A win is never read as a loss"): the shipped model's log loss on the bench's four histories with
the rule and without it, on the tuning and the test windows, paired (day blocks).

    .venv/bin/python bench/ratings_result_rule.py [seed]

It swaps the rule out at run time, so it needs games/ratings/rating_steps.py interpreted (a
compiled build's 2v2 step calls its own result_kept): it stops when the module is compiled. Run it
on the source with ``TICHU_PURE_PYTHON=1 .venv/bin/python bench/ratings_result_rule.py``.
"""

import sys
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.ratings as B  # noqa: E402
from bench.ratings_lab import evaluate as ev  # noqa: E402
from games.ratings import config, mixture, rating_steps  # noqa: E402

if not rating_steps.__file__.endswith(".py"):
    sys.exit(f"{rating_steps.__file__} is compiled: run with TICHU_PURE_PYTHON=1 to swap result_kept out (docstring)")

args = types.SimpleNamespace(
    games=2000,
    drift_games=3000,
    seed=int(sys.argv[1]) if len(sys.argv) > 1 else 1,
    tracker=str(B.TRACKER),
    bots=str(B.BOTS),
    regenerate_bots=False,
)
real = mixture.result_kept
for key, _label, games, _ in B.load_histories(args):
    new = ev.prequential(config.model_for(games[0].variant), games)
    mixture.result_kept = rating_steps.result_kept = lambda y, s, f=(): y  # the general path's and the 2v2 step's
    old = ev.prequential(config.model_for(games[0].variant), games)
    mixture.result_kept = rating_steps.result_kept = real
    n = max(f.index for f in new) + 1
    for wname, w in zip(("tuning", "test"), ev.windows(n)):
        a, b = ev.select(new, w), ev.select(old, w)
        d, lo, hi = ev.paired_bootstrap(a, b)
        print(
            f"{key:10s} {wname:6s} games {len(w):4d}  with rule {ev.log_loss(a):.4f}  without {ev.log_loss(b):.4f}  "
            f"with - without {d:+.4f} [{lo:+.4f}, {hi:+.4f}]  slope {ev.calibration_slope(a):.2f} / {ev.calibration_slope(b):.2f}"
        )
