"""Reading Brettspielwelt ``.tch`` logs: a line tokenizer and a hand reader with explicit state.

:class:`LogReader` walks the lines of a log (one or several games back to back). Each hand is read
by a :class:`HandReader`, which holds everything a hand needs (its card blocks, calls, pushes and
the trick being played) and writes the hand's events into its :class:`GameBuilder` when it can.
The card codes and the Phoenix's reading are :mod:`.bsw`'s; which cards form which combination is
the engine's (:mod:`.combos`). The rules themselves are checked by the engine, not here: the reader
only checks the *shape* of the log and raises :class:`~.bsw.BSWFormatError` with the line.

Lax reading (``lax=True``, what the importers use): a line the reader does not understand costs
the hand it is in, never the game. The hand's events are taken back, the rest of the hand is
skipped up to the next hand, and the hand is kept as its score-sheet line (a ``hand_result`` built
from the log's calls and ``Ergebnis``) when the score allows it, else left out. Every such hand,
and every hand the reader repaired (a seat printed without its handle), is named in
:attr:`GameBuilder.notes` with its line and the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import filterfalse, islice
from typing import Any

from . import bsw_scoresheet
from .bsw_codes import (
    GT_HEADER,
    PLAY_HEADER,
    RANK_FROM_BSW,
    START_HEADER,
    TARGET_SCORE,
    BSWFormatError,
    bsw_cards,
    bsw_sorted,
    phoenix_reading,
    wish_from_bsw,
)

__all__ = ["GameBuilder", "HandReader", "LogReader", "placeholder"]

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


# ---------------------------------------------------------------- one game's record


class GameBuilder:
    """One game's events and what the record keeps beside them, while the log is read."""

    def __init__(self, names: list[str]) -> None:
        self.players = list(names)
        self.current = list(names)  # the handle each seat has right now
        self.events: list[dict[str, Any]] = []
        self.event_lines: list[int] = []  # the log line of each event
        self.results: list[list[int] | None] = []
        self.substitutions: list[dict[str, Any]] = []
        self.startkarten: dict[str, dict[str, list[str]]] = {}
        self.totals = [0, 0]
        self.first_out: int | None = None  # first out of the latest hand
        # seat -> (handle, hand, event index) of a line without cards that named another handle
        self.pending: dict[int, tuple[str, int, int]] = {}
        self.notes: list[dict[str, Any]] = []
        self.hands = 0  # hand headers read

    def add(self, event: dict[str, Any], lineno: int) -> None:
        self.events.append(event)
        self.event_lines.append(lineno)

    def see(self, seat: int, name: str, hand: int) -> None:
        """A line with cards (a block, push, play or pass line) names ``seat`` as ``name``: a
        changed handle is a substitution from here on, or from the line without cards that named
        it first (``note``)."""
        pending = self.pending.pop(seat, None)
        if self.current[seat] != name:
            event_index = len(self.events)
            if pending is not None and pending[0] == name:
                hand, event_index = pending[1], pending[2]
            self.current[seat] = name
            self.substitutions.append({"hand": hand, "seat": seat, "name": name, "event": event_index})

    def note(self, seat: int, name: str, hand: int) -> None:
        """A line without cards (a call, ``Drache an:``, ``BOMBE:``) names ``seat`` as ``name``.
        Another handle there is only a substitution once the seat's next line with cards shows it
        too (BSW sometimes prints a handle that never plays on such a line). No handle: nothing."""
        if not name:
            return  # ``Drache an: (1)``: the seat alone
        if name == self.current[seat]:
            self.pending.pop(seat, None)
        elif seat not in self.pending or self.pending[seat][0] != name:
            self.pending[seat] = (name, hand, len(self.events))

    def mark(self) -> tuple:
        """What a hand may change, to take it back (:meth:`rollback`)."""
        return (
            len(self.events),
            len(self.substitutions),
            list(self.current),
            dict(self.pending),
            dict(self.startkarten),
            self.first_out,
        )

    def rollback(self, mark: tuple) -> None:
        n, subs, current, pending, startkarten, first_out = mark
        del self.events[n:], self.event_lines[n:], self.substitutions[subs:]
        self.current[:] = current
        self.pending = pending
        self.startkarten = startkarten
        self.first_out = first_out

    @property
    def over(self) -> bool:
        a, b = self.totals
        return max(a, b) >= TARGET_SCORE and a != b


