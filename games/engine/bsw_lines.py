"""The lines of a Brettspielwelt ``.tch`` log, as the reader (:mod:`.bsw_reader`) tells them
apart: the patterns of a push, a call, a gift, a result, a wish and a bomb; a seat's block line;
a play line's cards, each read once (:data:`_PLAYS`); the handle of a seat the log never names.
"""

from __future__ import annotations

import re

from .bsw_codes import BSWFormatError, bsw_cards, phoenix_reading

_SEATS = frozenset("0123")
_PUSH = re.compile(r"^\(([0-3])\)(.*?) gibt: (.*)$")
_CALL = re.compile(r"^(Grosses Tichu|Tichu): \(([0-3])\)(.*)$")
_GIFT = re.compile(r"^Drache an: \(([0-3])\)(.*)$")
_RESULT = re.compile(r"^Ergebnis: (-?\d+) - (-?\d+)$")
_WISH = re.compile(r"^Wunsch:(\S+)$")
_BOMB = re.compile(r"^BOMBE: ((?:\([0-3]\)\S* ?)+)$")
_BOMB_ITEM = re.compile(r"\(([0-3])\)(\S*)")
#: the seats in turn from each shuffler on
_ORDER = [tuple((s + k) % 4 for k in range(4)) for s in range(4)]
#: a push line's three recipients, by the pusher's seat (the event's keys)
_PUSH_KEYS = [tuple(str((s + k) % 4) for k in (1, 2, 3)) for s in range(4)]


#: the cards part of a play line -> (cards, count, Phoenix reading, has the Mahjong, the lone card or
#: None): the same plays recur in every log, so each is read (codes, Phoenix reading) once
_PLAYS: dict[str, tuple[list[str], int, str | None, bool, str | None]] = {}
_PLAYS_MAX = 1 << 16


def _read_play_cards(rest: str, line: str, lineno: int) -> tuple[list[str], int, str | None, bool, str | None]:
    """The cards part of a play line, read (:data:`_PLAYS`); a line that cannot be read raises and
    is not kept."""
    tokens = rest.split()
    if not tokens:
        raise BSWFormatError(f"unexpected line in the play: {line!r}", lineno, rule="play_line", text=repr(line))
    cards = bsw_cards(tokens, lineno)
    n = len(cards)
    phoenix = phoenix_reading(cards, lineno) if n > 1 and "Phoenix" in cards else None
    play = (cards, n, phoenix, "Mahjong" in cards, cards[0] if n == 1 else None)
    if len(_PLAYS) >= _PLAYS_MAX:
        _PLAYS.clear()
    _PLAYS[rest] = play
    return play


def placeholder(seat: int) -> str:
    """The stable handle of a seat the log never names (the same in every game and every run)."""
    return f"BSW seat {seat}"


def _seat_line(line: str) -> bool:
    return line[:1] == "(" and line[2:3] == ")" and line[1:2] in _SEATS


def _block_line(line: str, n: int, lineno: int) -> tuple[int, str, list[str]]:
    """``(seat)handle c1 .. cn `` -> (seat, handle, cards). The handle may be empty (``(1) BA ..``)."""
    parts = line.rstrip(" ").rsplit(" ", n)
    # _seat_line written out: eight block lines a hand
    if len(parts) != n + 1 or line[:1] != "(" or line[2:3] != ")" or line[1:2] not in _SEATS:
        raise BSWFormatError(f"expected '(seat)handle' and {n} cards", lineno, rule="block_line", count=n)
    return ord(line[1]) - 48, parts[0][3:], bsw_cards(parts[1:], lineno)
