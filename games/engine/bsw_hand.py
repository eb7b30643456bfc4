"""One hand of a Brettspielwelt log while it is read (:class:`HandReader`): its card blocks, calls,
pushes and the trick being played, written into its game (:class:`~.bsw_game.GameBuilder`) when
it can be; a lax reading's notes of a hand (``_note``, ``_cause``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .bsw_codes import START_HEADER, BSWFormatError, bsw_cards, bsw_sorted, wish_from_bsw
from .bsw_game import GameBuilder
from .bsw_lines import (
    _BOMB,
    _BOMB_ITEM,
    _CALL,
    _GIFT,
    _ORDER,
    _PLAYS,
    _PUSH,
    _PUSH_KEYS,
    _RESULT,
    _WISH,
    _block_line,
    _read_play_cards,
    _seat_line,
    placeholder,
)


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
                six = [c for c in cards14 if c not in first]
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
