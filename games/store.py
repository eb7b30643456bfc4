"""The old name of `games.snapshots` (the one cache of folded game states), kept while branches
written before the rename land: `from games import store` gives that same module object (not a
copy), so its caches and any test's monkeypatching are shared. New code imports games.snapshots."""
import sys

from games import snapshots

sys.modules[__name__] = snapshots
