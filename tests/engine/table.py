"""A test table: a Nanking hand set up with chosen 14-card hands, then played event by event.

``Table({0: [...], 1: [...], ...})`` shuffles, deals with ``deal`` events and runs a constructed
exchange: the pushes are chosen so that after the exchange each seat holds exactly the wanted
cards (each seat is dealt three cards another seat wants, and pushes them there). Seats left
out (or given fewer than 14 cards) are filled from the rest of the deck, avoiding bombs.

Then ``play``/``pass_``/``gift``/``bomb`` apply events through the public API, and ``refuse``
asserts that an event is rejected with a given ``EngineError.code`` and leaves ``state_json``
exactly as it was.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any, Iterable

import pytest

from games.engine import TICHU_DECK, EngineError, GameState, fold, new_game, readings, state_json

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def _has_bomb(cards: Iterable[str]) -> bool:
    """Whether the cards hold a four of a kind or a straight flush of five."""
    cards = list(cards)
    ranks = Counter(c[0] for c in cards if len(c) == 2)
    if any(v == 4 for v in ranks.values()):
        return True
    order = "23456789TJQKA"
    for s in "jspr":
        have = {c[0] for c in cards if len(c) == 2 and c[1] == s}
        for i in range(len(order) - 4):
            if all(r in have for r in order[i : i + 5]):
                return True
    return False


def fill_hands(partial: dict[int, list[str]]) -> list[list[str]]:
    """Complete the given hands to 14 cards each from the rest of the deck, without making a
    bomb in any completed seat that the test did not already give one."""
    hands = [list(partial.get(s, [])) for s in range(4)]
    used = Counter(c for h in hands for c in h)
    assert all(v == 1 for v in used.values()), f"a card is given twice: {[c for c, v in used.items() if v > 1]}"
    for h in hands:
        assert len(h) <= 14, h
    rest = [c for c in TICHU_DECK if c not in used]
    needy = [s for s in range(4) if len(hands[s]) < 14]
    for attempt in range(2000):  # a fixed sequence of seeded shuffles: deterministic
        pile = list(rest)
        random.Random(attempt).shuffle(pile)
        trial = [list(h) for h in hands]
        for s in needy:
            k = 14 - len(trial[s])
            trial[s] += pile[:k]
            pile = pile[k:]
        if all(not _has_bomb(trial[s]) or _has_bomb(hands[s]) for s in needy):
            return trial
    raise AssertionError("could not fill the hands without a bomb")


class Table:
    """One Nanking hand at a chosen position. ``events`` is the record's event list so far."""

    def __init__(
        self,
        hands: dict[int, list[str]] | list[list[str]],
        options: dict[str, Any] | None = None,
        shuffler: int = 0,
        grand_tichu: Iterable[int] = (),
        tichu: Iterable[int] = (),
        state=None,
        events: list[dict[str, Any]] | None = None,
    ) -> None:
        if isinstance(hands, list):
            hands = dict(enumerate(hands))
        self.wanted = fill_hands(hands)
        self.options = dict(options or {})
        self.state = state if state is not None else new_game("nanking", self.options, PLAYERS)
        self.events: list[dict[str, Any]] = list(events or [])
        self.apply({"type": "shuffle", "seat": shuffler})
        # seat t receives wanted[t][j] from the j-th other seat (in seat order): that seat is dealt it
        incoming: dict[int, dict[int, str]] = {s: {} for s in range(4)}  # sender -> {target: card}
        for t in range(4):
            senders = [u for u in range(4) if u != t]
            for j, u in enumerate(senders):
                incoming[u][t] = self.wanted[t][j]
        dealt = {s: self.wanted[s][3:] + [incoming[s][t] for t in sorted(incoming[s])] for s in range(4)}
        grand = set(grand_tichu)
        for s in range(4):
            if s in grand:
                self.apply({"type": "grand_tichu", "seat": s})
            self.apply({"type": "deal", "seat": s, "cards": dealt[s]})
        for s in tichu:
            self.apply({"type": "tichu", "seat": s})
        for s in range(4):
            self.apply({"type": "push", "seat": s, "cards": {str(t): c for t, c in sorted(incoming[s].items())}})
        for s in range(4):
            assert Counter(self.hand(s)) == Counter(self.wanted[s]), (s, self.hand(s), self.wanted[s])

    # --- reading the state -------------------------------------------------------------------

    @property
    def js(self) -> dict[str, Any]:
        return state_json(self.state)

    def hand(self, seat: int) -> list[str]:
        return self.js["hands"][seat]

    def holds(self, seat: int, *cards: str) -> bool:
        return all(c in self.hand(seat) for c in cards)

    @property
    def turn(self) -> int | None:
        return self.state.turn

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def wish(self) -> str | None:
        return self.js["wish"]

    @property
    def trick(self) -> list[dict[str, Any]]:
        return self.js["trick"]

    def points_won(self, seat: int) -> int:
        return self.js["tricks_won"][seat]["points"]

    @property
    def last_line(self) -> dict[str, Any]:
        return self.js["score_sheet"][-1]

    def record(self) -> dict[str, Any]:
        return {
            "format": "tichu-record/1",
            "variant": "nanking",
            "options": self.options,
            "players": PLAYERS,
            "events": copy.deepcopy(self.events),
        }

    # --- acting ------------------------------------------------------------------------------

    def apply(self, event: dict[str, Any]) -> "Table":
        self.state.apply(copy.deepcopy(event))
        self.events.append(event)
        return self

    def play(
        self, seat: int, *cards: str, wish: str | None = None, phoenix: str | None = None, to: int | None = None
    ) -> "Table":
        return self.apply(play_event(seat, *cards, wish=wish, phoenix=phoenix, to=to))

    bomb = play

    def pass_(self, *seats: int) -> "Table":
        for s in seats:
            self.apply({"type": "pass", "seat": s})
        return self

    def gift(self, seat: int, to: int) -> "Table":
        return self.apply({"type": "dragon_gift", "seat": seat, "to": to})

    def refuse(self, event: dict[str, Any], code: str) -> EngineError:
        return refuse(self.state, event, code)

    def refuse_play(self, code: str, seat: int, *cards: str, **kw: Any) -> EngineError:
        return self.refuse(play_event(seat, *cards, **kw), code)

    def refuse_pass(self, code: str, seat: int) -> EngineError:
        return self.refuse({"type": "pass", "seat": seat}, code)

    def check_fold(self) -> None:
        """The record folded from scratch gives the same state as applying event by event."""
        assert state_json(fold(self.record())) == state_json(self.state)


