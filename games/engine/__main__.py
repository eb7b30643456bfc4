"""``python -m games.engine score|state|from-bsw`` (record-format.md section 4)."""

from .cli import main

raise SystemExit(main())
