"""Brettspielwelt (BSW) ``.tch`` logs <-> ``tichu-record/1`` records (pure Python, no I/O at import).

``parse_bsw(text)`` turns a log (one or several games back to back) into one record per game;
``export_bsw(record)`` writes a card-by-card record back as a ``.tch`` log; ``main_from_bsw(argv)``
is the ``python -m games.engine from-bsw LOG.tch [--anonymise]`` subcommand.
The mapping, its decisions and what the export cannot carry are documented in docs/importers.md.

Only the converter lives here: it checks the *shape* of the log (card codes, line syntax, seats)
and raises :class:`BSWFormatError` with the line number; the rules are the engine's business.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from typing import Any, Iterable

__all__ = [
    "BSWFormatError",
    "card_from_bsw",
    "card_to_bsw",
    "parse_bsw",
    "export_bsw",
    "phoenix_reading",
    "main_from_bsw",
]

GT_HEADER = "---------------Gr.Tichukarten------------------"
START_HEADER = "---------------Startkarten------------------"
PLAY_HEADER = "---------------Rundenverlauf------------------"

SUIT_FROM_BSW = {"G": "j", "S": "s", "B": "p", "R": "r"}
SUIT_TO_BSW = {v: k for k, v in SUIT_FROM_BSW.items()}
RANK_FROM_BSW = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
                 "10": "T", "B": "J", "D": "Q", "K": "K", "A": "A"}
RANK_TO_BSW = {v: k for k, v in RANK_FROM_BSW.items()}
SPECIAL_FROM_BSW = {"Ma": "Mahjong", "Hu": "Dog", "Ph": "Phoenix", "Dr": "Dragon"}
SPECIAL_TO_BSW = {v: k for k, v in SPECIAL_FROM_BSW.items()}

# rank numbers used for ordering: Dog 0, Mahjong 1, 2..14, Phoenix (display) 15, Dragon 16
_RANK_NUM = {code: i + 2 for i, code in enumerate("23456789TJQKA")}
_NUM_RANK = {n: c for c, n in _RANK_NUM.items()}
_SPECIAL_NUM = {"Dog": 0, "Mahjong": 1, "Phoenix": 15, "Dragon": 16}

TARGET_SCORE = 1000
OPTIONS = {"preset": "rio", "deal_method": "western"}

_BSW_CARD: dict[str, str] = dict(SPECIAL_FROM_BSW)
for _s, _suit in SUIT_FROM_BSW.items():
    for _r, _rank in RANK_FROM_BSW.items():
        _BSW_CARD[_s + _r] = _rank + _suit
_CARD_BSW = {v: k for k, v in _BSW_CARD.items()}
#: sort key of BSW's display order (descending; Phoenix above the Ace unless it has a reading)
_DISPLAY_KEY = {c: -(_SPECIAL_NUM[c] if c in _SPECIAL_NUM else _RANK_NUM[c[0]]) for c in _CARD_BSW}


class BSWFormatError(ValueError):
    """A line the converter cannot read. ``line`` is 1-based (or None)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


# ---------------------------------------------------------------- cards

def card_from_bsw(code: str) -> str:
    """``'R10'`` -> ``'Tr'``, ``'GB'`` -> ``'Jj'``, ``'Ph'`` -> ``'Phoenix'``."""
    try:
        return _BSW_CARD[code]
    except KeyError:
        raise BSWFormatError(f"unknown BSW card code {code!r}") from None


def card_to_bsw(card: str) -> str:
    try:
        return _CARD_BSW[card]
    except KeyError:
        raise ValueError(f"card {card!r} has no BSW code") from None


def _num(card: str) -> int:
    """Ordering rank of a spec card code (Phoenix 15 for display: it stands above the Ace)."""
    special = _SPECIAL_NUM.get(card)
    return special if special is not None else _RANK_NUM[card[0]]