# ---------------------------------------------------------------- one hand


@dataclass
class HandReader:
    """The state of one hand while its lines are read.

    Before ``Rundenverlauf`` the lines are only collected (BSW prints the Grand Tichu calls after
    the 14-card block, so the deal's events can be written only once the exchange is read); from
    there on each line becomes events at once, with the trick followed just enough to tell the
    trick owner's collecting ``passt.`` from a pass and to know who gives the Dragon trick."""

    number: int  # 0-based hand number within the game
    lineno: int  # line of the hand's header
    section: str = "gt"  # gt, start, calls, push, play
    first8: dict[int, tuple[str, list[str], int]] = field(default_factory=dict)  # seat -> (handle, cards, line)
    all14: dict[int, tuple[str, list[str], int]] = field(default_factory=dict)
    grand: list[tuple[int, str, int]] = field(default_factory=list)
    early_tichu: list[tuple[int, str, int]] = field(default_factory=list)
    pushes: list[tuple[int, str, dict[str, str], list[str], int]] = field(default_factory=list)
    bombs: list[tuple[int, str]] | None = None
    # the play
    counts: list[int] = field(default_factory=lambda: [14, 14, 14, 14])
    out: list[int] = field(default_factory=list)
    top: int | None = None  # seat whose combination lies on the table
    dragon_seat: int | None = None  # seat whose lone Dragon lies on the table
    last_trick_owner: int | None = None
    last_mahjong: dict[str, Any] | None = None  # the Mahjong play a Wunsch line belongs to
    start: int = 0  # index of the hand's shuffle among the game's events
    pass_of: dict[str, int] = field(default_factory=dict)  # whole pass line of a current handle -> seat
    play_of: dict[str, int] = field(default_factory=dict)  # '(s)handle' -> seat
    called: set[tuple[str, int]] = field(default_factory=set)  # (kind, seat) of the calls written

    # --- before the play ------------------------------------------------------------------------

    def handles(self, game: GameBuilder | None, exchange: list[str] | None) -> list[str]:
        """Each seat's handle for this hand. A block may print a seat without its handle: the seat
        then takes it from its other lines (the other block, the exchange, the previous hands), or
        :func:`placeholder`. The exchange's handles prevail when a block lists the same four handles
        at other seats (misprinted labels, seen in the first hand of some 2007 games). ``exchange``:
        :meth:`exchange_handles`, which the caller has already."""
        names = [""] * 4
        for block in (self.all14, self.first8):
            for s, (name, _cards, _line) in block.items():
                names[s] = names[s] or name
        for s in range(4):
            if not names[s]:
                names[s] = (
                    exchange[s] if exchange and exchange[s] else game.current[s] if game is not None else placeholder(s)
                )
        return names

    def exchange_handles(self) -> list[str] | None:
        """The four seats' handles as the first push line names them (the pusher and its three
        recipients, in seat order), or None before the exchange."""
        if not self.pushes:
            return None
        s, name, _targets, recipients, _line = self.pushes[0]
        names = [""] * 4
        names[s] = name
        for k, rname in enumerate(recipients):
            names[(s + k + 1) % 4] = rname
        return names

    def mislabelled(self, block: dict[int, tuple[str, list[str], int]], names: list[str] | None) -> bool:
        """``names``: :meth:`exchange_handles`."""
        if names is None or len(block) != 4 or len(set(names)) != 4:
            return False
        shown = [block[0][0], block[1][0], block[2][0], block[3][0]]  # no comprehension: hand by hand
        return shown != names and sorted(shown) == sorted(names)

    def read_preplay(self, line: str, lineno: int) -> None:
        """One line between the header and ``Rundenverlauf``."""
        sec = self.section
        if sec == "gt":
            if line == START_HEADER:
                if len(self.first8) != 4:
                    raise BSWFormatError("the Gr.Tichukarten block must list four seats", lineno, rule="four_seats")
                self.section = "start"
                return
            s, name, cards = _block_line(line, 8, lineno)
            self.first8[s] = (name, cards, lineno)
            return
        if len(self.first8) != 4:
            raise BSWFormatError("the Gr.Tichukarten block must list four seats", lineno, rule="four_seats")
        if sec == "start":
            if line[:1] == "(" and len(self.all14) < 4:
                s, name, cards = _block_line(line, 14, lineno)
                self.all14[s] = (name, cards, lineno)
                return
            self.section = sec = "calls"
        if sec == "calls":
            m = _CALL.match(line)
            if m:
                kind, s, name = m.group(1), int(m.group(2)), m.group(3)
                (self.grand if kind == "Grosses Tichu" else self.early_tichu).append((s, name, lineno))
                return
            if line == "Schupfen:":
                self.section = "push"
                return
            raise BSWFormatError(
                f"unexpected line before Schupfen: {line!r}", lineno, rule="calls_line", text=repr(line)
            )
        m = _PUSH.match(line)
        if m:
            seat, name, rest = m.groups()
            s = ord(seat) - 48
            parts = rest.split(" - ")
            if parts[-1] != "":
                raise BSWFormatError("a push line ends with ' - '", lineno, rule="push_end")
            if len(parts) != 4:
                raise BSWFormatError("a push line gives three cards", lineno, rule="push_three")
            # three 'recipient: card' parts, unrolled (a comprehension per line costs more)
            r1, _, c1 = parts[0].rpartition(": ")
            r2, _, c2 = parts[1].rpartition(": ")
            r3, _, c3 = parts[2].rpartition(": ")
            targets = dict(zip(_PUSH_KEYS[s], bsw_cards([c1, c2, c3], lineno)))
            self.pushes.append((s, name, targets, [r1, r2, r3], lineno))
            return
        m = _BOMB.match(line)
        if m:
            self.bombs = [(int(a), b) for a, b in _BOMB_ITEM.findall(m.group(1))]
            return
        raise BSWFormatError(
            f"unexpected line in the exchange: {line!r}", lineno, rule="exchange_line", text=repr(line)
        )

    def write_preplay(self, game: GameBuilder, cut: bool = False) -> None:
        """Write shuffle, deals, calls and pushes. ``cut``: the log ends inside this hand's card
        blocks; deal what is there."""
        if len(self.first8) != 4 and not cut:
            raise BSWFormatError("a hand needs the 8 cards of all four seats", self.lineno, rule="eight_cards")
        exchange = self.exchange_handles()
        names = self.handles(game, exchange)
        for s, (name, _cards, line) in self.first8.items():
            if not name:
                game.notes.append(
                    _note(
                        self,
                        line,
                        "repaired",
                        f"seat {s} is printed without its handle: taken as {names[s]!r}",
                        "repaired:handle",
                        {"seat": s, "name": repr(names[s])},
                    )
                )
        wrong8, wrong14 = self.mislabelled(self.first8, exchange), self.mislabelled(self.all14, exchange)
        ev = game.events
        if wrong8 and not ev and exchange is not None:
            game.players[:] = game.current[:] = exchange
        self.start = len(ev)
        shuffler = 0 if self.number == 0 or game.first_out is None else game.first_out
        # the event lists by local names, appended by list.append itself (3.11 specializes
        # `x.append(e)` on a list; a bound method in a local name is a slower generic call)
        event_lines = game.event_lines
        ev.append({"type": "shuffle", "seat": shuffler})
        event_lines.append(self.lineno)
        order = _ORDER[shuffler]
        current, pending = game.current, game.pending
        for s in order:
            if s in self.first8:
                name, cards, line = self.first8[s]
                name = exchange[s] if wrong8 and exchange else (name or names[s])
                if current[s] != name or pending:  # else game.see changes nothing
                    game.see(s, name, self.number)
                ev.append({"type": "deal", "seat": s, "cards": cards})
                event_lines.append(line)
        for s, name, line in self.grand:
            game.note(s, name, self.number)
            if ("grand_tichu", s) not in self.called:  # a line logged twice is one call
                self.called.add(("grand_tichu", s))
                ev.append({"type": "grand_tichu", "seat": s})
                event_lines.append(line)
        if self.all14:
            if len(self.all14) != 4 and not cut:
                raise BSWFormatError("a hand needs the 14 cards of all four seats", self.lineno, rule="fourteen_cards")
            custom: dict[str, list[str]] = {}
            for s in order:
                if s not in self.all14:
                    continue  # cut log
                name, cards14, line = self.all14[s]
                first = set(self.first8[s][1])
                six = list(filterfalse(first.__contains__, cards14))  # in C: a comprehension costs more
                if len(six) != 6 or len(first) != 8 or len(set(cards14)) != 14:
                    raise BSWFormatError(
                        f"seat {s}: the 14 cards are not its first 8 and 6 more", line, rule="six_more", seat=s
                    )
                name = exchange[s] if wrong14 and exchange else (name or names[s])
                if current[s] != name or pending:
                    game.see(s, name, self.number)
                ev.append({"type": "deal", "seat": s, "cards": six})
                event_lines.append(line)
                if bsw_sorted(self.first8[s][1] + six) != cards14:
                    custom[str(s)] = cards14
            if custom:
                game.startkarten[str(self.number)] = custom
        for s, name, line in self.early_tichu:
            game.note(s, name, self.number)
            if ("tichu", s) not in self.called:
                self.called.add(("tichu", s))
                ev.append({"type": "tichu", "seat": s})
                event_lines.append(line)
        for s, name, targets, recipients, line in self.pushes:
            # game.see changes nothing for a seat under its current handle with nothing pending:
            # the usual push line names the four current handles (one test of them all)
            if pending or current[s] != name or (current * 2)[s + 1 : s + 4] != recipients:
                game.see(s, name, self.number)
                for k, rname in enumerate(recipients):
                    r = (s + k + 1) % 4
                    if current[r] != rname or pending:
                        game.see(r, rname, self.number)
            ev.append({"type": "push", "seat": s, "cards": targets})
            event_lines.append(line)
        if self.bombs is not None:
            for s, name in self.bombs:
                game.note(s, name, self.number)
        self.index_handles(game)

    # --- the play -------------------------------------------------------------------------------

    def index_handles(self, game: GameBuilder) -> None:
        """Pass lines and play-line heads of the seats' current handles -> seat (the fast path)."""
        c = game.current  # the four seats written out: comprehensions cost more, hand by hand
        heads = (f"(0){c[0]}", f"(1){c[1]}", f"(2){c[2]}", f"(3){c[3]}")
        self.pass_of = dict(zip(map("{} passt.".format, heads), range(4)))
        self.play_of = dict(zip(heads, range(4)))

    def read_play(self, game: GameBuilder, line: str, lineno: int) -> bool:
        """A play or pass line -> events; False when the line is neither (see :meth:`read_other`).
        The whole pass line, or the part of a play line before ': ', is looked up among the seats'
        current handles first: plays and passes are most lines (this is the reader's hot path)."""
        s = self.pass_of.get(line)
        if s is None and line.endswith(" passt.") and _seat_line(line):  # a pass under another handle
            s = ord(line[1]) - 48
            game.see(s, line[3:-7], self.number)
            self.index_handles(game)
        elif s is not None and game.pending:
            game.pending.pop(s, None)  # the seat's own handle again: a call's other name was noise
        if s is not None:
            if s == self.top:  # the trick owner collects: derived, not an event
                self.last_trick_owner, self.top = self.top, None
            else:
                game.events.append({"type": "pass", "seat": s})
                game.event_lines.append(lineno)
            return True
        head, _, rest = line.partition(": ")
        s = self.play_of.get(head)
        if s is None:
            if head == line or not _seat_line(line):
                return False
            s = ord(line[1]) - 48  # a play under another handle
            game.see(s, head[3:], self.number)
            self.index_handles(game)
        elif game.pending:
            game.pending.pop(s, None)
        play = _PLAYS.get(rest)
        if play is None:
            play = _read_play_cards(rest, line, lineno)
        cards, n, phoenix, mahjong, lone = play
        if phoenix is None:
            event: dict[str, Any] = {"type": "play", "seat": s, "cards": cards[:]}
        else:
            event = {"type": "play", "seat": s, "cards": cards[:], "phoenix": phoenix}
        game.events.append(event)
        game.event_lines.append(lineno)
        self.last_mahjong = event if mahjong else None
        counts = self.counts
        counts[s] -= n
        if counts[s] == 0:
            self.out.append(s)
        if lone == "Dog":
            self.top = None
        else:
            self.top = s
            self.dragon_seat = s if lone == "Dragon" else None
        return True

    def read_other(self, game: GameBuilder, line: str, lineno: int) -> list[int] | None:
        """A line of the play that is not a play or a pass. Returns the hand's result on its
        ``Ergebnis`` line, else None."""
        # Ergebnis first: the plain play loop reads most other lines (read_plain_plays)
        m = _RESULT.match(line)
        if m:
            return [int(m.group(1)), int(m.group(2))]
        m = _WISH.match(line)
        if m:
            if self.last_mahjong is None:
                raise BSWFormatError("Wunsch without a Mahjong play before it", lineno, rule="wish_without_mahjong")
            self.last_mahjong["wish"] = wish_from_bsw(m.group(1), lineno)
            self.last_mahjong = None
            return None
        m = _CALL.match(line)
        if m:
            s = int(m.group(2))
            if m.group(1) != "Tichu":
                # BSW repeats a Grand Tichu already called at 8 cards: the same call, logged twice
                if ("grand_tichu", s) in self.called:
                    return None
                raise BSWFormatError("Grosses Tichu during play", lineno, rule="grand_tichu_in_play")
            game.note(s, m.group(3), self.number)
            if ("tichu", s) not in self.called:  # a call logged twice is one call
                self.called.add(("tichu", s))
                game.add({"type": "tichu", "seat": s}, lineno)
            return None
        m = _GIFT.match(line)
        if m:
            to = int(m.group(1))
            giver = self.dragon_seat if self.dragon_seat is not None else self.last_trick_owner
            if giver is None:
                raise BSWFormatError("Drache an without a Dragon trick", lineno, rule="gift_without_dragon")
            game.note(to, m.group(2).strip(), self.number)
            game.add({"type": "dragon_gift", "seat": giver, "to": to}, lineno)
            self.dragon_seat = None
            self.top = None
            return None
        raise BSWFormatError(f"unexpected line in the play: {line!r}", lineno, rule="play_line", text=repr(line))


