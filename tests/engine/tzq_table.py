"""A Tien Zi Que game under test (seed 004, docs/tien-zi-que.md): the test edition of the deck and
``Game``, which applies events, sets up rounds with chosen hands and checks that a refused event
leaves no trace (``snapshot``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.engine import EngineError, score_json, state_json
from games.engine.tien_zi_que import TienZiQueState, sort_cards

PLAYERS = ["Ann", "Bob"]

#: The test edition: coins in four series blue, black, red, green; honours of several colours;
#: the Tien Zi Que black. (The book does not say which card bears which colour.)
DECK = sort_cards(
    [f"C{n}{c}" for c in "bkrg" for n in range(1, 10)]
    + ["Ew", "Ew", "Eb", "Sw", "Sr", "Sg", "Ww", "Wk", "Wb", "Nw", "Ng", "Nr", "Dr", "Dr", "Dw"]
    + ["Jk", "Jk", "Jk"]
)


def snapshot(state):
    """Everything observable about a state, to check that a refused event changed nothing."""
    return (
        json.dumps(state_json(state), sort_keys=True),
        json.dumps(score_json(state), sort_keys=True),
        state.events_applied,
        repr(state.round.stock if state.round else None),
    )


class Game:
    """A game under test: ``do`` applies events, ``refuse`` checks a refusal leaves no trace."""

    def __init__(self, options=None):
        self.options = {"deck": DECK, **(options or {})}
        self.state = TienZiQueState(self.options, PLAYERS)
        self.events: list[dict] = []

    def do(self, *events):
        for e in events:
            self.state.apply(e)
            self.events.append(e)
        return self

    def refuse(self, event, code, *words):
        before = snapshot(self.state)
        with pytest.raises(EngineError) as info:
            self.state.apply(event)
        assert info.value.code == code, info.value.message
        for w in words:
            assert w in info.value.message, info.value.message
        assert snapshot(self.state) == before
        return info.value

    @property
    def js(self):
        return state_json(self.state)

    def start(self, seat, hand0, hand1, stock_top=(), stock_bottom=()):
        """A round_start with the given hands; the stock begins with ``stock_top``, ends with
        ``stock_bottom``, the rest of the deck in between in a fixed order."""
        rest = Counter(DECK) - Counter(hand0) - Counter(hand1) - Counter(stock_top) - Counter(stock_bottom)
        assert (
            sum((Counter(hand0) + Counter(hand1) + Counter(stock_top) + Counter(stock_bottom) - Counter(DECK)).values())
            == 0
        ), "a card is used more often than the deck holds"
        stock = list(stock_top) + sort_cards(rest.elements()) + list(stock_bottom)
        return self.do({"type": "round_start", "seat": seat, "hands": [list(hand0), list(hand1)], "stock": stock})

    def pass_turn(self):
        """The player to act draws and discards the card drawn."""
        seat = self.state.turn
        self.do({"type": "draw", "seat": seat})
        return self.do({"type": "discard", "seat": seat, "card": self.js["drawn"]})

    def reshuffle(self, front):
        """The player to act reshuffles the whole discard pile: ``front`` on top, then the rest."""
        rest = Counter(self.js["discard"]) - Counter(front)
        assert sum((Counter(front) - Counter(self.js["discard"])).values()) == 0, "not in the discard pile"
        return self.do(
            {"type": "reshuffle", "seat": self.state.turn, "stock": list(front) + sort_cards(rest.elements())}
        )

    def burn(self, turns):
        for _ in range(turns):
            self.pass_turn()
        return self