def phoenix_reading(cards: list[str]) -> str | None:
    """The rank the Phoenix stands for in a multi-card play written in BSW order (descending,
    ``Phoenix`` at the place of the rank it stands for); ``None`` for a single or no Phoenix.

    >>> phoenix_reading(["8s", "7p", "6r", "5r", "Phoenix", "3p", "2p", "Mahjong"])
    '4'
    >>> phoenix_reading(["Phoenix", "8r", "8s", "5s", "5r"])
    '8'
    """
    if len(cards) < 2 or "Phoenix" not in cards:
        return None
    i = cards.index("Phoenix")
    others = [_num(c) for c in cards if c != "Phoenix"]
    counts = Counter(others)
    prev = _num(cards[i - 1]) if i > 0 else None
    nxt = _num(cards[i + 1]) if i + 1 < len(cards) else None
    if len(counts) == 1:  # pair, trio
        value = others[0]
    elif max(counts.values()) == 1:  # straight: the gap, or the end the Phoenix stands at
        value = prev - 1 if prev is not None else nxt + 1
    else:
        singles = [r for r, n in counts.items() if n == 1]
        if len(cards) == 5 and sorted(counts.values()) == [1, 3]:  # full house, Phoenix in the pair
            value = singles[0]
        elif len(cards) == 5 and sorted(counts.values()) == [2, 2]:  # full house: Phoenix's trio
            # BSW puts the Phoenix before the pair it joins ("Ph R8 S8 S5 R5" = 888+55,
            # "GK SK Ph B2 G2" = 222+KK); only at the end does it join the pair before it
            value = prev if nxt is None else nxt
        elif len(singles) == 1:  # consecutive pairs: the rank left without its pair
            value = singles[0]
        else:
            value = prev if prev is not None else nxt
    if value is None or value not in _NUM_RANK:
        raise BSWFormatError("no Phoenix reading for " + " ".join(card_to_bsw(c) for c in cards))
    return _NUM_RANK[value]


def _shape_rank(ranks: list[int]) -> int | None:
    """The rank of a non-bomb combination given by its ranks (Mahjong 1), or None if it is none:
    pair, trio, full house (trio's rank), straight of 5+ and consecutive pairs (top rank)."""
    n = len(ranks)
    counts = Counter(ranks)
    if n in (2, 3) and len(counts) == 1:
        return ranks[0]
    if n == 5 and sorted(counts.values()) == [2, 3]:
        return next(r for r, k in counts.items() if k == 3)
    top = max(ranks)
    if n >= 5 and len(counts) == n and top - min(ranks) == n - 1:
        return top
    if n >= 4 and n % 2 == 0 and set(counts.values()) == {2} and top - min(ranks) == n // 2 - 1:
        return top if 1 not in counts else None
    return None


def default_phoenix(cards: list[str]) -> str | None:
    """For a multi-card play without a ``phoenix`` field: the highest reading the cards allow
    (what the engine takes when the table does not restrict it)."""
    others = [_num(c) for c in cards if c != "Phoenix"]
    best = None
    for value in range(2, 15):
        rank = _shape_rank(others + [value])
        if rank is not None and (best is None or (rank, value) > best):
            best = (rank, value)
    return _NUM_RANK[best[1]] if best else None


def _bsw_sorted(cards: Iterable[str], phoenix: str | None = None) -> list[str]:
    """BSW's display order: descending, Dragon and Phoenix first (the Phoenix at its reading in a
    combination), Mahjong then Dog last. Stable: cards already in BSW order keep their order."""
    if phoenix is None:
        return sorted(cards, key=_DISPLAY_KEY.__getitem__)
    ph = -_RANK_NUM[phoenix]
    return sorted(cards, key=lambda c: ph if c == "Phoenix" else _DISPLAY_KEY[c])


def _wish_from_bsw(x: str, lineno: int) -> str:
    try:
        return RANK_FROM_BSW[x]
    except KeyError:
        raise BSWFormatError(f"unknown wish {x!r}", lineno) from None


# ---------------------------------------------------------------- parsing

_PUSH = re.compile(r"^\(([0-3])\)(.+?) gibt: (.*)$")
_SEATS = frozenset("0123")
_CALL = re.compile(r"^(Grosses Tichu|Tichu): \(([0-3])\)(.+)$")
_GIFT = re.compile(r"^Drache an: \(([0-3])\)(.+)$")
_RESULT = re.compile(r"^Ergebnis: (-?\d+) - (-?\d+)$")
_WISH = re.compile(r"^Wunsch:(\S+)$")
_BOMB = re.compile(r"^BOMBE: ((?:\([0-3]\)\S+ ?)+)$")
_BOMB_ITEM = re.compile(r"\(([0-3])\)(\S+)")


class _Game:
    """Accumulates one game's record while the log is read."""

    def __init__(self, names: list[str]) -> None:
        self.players = list(names)
        self.current = list(names)  # the handle each seat has right now
        self.events: list[dict[str, Any]] = []
        self.results: list[list[int] | None] = []
        self.substitutions: list[dict[str, Any]] = []
        self.startkarten: dict[str, dict[str, list[str]]] = {}
        self.totals = [0, 0]
        self.first_out: int | None = None  # first out of the latest hand
        # seat -> (handle, hand, event index) of a line without cards that named another handle
        self.pending: dict[int, tuple[str, int, int]] = {}

    def see(self, seat: int, name: str, hand: int, event_index: int) -> None:
        """A line with cards (a block, push, play or pass line) names ``seat`` as ``name``: a
        changed handle is a substitution from here on, or from the line without cards that named
        it first (``note``)."""
        pending = self.pending.pop(seat, None)
        if self.current[seat] != name:
            if pending is not None and pending[0] == name:
                hand, event_index = pending[1], pending[2]
            self.current[seat] = name
            self.substitutions.append({"hand": hand, "seat": seat, "name": name, "event": event_index})

    def note(self, seat: int, name: str, hand: int, event_index: int) -> None:
        """A line without cards (a call, ``Drache an:``, ``BOMBE:``) names ``seat`` as ``name``.
        Another handle there is only a substitution once the seat's next line with cards shows it
        too (BSW sometimes prints a handle that never plays on such a line)."""
        if name == self.current[seat]:
            self.pending.pop(seat, None)
        elif seat not in self.pending or self.pending[seat][0] != name:
            self.pending[seat] = (name, hand, event_index)

    @property
    def over(self) -> bool:
        a, b = self.totals
        return max(a, b) >= TARGET_SCORE and a != b


