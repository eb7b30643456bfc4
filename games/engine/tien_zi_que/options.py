"""Tien Zi Que's options, with the kinds and plain-word help of :mod:`games.engine.options`."""

from __future__ import annotations

from ..options import Kind, _bool, _choice, _int, option

TZQ_OPTIONS = (
    option(
        "deck",
        None,
        Kind("cards", "null or a list of the 54 card codes of the deck", nullable=True),
        "the 54 cards with their colours (the book does not say which card bears which colour); "
        "null: the first round_start's cards are the deck",
        label="Card colours",
        help="Which card bears which colour (the book does not say); unset: read from the first round's cards.",
    ),
    option(
        "rounds",
        4,
        Kind("int", "an even integer >= 2 (each player starts as many rounds)", minimum=2, multiple_of=2),
        "rounds in a game (the book: 4, each player starting two)",
        label="Rounds",
        help="How many rounds make a game: an even number, so that each player starts as many.",
    ),
    option(
        "starts",
        "alternate",
        _choice(("alternate", "in turn"), ("free", "in any order")),
        "alternate: the first player changes every round; free: any order, each player starting half the rounds",
        label="Who starts a round",
        help="The players start the rounds in turn, or in any order as long as each starts half of them.",
    ),
    option(
        "min_points",
        0,
        _int(0),
        "optional rule: a Mah-jong needs a score pile worth at least this many points (the book's option: 2)",
        label="Smallest Mah-jong",
        help="A Mah-jong needs a score pile worth at least this many points (the book's optional rule: 2).",
    ),
    option(
        "exhausted_stock_draws",
        False,
        _bool(),
        "optional rule: a round ends at the end of the turn that empties the stock; without a Mah-jong it is drawn",
        label="An empty stock ends the round",
        help="When the stock runs out the round ends, drawn, instead of the discards being shuffled into a new stock.",
    ),
)
