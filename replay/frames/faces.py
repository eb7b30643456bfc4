"""Card faces and names for the pages, the templates and the replay's payload: the engine's (one
home for the pages, the API and the scripts), gathered here so the site reads them in one place."""

from __future__ import annotations

from games import engine
from games.engine import RANK_NAMES, card_face, card_name, card_table, cards_text, variant_cards, with_article

HIDDEN = engine.HIDDEN  # a card whose face the reader may not see

__all__ = [
    "HIDDEN",
    "RANK_NAMES",
    "card_face",
    "card_name",
    "card_table",
    "cards_text",
    "variant_cards",
    "with_article",
]