class _Hand:
    """One hand's lines; events before the play are assembled when ``Rundenverlauf`` (or the end)
    is reached, because BSW prints the Grand Tichu calls after the 14-card block."""

    def __init__(self, lineno: int) -> None:
        self.lineno = lineno
        self.first8: dict[int, tuple[str, list[str]]] = {}
        self.all14: dict[int, tuple[str, list[str]]] = {}
        self.grand: list[tuple[int, str]] = []
        self.early_tichu: list[tuple[int, str]] = []
        self.pushes: list[tuple[int, str, dict[str, str], list[str]]] = []
        self.bombs: list[tuple[int, str]] | None = None
        self.section = "gt"  # gt, start, calls, push, play, done


def _cards(tokens: list[str], lineno: int) -> list[str]:
    try:
        return [_BSW_CARD[t] for t in tokens]
    except KeyError as exc:
        raise BSWFormatError(f"unknown BSW card code {exc.args[0]!r}", lineno) from None


def _block_line(line: str, n: int, lineno: int) -> tuple[int, str, list[str]]:
    """``(seat)handle c1 .. cn `` -> (seat, handle, cards)."""
    parts = line.rstrip(" ").rsplit(" ", n)
    if line[:1] != "(" or line[2:3] != ")" or line[1:2] not in _SEATS or len(parts) != n + 1 or len(parts[0]) < 4:
        raise BSWFormatError(f"expected '(seat)handle' and {n} cards", lineno)
    return ord(line[1]) - 48, parts[0][3:], _cards(parts[1:], lineno)


def _exchange_handles(h: _Hand) -> list[str] | None:
    """The four seats' handles as the hand's first push line names them (the pusher and its three
    recipients, in seat order), or None before the exchange."""
    if not h.pushes:
        return None
    s, name, _targets, recipients = h.pushes[0]
    names = [""] * 4
    names[s] = name
    for k, rname in enumerate(recipients):
        names[(s + k + 1) % 4] = rname
    return names


def _mislabelled(block: dict[int, tuple[str, list[str]]], names: list[str] | None) -> bool:
    """True when a card block lists the same four handles as the exchange, but not at the same
    seats: the block's handles are misprinted labels (the cards are the seats'), not a change of
    players. Seen in the first hand of some 2007 games."""
    if names is None or len(block) != 4 or len(set(names)) != 4:
        return False
    shown = [block[s][0] for s in range(4)]
    return shown != names and sorted(shown) == sorted(names)