def refuse(state: GameState, event: dict[str, Any], code: str) -> EngineError:
    """Assert the event is refused with ``code`` and that the state is exactly unchanged."""
    before = state_json(state)
    applied = state.events_applied
    with pytest.raises(EngineError) as info:
        state.apply(copy.deepcopy(event))
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value.message}"
    assert state_json(state) == before
    assert state.events_applied == applied
    return info.value


def play_event(
    seat: int, *cards: str, wish: str | None = None, phoenix: str | None = None, to: int | None = None
) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "play", "seat": seat, "cards": list(cards)}
    if wish is not None:
        event["wish"] = wish
    if phoenix is not None:
        event["phoenix"] = phoenix
    if to is not None:
        event["to"] = to
    return event


def straight(ranks: str, suits: str) -> list[str]:
    """Cards of the given ranks; ``suits`` one suit per card, or a single suit for all (a flush)."""
    if len(suits) == 1:
        suits = suits * len(ranks)
    assert len(suits) == len(ranks)
    return [r + s for r, s in zip(ranks, suits)]


def kind_of(cards: list[str]) -> list[str]:
    return [c.kind for c in readings(cards)]


# --- a ready-made position: two players out at once, two still playing --------------------------

#: Seat 2 holds the Mahjong and 1..A (14 cards: out with its first lead); seat 3 holds the stairs
#: 88..AA (out with its first lead); seat 0 goes out third with two full houses, a pair, a 7 and the
#: Dragon; seat 1 is the tailender with a straight-flush bomb 8r..Ar, the Dog and the Phoenix.
TWO_OUT_HANDS = {
    2: ["Mahjong"] + straight("234567", "j") + straight("89TJQKA", "p"),
    3: [r + s for r in "89TJQKA" for s in "js"],
    0: ["2s", "2p", "2r", "3s", "3r", "4s", "4p", "4r", "5p", "5r", "6s", "6p", "7r", "Dragon"],
    1: ["3p", "5s", "6r", "7s", "7p"] + straight("89TJQKA", "r") + ["Dog", "Phoenix"],
}
STRAIGHT_1_A = TWO_OUT_HANDS[2]
STAIRS_8_A = TWO_OUT_HANDS[3]


def two_out(**kw: Any) -> Table:
    """Seats 2 and 3 go out first and second (not partners); seat 0 leads next, seat 1 has cards."""
    t = Table(TWO_OUT_HANDS, **kw)
    assert t.turn == 2
    t.play(2, *STRAIGHT_1_A).pass_(3, 0, 1)
    assert t.turn == 3, "seat 2 is out: the lead goes to the next player holding cards"
    t.play(3, *STAIRS_8_A).pass_(0, 1)
    assert t.js["out"] == [2, 3] and t.turn == 0
    return t


#: Seat 0's cards after ``two_out()`` besides the Dragon, one combination per trick.
SEAT0_PLAYS = (["2s", "2p", "2r", "3s", "3r"], ["4s", "4p", "4r", "5p", "5r"], ["6s", "6p"], ["7r"])


def seat0_goes_out(t: Table, dragon: str) -> Table:
    """After ``two_out()``, seat 0 plays out its cards, seat 1 passing each trick. ``dragon="first"``:
    the Dragon trick goes to seat 3 and the 7 ends the hand; ``"last"``: the Dragon is seat 0's
    last card and its trick waits for the gift."""
    plays = SEAT0_PLAYS
    if dragon == "first":
        t.play(0, "Dragon").pass_(1).gift(0, 3)
        plays = plays[:-1]
    for cards in plays:
        t.play(0, *cards).pass_(1)
    return t.play(0, "7r" if dragon == "first" else "Dragon")


__all__ = [
    "Table",
    "PLAYERS",
    "fill_hands",
    "play_event",
    "straight",
    "kind_of",
    "TWO_OUT_HANDS",
    "STRAIGHT_1_A",
    "STAIRS_8_A",
    "SEAT0_PLAYS",
    "two_out",
    "seat0_goes_out",
]
