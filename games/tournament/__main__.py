"""``python -m games.tournament standings|crosstable|pair`` (docs/tournament.md, "Command line")."""

from .cli import main

raise SystemExit(main())