def _line_index(names: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Pass lines and play-line heads of the seats' current handles -> seat."""
    return ({f"({s}){n} passt.": s for s, n in enumerate(names)},
            {f"({s}){n}": s for s, n in enumerate(names)})


def parse_bsw(text: str, *, anonymise: bool = False, game_id: str | int | None = None,
              bsw_scoring: bool = False) -> list[dict[str, Any]]:
    """Convert a BSW log into ``tichu-record/1`` records, one per game, in order.

    A game ends with the hand in which a team reaches 1000 by the ``Ergebnis`` totals (higher
    wins, a tie plays on); further hands start the next game. ``anonymise`` replaces handles by
    ``Player 1``, ``Player 2``, ... in order of first appearance, consistently over the whole file.
    ``bsw_scoring`` adds the engine option ``bsw_grand_tichu_quirk: true`` so that the engine's
    score reproduces BSW's ``Ergebnis`` (both partners call Grand Tichu: BSW drops the failed -200).
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]

    games: list[_Game] = []
    game: _Game | None = None
    hand: _Hand | None = None
    hand_no = -1
    # trick tracking during the play section
    counts = [0, 0, 0, 0]
    out: list[int] = []
    top: int | None = None
    dragon_seat: int | None = None
    last_mahjong: dict[str, Any] | None = None
    last_trick_owner: int | None = None
    in_play = False
    ev: list[dict[str, Any]] = []
    cur: list[str] = []
    pass_of: dict[str, int] = {}
    play_of: dict[str, int] = {}
    hand_start = 0  # index in the game's events of the current hand's shuffle

    def finish_preplay(h: _Hand, lineno: int, cut: bool = False) -> None:
        """Emit shuffle, deals, calls and pushes of hand ``h`` into the current game.
        ``cut``: the log ends inside this hand's card blocks; deal what is there."""
        nonlocal counts, hand_start
        assert game is not None
        ev = game.events
        hand_start = len(ev)
        if len(h.first8) != 4 and not cut:
            raise BSWFormatError("a hand needs the 8 cards of all four seats", h.lineno)
        # the card blocks name each seat; the exchange's handles prevail over a block that lists
        # the same four handles at other seats (then the game's players are the exchange's)
        seat_names = _exchange_handles(h)
        wrong8 = _mislabelled(h.first8, seat_names)
        wrong14 = _mislabelled(h.all14, seat_names)
        if wrong8 and not ev:
            game.players[:] = game.current[:] = seat_names
        shuffler = 0 if hand_no == 0 or game.first_out is None else game.first_out
        ev.append({"type": "shuffle", "seat": shuffler})
        order = [(shuffler + k) % 4 for k in range(4)]
        for s in order:
            if s not in h.first8:
                continue  # cut log
            name, cards = h.first8[s]
            game.see(s, seat_names[s] if wrong8 else name, hand_no, len(ev))
            ev.append({"type": "deal", "seat": s, "cards": cards})
        for s, name in h.grand:
            game.note(s, name, hand_no, len(ev))
            if {"type": "grand_tichu", "seat": s} not in ev[hand_start:]:  # a line logged twice is one call
                ev.append({"type": "grand_tichu", "seat": s})
        if h.all14:
            if len(h.all14) != 4 and not cut:
                raise BSWFormatError("a hand needs the 14 cards of all four seats", h.lineno)
            custom: dict[str, list[str]] = {}
            for s in order:
                if s not in h.all14:
                    continue  # cut log
                name, cards14 = h.all14[s]
                first8 = h.first8[s][1]
                first = set(first8)
                six = [c for c in cards14 if c not in first]
                if len(six) != 6 or len(first) != 8 or len(set(cards14)) != 14:
                    raise BSWFormatError(f"seat {s}: the 14 cards are not its first 8 and 6 more", h.lineno)
                game.see(s, seat_names[s] if wrong14 else name, hand_no, len(ev))
                ev.append({"type": "deal", "seat": s, "cards": six})
                if _bsw_sorted(h.first8[s][1] + six) != cards14:
                    custom[str(s)] = cards14
            if custom:
                game.startkarten[str(hand_no)] = custom
        for s, name in h.early_tichu:
            game.note(s, name, hand_no, len(ev))
            if {"type": "tichu", "seat": s} not in ev[hand_start:]:  # a line logged twice is one call
                ev.append({"type": "tichu", "seat": s})
        for s, name, targets, recipient_names in h.pushes:
            game.see(s, name, hand_no, len(ev))
            for k, rname in enumerate(recipient_names):
                game.see((s + k + 1) % 4, rname, hand_no, len(ev))
            ev.append({"type": "push", "seat": s, "cards": targets})
        if h.bombs is not None:
            for s, name in h.bombs:
                game.note(s, name, hand_no, len(ev))
        counts = [14, 14, 14, 14]

    def end_hand(result: list[int] | None, cut: bool = False) -> None:
        nonlocal hand, in_play
        assert game is not None and hand is not None
        if hand.section != "play":
            finish_preplay(hand, hand.lineno, cut)
        game.results.append(result)
        game.first_out = out[0] if out else None
        hand = None
        in_play = False

    for idx, line in enumerate(lines):
        # --- play section, fast path: plays and passes are most lines. The whole pass line, or
        # the part of a play line before ": ", is looked up among the seats' current handles.
        if in_play:
            seat_line = line[:1] == "(" and line[2:3] == ")" and line[1:2] in _SEATS
            s = pass_of.get(line)
            if s is None and seat_line and line.endswith(" passt."):  # a pass under another handle
                s = ord(line[1]) - 48
                game.see(s, line[3:-7], hand_no, len(ev))
                pass_of, play_of = _line_index(cur)
            elif s is not None and game.pending:
                game.pending.pop(s, None)  # the seat's own handle again: a call's other name was noise
            if s is not None:
                if s == top:  # the trick owner collects: derived, not an event
                    last_trick_owner, top = top, None
                else:
                    ev.append({"type": "pass", "seat": s})
                continue
            head, _, rest = line.partition(": ")
            s = play_of.get(head)
            if s is None and seat_line and head != line:  # a play under another handle
                s = ord(line[1]) - 48
                game.see(s, head[3:], hand_no, len(ev))
                pass_of, play_of = _line_index(cur)
            elif s is not None and game.pending:
                game.pending.pop(s, None)
            if s is not None:
                tokens = rest.split()
                if not tokens:
                    raise BSWFormatError(f"unexpected line in the play: {line!r}", idx + 1)
                try:
                    cards = [_BSW_CARD[t] for t in tokens]
                except KeyError:
                    cards = _cards(tokens, idx + 1)  # raises with the bad code
                event: dict[str, Any] = {"type": "play", "seat": s, "cards": cards}
                n = len(cards)
                if n > 1 and "Phoenix" in cards:
                    try:
                        event["phoenix"] = phoenix_reading(cards)
                    except BSWFormatError as exc:
                        raise BSWFormatError(exc.message, idx + 1) from None
                ev.append(event)
                last_mahjong = event if "Mahjong" in cards else None
                counts[s] -= n
                if counts[s] == 0:
                    out.append(s)
                if n == 1 and cards[0] == "Dog":
                    top = None
                else:
                    top = s
                    dragon_seat = s if n == 1 and cards[0] == "Dragon" else None
                continue
        lineno = idx + 1
        if line == GT_HEADER:
            in_play = False
            if hand is not None:  # a hand without Ergebnis, followed by another: truncated
                end_hand(None)
            if game is None or game.over:
                game = None  # created from the first block line (needs the names)
                hand_no = -1
            hand = _Hand(lineno)
            hand_no += 1
            out = []
            top = dragon_seat = last_mahjong = last_trick_owner = None
            continue
        if hand is None:
            if line.strip() == "":
                continue
            if line == "--END GAME--":  # separator of concatenated logs: the next hand starts a game
                game = None
                continue
            raise BSWFormatError(f"unexpected line outside a hand: {line!r}", lineno)

        sec = hand.section
        if sec == "gt":
            if line == START_HEADER:
                hand.section = "start"
                continue
            s, name, cards = _block_line(line, 8, lineno)
            if game is None:
                if len(hand.first8) != s:
                    raise BSWFormatError("the first block must list seats 0..3 in order", lineno)
            hand.first8[s] = (name, cards)
            if game is None and len(hand.first8) == 4:
                game = _Game([hand.first8[k][0] for k in range(4)])
                games.append(game)
            continue
        if game is None:
            raise BSWFormatError("the Gr.Tichukarten block must list four seats", lineno)
        if sec == "start":
            if line[:1] == "(" and len(hand.all14) < 4:
                s, name, cards = _block_line(line, 14, lineno)
                hand.all14[s] = (name, cards)
                continue
            hand.section = sec = "calls"
        if sec == "calls":
            m = _CALL.match(line)
            if m:
                kind, s, name = m.group(1), int(m.group(2)), m.group(3)
                (hand.grand if kind == "Grosses Tichu" else hand.early_tichu).append((s, name))
                continue
            if line == "Schupfen:":
                hand.section = "push"
                continue
            raise BSWFormatError(f"unexpected line before Schupfen: {line!r}", lineno)
        if sec == "push":
            m = _PUSH.match(line)
            if m:
                s, name, rest = int(m.group(1)), m.group(2), m.group(3)
                parts = rest.split(" - ")
                if parts[-1] != "":
                    raise BSWFormatError("a push line ends with ' - '", lineno)
                parts = parts[:-1]
                if len(parts) != 3:
                    raise BSWFormatError("a push line gives three cards", lineno)
                targets: dict[str, str] = {}
                rnames = []
                for k, part in enumerate(parts):
                    rname, _, code = part.rpartition(": ")
                    targets[str((s + k + 1) % 4)] = _cards([code], lineno)[0]
                    rnames.append(rname)
                hand.pushes.append((s, name, targets, rnames))
                continue
            m = _BOMB.match(line)
            if m:
                hand.bombs = [(int(a), b) for a, b in _BOMB_ITEM.findall(m.group(1))]
                continue
            if line == PLAY_HEADER:
                finish_preplay(hand, lineno)
                hand.section = "play"
                in_play = True
                ev, cur = game.events, game.current
                pass_of, play_of = _line_index(cur)
                continue
            raise BSWFormatError(f"unexpected line in the exchange: {line!r}", lineno)
        # --- play section: the other lines
        ev = game.events
        m = _WISH.match(line)
        if m:
            if last_mahjong is None:
                raise BSWFormatError("Wunsch without a Mahjong play before it", lineno)
            last_mahjong["wish"] = _wish_from_bsw(m.group(1), lineno)
            last_mahjong = None
            continue
        m = _CALL.match(line)
        if m:
            if m.group(1) != "Tichu":
                raise BSWFormatError("Grosses Tichu during play", lineno)
            s = int(m.group(2))
            game.note(s, m.group(3), hand_no, len(ev))
            if {"type": "tichu", "seat": s} in ev[hand_start:]:
                continue  # BSW logged the same call twice (one call; the engine refuses a second)
            ev.append({"type": "tichu", "seat": s})
            continue
        m = _GIFT.match(line)
        if m:
            to = int(m.group(1))
            giver = dragon_seat if dragon_seat is not None else last_trick_owner
            if giver is None:
                raise BSWFormatError("Drache an without a Dragon trick", lineno)
            game.note(to, m.group(2), hand_no, len(ev))
            ev.append({"type": "dragon_gift", "seat": giver, "to": to})
            dragon_seat = None
            top = None
            continue
        m = _RESULT.match(line)
        if m:
            result = [int(m.group(1)), int(m.group(2))]
            game.totals[0] += result[0]
            game.totals[1] += result[1]
            end_hand(result)
            continue
        raise BSWFormatError(f"unexpected line in the play: {line!r}", lineno)

    if hand is not None:
        if game is None:
            raise BSWFormatError("the log ends before the four seats of its first hand", hand.lineno)
        end_hand(None, cut=True)  # a truncated log: the last hand as far as it goes

    records = [_record(g, k, game_id, len(games)) for k, g in enumerate(games)]
    if bsw_scoring:
        for rec in records:
            rec["options"]["bsw_grand_tichu_quirk"] = True
    return _anonymised(records) if anonymise else records


def _record(g: _Game, index: int, game_id: Any, n_games: int) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "source": "bsw",
        "game_id": None if game_id is None else str(game_id),
        "bsw_results": g.results,
        "shuffle_inferred": True,
    }
    if n_games > 1:
        meta["game_index"] = index
    if g.substitutions:
        meta["substitutions"] = g.substitutions
    if g.startkarten:
        meta["bsw_startkarten"] = g.startkarten
    return {
        "format": "tichu-record/1",
        "variant": "nanking",
        "options": dict(OPTIONS),
        "players": g.players,
        "events": g.events,
        "meta": meta,
    }


