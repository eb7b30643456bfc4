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

from itertools import islice
from typing import Any

from . import bsw_scoresheet
from .bsw_codes import GT_HEADER, PLAY_HEADER, RANK_FROM_BSW, BSWFormatError
from .bsw_game import GameBuilder
from .bsw_hand import HandReader, _cause, _note
from .bsw_lines import _CALL, _PLAYS, _RESULT, _SEATS, placeholder

__all__ = ["GameBuilder", "HandReader", "LogReader", "placeholder"]


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