def _note(hand: HandReader, line: int, action: str, reason: str, rule: str, params: dict[str, Any]) -> dict[str, Any]:
    """A hand repaired, kept as its score-sheet line or skipped: ``reason`` in English, ``rule`` and
    ``params`` for its words in any language (bsw_words.mended_words)."""
    return {"hand": hand.number + 1, "line": line, "action": action, "reason": reason, "rule": rule, "params": params}


def _cause(exc: BSWFormatError) -> dict[str, Any]:
    return {"rule": exc.rule, "params": dict(exc.params)}


# ---------------------------------------------------------------- the log


class LogReader:
    """Reads a whole log into games. ``lax``: see the module docstring."""

    def __init__(self, text: str, *, lax: bool = False) -> None:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if "\r" in text:
            lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
        self.lines = lines
        self.lax = lax
        self.games: list[GameBuilder] = []
        self.game: GameBuilder | None = None
        self.hand: HandReader | None = None
        self.hand_no = -1
        self.mark: tuple | None = None  # the game before the current hand (lax reading)
        self.skipping: dict[str, Any] | None = None  # the hand being skipped (lax reading)

    def read(self) -> list[GameBuilder]:
        lines = self.lines
        n_lines = len(lines)
        idx = 0
        while idx < n_lines:
            line = lines[idx]
            idx += 1
            lineno = idx
            hand = self.hand
            # plays and passes are most lines: they go straight to the hand
            if hand is not None and hand.section == "play" and self.skipping is None:
                try:
                    if hand.read_play(self.game, line, lineno):  # type: ignore[arg-type]
                        idx = self.read_plain_plays(hand, idx)
                        continue
                except BSWFormatError as exc:
                    self.fail(exc, lineno)
                    continue
            if line == GT_HEADER:
                self.start_hand(lineno)
                idx = self.read_preplay_lines(self.hand, idx)  # type: ignore[arg-type]
                continue
            if self.skipping is not None:
                self.skip(line)
                continue
            if hand is None:
                if line.strip() == "":
                    continue
                if line == "--END GAME--":  # separator of concatenated logs: the next hand starts a game
                    self.game = None
                    continue
                raise BSWFormatError(
                    f"unexpected line outside a hand: {line!r}", lineno, rule="outside_line", text=repr(line)
                )
            try:
                self.read_line(hand, line, lineno)
            except BSWFormatError as exc:
                self.fail(exc, lineno)
        if self.hand is not None or self.skipping is not None:
            if self.game is None and self.hand is not None:
                self.hand_needs_a_game()
            self.end_hand(None, cut=True)  # a truncated log: the last hand as far as it goes
        return self.games

    def read_preplay_lines(self, hand: HandReader, idx: int) -> int:
        """A hand's lines after its header up to ``Rundenverlauf`` (or another header), as
        :meth:`read_line` gives them to :meth:`HandReader.read_preplay`, without :meth:`read`'s and
        :meth:`read_line`'s tests per line (a sixth of the reader's time was spent there). Not for
        a game's first hand (its seats are checked line by line there). Returns the index of the
        first line left to :meth:`read`."""
        if self.game is None:
            return idx
        read_preplay = hand.read_preplay
        for lineno, line in enumerate(islice(self.lines, idx, None), idx + 1):
            if line == PLAY_HEADER or line == GT_HEADER:
                return lineno - 1
            try:
                read_preplay(line, lineno)
            except BSWFormatError as exc:
                self.fail(exc, lineno)  # as read does: raises, or the hand is skipped from here
                return lineno
        return len(self.lines)

    def read_plain_plays(self, hand: HandReader, idx: int) -> int:
        """The plain play lines from ``lines[idx]`` on, as :meth:`HandReader.read_play` reads them,
        without a call per line: a pass or play under the seat's current handle, cards read before
        (:data:`_PLAYS`), no call's other handle pending; a plain ``Wunsch``, ``Drache an`` or
        ``Tichu`` line as :meth:`HandReader.read_other` reads it. Returns the index of the first other
        line, which :meth:`read` gives to ``read_play`` (or the other paths) as before."""
        game = self.game
        assert game is not None
        if game.pending:
            return idx
        pass_of, play_of, plays = hand.pass_of, hand.play_of, _PLAYS
        counts, current = hand.counts, game.current
        # by list.append itself (specialized in 3.11: faster than a bound method in a local name)
        events, event_lines = game.events, game.event_lines
        # the trick's state in local names while the loop runs (cheaper than the hand's attributes
        # line by line), written back when it stops
        top, dragon_seat, last_mahjong, last_trick_owner = (
            hand.top,
            hand.dragon_seat,
            hand.last_mahjong,
            hand.last_trick_owner,
        )
        stop = len(self.lines)
        for lineno, line in enumerate(islice(self.lines, idx, None), idx + 1):
            s = pass_of.get(line)
            if s is not None:
                if s == top:  # the trick owner collects: derived, not an event
                    last_trick_owner, top = s, None
                else:
                    events.append({"type": "pass", "seat": s})
                    event_lines.append(lineno)
                continue
            # a pass under another handle has no ': ' (rest "", never a play read before): it stops too
            head, _, rest = line.partition(": ")
            s = play_of.get(head)
            play = plays.get(rest)
            if s is None or play is None:
                # the usual Wunsch and Drache an lines too, as read_other reads them (read's whole
                # way costs more than the line): a wish after a Mahjong play; the Dragon trick
                # given to a seat under its current handle or none (game.note would change nothing)
                if last_mahjong is not None and line[:7] == "Wunsch:":
                    wish = RANK_FROM_BSW.get(line[7:])
                    if wish is not None:
                        last_mahjong["wish"] = wish
                        last_mahjong = None
                        continue
                elif line[:12] == "Drache an: (" and line[13:14] == ")" and line[12:13] in _SEATS:
                    to = ord(line[12]) - 48
                    giver = dragon_seat if dragon_seat is not None else last_trick_owner
                    name = line[14:].strip()
                    if giver is not None and (not name or name == current[to]):
                        events.append({"type": "dragon_gift", "seat": giver, "to": to})
                        event_lines.append(lineno)
                        dragon_seat = top = None
                        continue
                elif line[:8] == "Tichu: (" and line[9:10] == ")" and line[8:9] in _SEATS:
                    s = ord(line[8]) - 48
                    name = line[10:]
                    if not name or name == current[s]:
                        if ("tichu", s) not in hand.called:  # a call logged twice is one call
                            hand.called.add(("tichu", s))
                            events.append({"type": "tichu", "seat": s})
                            event_lines.append(lineno)
                        continue
                stop = lineno - 1
                break
            cards, n, phoenix, mahjong, lone = play
            if phoenix is None:
                event: dict[str, Any] = {"type": "play", "seat": s, "cards": cards[:]}
            else:
                event = {"type": "play", "seat": s, "cards": cards[:], "phoenix": phoenix}
            events.append(event)
            event_lines.append(lineno)
            last_mahjong = event if mahjong else None
            counts[s] -= n
            if counts[s] == 0:
                hand.out.append(s)
            if lone == "Dog":
                top = None
            else:
                top = s
                dragon_seat = s if lone == "Dragon" else None
        hand.top, hand.dragon_seat, hand.last_mahjong, hand.last_trick_owner = (
            top,
            dragon_seat,
            last_mahjong,
            last_trick_owner,
        )
        return stop

    # --- hands ----------------------------------------------------------------------------------

    def start_hand(self, lineno: int) -> None:
        if self.hand is not None or self.skipping is not None:  # a hand without Ergebnis, then another
            self.end_hand(None)
        if self.game is None or self.game.over:
            self.game = None  # created once the first block names the players
            self.hand_no = -1
        self.hand_no += 1
        self.hand = HandReader(self.hand_no, lineno)
        self.mark = self.game.mark() if self.game is not None else None

    def hand_needs_a_game(self) -> None:
        """The first hand of a game names its players: the game starts with them."""
        hand = self.hand
        assert hand is not None
        if len(hand.first8) != 4 or sorted(hand.first8) != [0, 1, 2, 3]:
            if len(hand.first8) < 4:
                raise BSWFormatError(
                    "the log ends before the four seats of its first hand", hand.lineno, rule="log_ends"
                )
            raise BSWFormatError("the Gr.Tichukarten block must list four seats", hand.lineno, rule="four_seats")
        self.game = GameBuilder(hand.handles(None, hand.exchange_handles()))
        self.games.append(self.game)
        self.mark = self.game.mark()

    def read_line(self, hand: HandReader, line: str, lineno: int) -> None:
        if hand.section != "play":
            if line == PLAY_HEADER and hand.section == "push":
                if self.game is None:
                    self.hand_needs_a_game()
                hand.write_preplay(self.game)  # type: ignore[arg-type]
                hand.section = "play"
                return
            if hand.section == "gt" and self.game is None and line[:1] == "(":
                s = int(line[1]) if line[1:2] in _SEATS else -1
                if len(hand.first8) != s:
                    raise BSWFormatError("the first block must list seats 0..3 in order", lineno, rule="seat_order")
            hand.read_preplay(line, lineno)
            return
        result = hand.read_other(self.game, line, lineno)  # type: ignore[arg-type]
        if result is not None:
            self.game.totals[0] += result[0]  # type: ignore[union-attr]
            self.game.totals[1] += result[1]  # type: ignore[union-attr]
            self.end_hand(result)

    def end_hand(self, result: list[int] | None, cut: bool = False) -> None:
        game, hand = self.game, self.hand
        if self.skipping is not None:
            self.end_skipped(result)
            return
        assert game is not None and hand is not None
        if hand.section != "play":
            try:
                hand.write_preplay(game, cut)
            except BSWFormatError as exc:
                if not self.lax:
                    raise
                self.skipping = {
                    "line": exc.line or hand.lineno,
                    "reason": exc.message,
                    "cause": _cause(exc),
                    "calls": {},
                    "result": result,
                }
                self.end_skipped(result)
                return
        game.results.append(result)
        game.hands += 1
        game.first_out = hand.out[0] if hand.out else None
        self.hand = None

    # --- lax reading ------------------------------------------------------------------------------

    def fail(self, exc: BSWFormatError, lineno: int) -> None:
        """A line the reader cannot read: strict, the error; lax, the hand is given up."""
        if not self.lax or self.hand is None:
            raise exc
        hand = self.hand
        if self.game is None:  # the first hand of a game: its players are in its first block
            try:
                self.hand_needs_a_game()
            except BSWFormatError:
                raise exc from None
        calls = {str(s): "grand_tichu" for s, _n, _l in hand.grand}
        calls.update({str(s): "tichu" for s, _n, _l in hand.early_tichu if str(s) not in calls})
        for kind, s in hand.called:
            calls.setdefault(str(s), kind)
        self.skipping = {
            "line": exc.line or lineno,
            "reason": exc.message,
            "cause": _cause(exc),
            "calls": calls,
            "result": None,
        }
        if self.mark is not None and self.game is not None:
            self.game.rollback(self.mark)

    def skip(self, line: str) -> None:
        """The rest of a given-up hand: only its calls and its Ergebnis are kept."""
        assert self.skipping is not None
        m = _CALL.match(line)
        if m:
            kind = "grand_tichu" if m.group(1) == "Grosses Tichu" else "tichu"
            self.skipping["calls"].setdefault(m.group(2), kind)
            return
        m = _RESULT.match(line)
        if m and self.game is not None:
            result = [int(m.group(1)), int(m.group(2))]
            self.game.totals[0] += result[0]
            self.game.totals[1] += result[1]
            self.end_skipped(result)

    def end_skipped(self, result: list[int] | None) -> None:
        game, hand, skipped = self.game, self.hand, self.skipping
        assert game is not None and hand is not None and skipped is not None
        if self.mark is not None:
            game.rollback(self.mark)
        line = skipped["line"]
        reason = skipped["reason"]
        event = bsw_scoresheet.hand_result(skipped["calls"], result) if result is not None else None
        if event is not None:
            game.add(event, line)
            game.results.append(result)
            game.hands += 1
            game.first_out = event["out"][0]
            game.notes.append(
                _note(
                    hand,
                    line,
                    "kept as its score-sheet line",
                    f"{reason}; the hand is a hand_result from its calls and Ergebnis",
                    "kept",
                    {"cause": skipped["cause"]},
                )
            )
        else:  # the next hand's shuffler stays the first out of the last hand kept
            why = "the log stops in it" if result is None else "its Ergebnis fits no finishing order"
            rule = "skipped:log_stops" if result is None else "skipped:no_order"
            game.notes.append(
                _note(hand, line, "skipped", f"{reason}; left out ({why})", rule, {"cause": skipped["cause"]})
            )
        self.hand = None
        self.skipping = None