def _anonymised(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    alias: dict[str, str] = {}

    def a(name: str) -> str:
        if name not in alias:
            alias[name] = f"Player {len(alias) + 1}"
        return alias[name]

    for rec in records:
        rec["players"] = [a(n) for n in rec["players"]]
        for sub in rec["meta"].get("substitutions", []):
            sub["name"] = a(sub["name"])
    return records


# ---------------------------------------------------------------- export

def _resolve_undos(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    for e in events:
        if e.get("type") == "undo":
            if kept:
                kept.pop()
        else:
            kept.append(e)
    return kept


def _is_bomb(cards: list[str]) -> bool:
    if "Phoenix" in cards or any(c in _SPECIAL_NUM for c in cards):
        return False
    ranks = sorted(_RANK_NUM[c[0]] for c in cards)
    if len(cards) == 4 and len(set(ranks)) == 1:
        return True
    return (len(cards) >= 5 and len({c[1] for c in cards}) == 1
            and ranks == list(range(ranks[0], ranks[0] + len(cards))))


def _holds_bomb(hand: Iterable[str]) -> bool:
    normal = [c for c in hand if c not in _SPECIAL_NUM]
    by_rank = Counter(c[0] for c in normal)
    if any(n >= 4 for n in by_rank.values()):
        return True
    for suit in "jspr":
        ranks = sorted({_RANK_NUM[c[0]] for c in normal if c[1] == suit})
        run = 1
        for a, b in zip(ranks, ranks[1:]):
            run = run + 1 if b == a + 1 else 1
            if run >= 5:
                return True
    return False


def export_bsw(record: dict[str, Any]) -> str:
    """Write a card-by-card ``nanking`` record as a BSW ``.tch`` log.

    Derived lines are rebuilt: the trick owner's collecting ``passt.``, the ``BOMBE:`` line (seats
    holding a bomb after the exchange) and the ``Startkarten`` block (each seat's 14 cards before
    the exchange, in BSW order; ``meta.bsw_startkarten`` keeps BSW's order where it is not the
    canonical one). ``Ergebnis`` comes from ``meta.bsw_results`` when present, else from the
    engine's score when the engine is importable. ``hand_result`` hands cannot be written (BSW has
    no such line): they raise ``ValueError``.
    """
    events = _resolve_undos(list(record.get("events", [])))
    players = list(record.get("players", []))
    if len(players) != 4:
        raise ValueError("BSW logs hold four-player games only")
    meta = record.get("meta") or {}
    subs = sorted(meta.get("substitutions", []), key=lambda d: d["event"])
    results = meta.get("bsw_results")
    startkarten = meta.get("bsw_startkarten", {})
    if results is None:
        results = _engine_results(record)

    def name(seat: int, at: int) -> str:
        n = players[seat]
        for sub in subs:
            if sub["event"] <= at and sub["seat"] == seat:
                n = sub["name"]
        return n

    def cards_text(cards: Iterable[str]) -> str:
        return "".join(card_to_bsw(c) + " " for c in cards)

    # split into hands at each shuffle
    starts = [i for i, e in enumerate(events) if e.get("type") == "shuffle"]
    if any(e.get("type") == "hand_result" for e in events):
        raise ValueError("a hand_result hand has no card-by-card BSW form")
    out_lines: list[str] = []
    for h, start in enumerate(starts):
        end = starts[h + 1] if h + 1 < len(starts) else len(events)
        out_lines.extend(_export_hand(events, start, end, h, name, cards_text,
                                      startkarten.get(str(h), {}),
                                      results[h] if results and h < len(results) else None))
    return "".join(line + "\n" for line in out_lines)


def _export_hand(events, start, end, h, name, cards_text, custom14, result) -> list[str]:
    L: list[str] = [GT_HEADER]
    received: dict[int, list[tuple[int, str]]] = {s: [] for s in range(4)}  # (index, card)
    idx_deal: dict[int, list[int]] = {s: [] for s in range(4)}
    for i in range(start, end):
        e = events[i]
        t = e.get("type")
        if t == "deal":
            for c in e["cards"]:
                received[e["seat"]].append((i, c))
            idx_deal[e["seat"]].append(i)
        elif t == "draw":
            received[e["seat"]].append((i, e["card"]))
            idx_deal[e["seat"]].append(i)
    for s in range(4):
        if len(received[s]) >= 8:  # (fewer only in a log cut inside this block)
            first8 = [c for _, c in received[s][:8]]
            L.append(f"({s}){name(s, received[s][7][0])} " + cards_text(_bsw_sorted(first8)))
    hands14: dict[int, list[str]] = {}
    if any(len(received[s]) > 8 for s in range(4)):
        L.append(START_HEADER)
        for s in range(4):
            if len(received[s]) == 14:
                cards14 = [c for _, c in received[s]]
                shown = custom14.get(str(s)) or _bsw_sorted(cards14)
                hands14[s] = cards14
                L.append(f"({s}){name(s, received[s][-1][0])} " + cards_text(shown))

    play_events = [i for i in range(start, end) if events[i]["type"] not in ("shuffle", "deal", "draw")]
    # calls and pushes before the play
    pushes = [i for i in play_events if events[i]["type"] == "push"]
    first_play = next((i for i in play_events if events[i]["type"] in ("play", "pass")), None)
    pre = [i for i in play_events if first_play is None or i < first_play]
    for i in pre:
        if events[i]["type"] == "grand_tichu":
            s = events[i]["seat"]
            L.append(f"Grosses Tichu: ({s}){name(s, i)}")
    for i in pre:
        if events[i]["type"] == "tichu" and (not pushes or i < pushes[0]):
            s = events[i]["seat"]
            L.append(f"Tichu: ({s}){name(s, i)}")
    if pushes:
        L.append("Schupfen:")
        for i in pushes:
            e = events[i]
            s = e["seat"]
            parts = []
            for k in range(1, 4):
                t = (s + k) % 4
                card = e["cards"][str(t)]
                if isinstance(card, list):
                    card = card[0]
                parts.append(f"{name(t, i)}: {card_to_bsw(card)} - ")
            L.append(f"({s}){name(s, i)} gibt: " + "".join(parts))
    counts = [14, 14, 14, 14]
    if len(pushes) == 4 and len(hands14) == 4:
        after = {s: list(hands14[s]) for s in range(4)}
        for i in pushes:
            e = events[i]
            for t, card in e["cards"].items():
                after[e["seat"]].remove(card)
                after[int(t)].append(card)
        bombers = [s for s in range(4) if _holds_bomb(after[s])]
        if bombers:
            at = first_play if first_play is not None else end
            L.append("BOMBE: " + "".join(f"({s}){name(s, at)} " for s in bombers))
    if first_play is None:
        if result is not None:
            L.append(f"Ergebnis: {result[0]} - {result[1]}")
        return L
    L.append(PLAY_HEADER)
    for i in pre:  # a Tichu called after the pushes but before the first play
        if events[i]["type"] == "tichu" and pushes and i > pushes[0]:
            s = events[i]["seat"]
            L.append(f"Tichu: ({s}){name(s, i)}")

    out: list[int] = []
    top: int | None = None
    passed: set[int] = set()
    pending: int | None = None  # trick owner whose collecting pass is due
    hand_over = False

    def flush(at: int) -> None:
        nonlocal pending, top
        if pending is not None:
            L.append(f"({pending}){name(pending, at)} passt.")
            pending = None
            top = None

    for i in range(first_play, end):
        e = events[i]
        t = e["type"]
        s = e.get("seat")
        if t == "play":
            if pending is not None and (s == pending or not _is_bomb(e["cards"])):
                flush(i)
            elif pending is not None:
                pending = None  # a bomb on the lying trick: the trick goes on
            ph = e.get("phoenix")
            if ph is None and len(e["cards"]) > 1 and "Phoenix" in e["cards"]:
                ph = default_phoenix(e["cards"])
            shown = _bsw_sorted(e["cards"], ph)
            if ph is not None and len(shown) == 5 and sorted(Counter(c[0] for c in shown if c != "Phoenix").values()) == [2, 2]:
                shown.remove("Phoenix")  # full house of two pairs: the Phoenix stands before its pair
                shown.insert(next(k for k, c in enumerate(shown) if c[0] == ph), "Phoenix")
            L.append(f"({s}){name(s, i)}: " + cards_text(shown))
            if "wish" in e and e["wish"] is not None:
                L.append("Wunsch:" + RANK_TO_BSW[e["wish"]])
            counts[s] -= len(e["cards"])
            if counts[s] == 0 and s not in out:
                out.append(s)
            active = [k for k in range(4) if counts[k] > 0]
            if len(active) <= 1 or (len(out) == 2 and (out[0] - out[1]) % 2 == 0):
                hand_over = True
            if e["cards"] == ["Dog"]:
                top = None
            else:
                top = s
            passed = set()
        elif t == "pass":
            flush(i)
            L.append(f"({s}){name(s, i)} passt.")
            passed.add(s)
            if top is not None:
                others = [k for k in range(4) if counts[k] > 0 and k != top]
                if all(k in passed for k in others):
                    if counts[top] > 0:
                        pending = top
                    else:
                        top = None
        elif t == "tichu":
            flush(i)
            L.append(f"Tichu: ({s}){name(s, i)}")
        elif t == "grand_tichu":
            L.append(f"Grosses Tichu: ({s}){name(s, i)}")
        elif t == "dragon_gift":
            flush(i)
            to = e["to"]
            L.append(f"Drache an: ({to}){name(to, i)}")
            top = None
        elif t == "penalty":
            hand_over = True
    if result is not None:
        flush(end)
        L.append(f"Ergebnis: {result[0]} - {result[1]}")
    elif not hand_over:
        flush(end)
    return L


def _engine_results(record: dict[str, Any]) -> list[list[int]] | None:
    """Per-hand points from the engine, when it is there (lazy import: this module stays usable alone)."""
    try:
        from games.engine import fold, score_json  # noqa: PLC0415
    except Exception:  # pragma: no cover - engine missing
        return None
    try:
        return [list(h["points"]) for h in score_json(fold(record))["hands"]]
    except Exception:
        return None


# ---------------------------------------------------------------- command line

def main_from_bsw(argv: list[str] | None = None) -> int:
    """``from-bsw LOG.tch [--anonymise]``: print the records as a JSON list. ``-`` reads stdin.

    Exit status 0, or 2 with ``{"ok": false, "error": {"code": "malformed", ...}}`` (the engine
    command line's error shape) when the log
    cannot be read.
    """
    import argparse
    import os

    parser = argparse.ArgumentParser(prog="python -m games.engine from-bsw",
                                     description="Convert a Brettspielwelt .tch log to tichu-record/1 records")
    parser.add_argument("log", help="the .tch file, or - for standard input")
    parser.add_argument("--anonymise", "--anonymize", action="store_true",
                        help="replace handles by Player 1, Player 2, ...")
    parser.add_argument("--bsw-scoring", action="store_true",
                        help="set the engine option bsw_grand_tichu_quirk so scores equal BSW's Ergebnis")
    parser.add_argument("--game-id", default=None, help="BSW game id (default: the file name when it is a number)")
    args = parser.parse_args(argv)
    try:
        if args.log == "-":
            data = sys.stdin.buffer.read()
            game_id = args.game_id
        else:
            with open(args.log, "rb") as fh:
                data = fh.read()
            stem = os.path.splitext(os.path.basename(args.log))[0]
            game_id = args.game_id if args.game_id is not None else (stem if stem.isdigit() else None)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        records = parse_bsw(text, anonymise=args.anonymise, game_id=game_id, bsw_scoring=args.bsw_scoring)
    except (OSError, BSWFormatError) as exc:
        sys.stdout.write(json.dumps({"ok": False, "error": {"code": "malformed", "message": str(exc)}}) + "\n")
        return 2
    sys.stdout.write(json.dumps(records, ensure_ascii=False) + "\n")
    return 0
