"""The tournament fold: ``TournamentState.apply(event)`` checks an event against the tournament so
far and only then changes the state; a refused event raises :class:`TournamentError` and leaves
the state exactly as it was. Standings, crosstable and pairings are read off the state
(:mod:`.standings`, :mod:`.pairing`), so the standings after event N are those of ``fold(record, N)``.

A table that has a recorded game takes its result from that game (issue 31, "one source"): the
site layer gives the fold ``game_lines``, game id -> the hand lines the game's own fold gives now
(``from_games.hand_lines``), or None while the game is not over. A result event that names such a
game is then only the link "this table's result is game G": its numbers are the game's, so a
correction of the game (an event on the game) is the table's correction, and no second score is
kept that could disagree. An answer (confirm, dispute) stands for the lines it was given to: once
the game's lines differ, the opponents are asked again. Without ``game_lines`` (the pure core, the
command line) a result is the event's own numbers, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import TournamentError
from .limits import LISTED, MAX_ENTRIES, MAX_ROUNDS
from .line_checks import check_hand_count, check_lines
from .record import (
    apply_all,
    integer,
    is_int,
    is_number,
    malformed,
    parse_record,
    parse_result,
    parse_tables,
    reason,
    text,
)
from .round_clock import RoundClock, clock_from_event
from .scoring import PRESETS, Preset

EVENT_TYPES = (
    "entry_registered",
    "entry_withdrawn",
    "entry_reentered",
    "round_paired",
    "pairing_overridden",
    "result_recorded",
    "result_corrected",
    "score_adjusted",
    "round_closed",
    "lots_drawn",
    "tournament_finished",
    "result_confirmed",
    "result_disputed",
    "round_shortened",
    "round_clock_started",
)
#: A table result's standing with the other side: not yet answered, confirmed by the opponents,
#: disputed by them (with a reason), or set by the TD's correction (which needs no confirmation).
CONFIRMATION = ("unconfirmed", "confirmed", "disputed", "corrected")


@dataclass
class Entry:
    id: str
    name: str
    players: list[Any]
    active: bool = True
    #: rounds already paired when the entry registered: the rounds it missed as a late entry
    joined_after: int = 0
    registered_at: int = 0  # event index


@dataclass
class Table:
    number: int
    sides: list[list[str]]
    result: dict[str, Any] | None = None
    #: event indexes of the result and each correction, oldest first
    history: list[int] = field(default_factory=list)
    #: one of CONFIRMATION (meaningful once there is a result)
    confirmation: str = "unconfirmed"
    dispute_reason: str | None = None
    #: the side (0 or 1, an index of `sides`) that sent the result, when it said so; None when the
    #: TD recorded or corrected it. That side does not answer its own result.
    recorded_side: int | None = None
    #: (hands, reason) when the TD recorded that this table played fewer hands than the round has
    short: tuple[int, str] | None = None
    #: the hand lines as the result event sent them (a game table: the game's lines at that time)
    sent_lines: list[Any] | None = None
    #: the hand lines the latest confirmation or dispute was given to
    answered_lines: list[Any] | None = None
    #: True when the opponents' answer was given to other lines than the game's now: asked again
    reasked: bool = False
    #: the standing answer as the stream says it ("confirmed", "disputed", or the TD's "corrected"),
    #: whatever the game says now; None before any
    answer: str | None = None


@dataclass
class Round:
    number: int
    tables: dict[int, Table]
    byes: list[str]
    explanation: Any = None
    closed: bool = False
    paired_at: int = 0
    overrides: list[dict[str, Any]] = field(default_factory=list)
    #: the round's clock once the TD started it (the latest start counts)
    clock: RoundClock | None = None

    def seated(self) -> dict[str, tuple[int, int]]:
        """entry -> (table, side) for everyone at a table this round."""
        return {e: (t.number, s) for t in self.tables.values() for s, side in enumerate(t.sides) for e in side}


@dataclass
class Adjustment:
    entry: str
    vp: float
    points: int
    round: int | None
    reason: str
    index: int


class TournamentState:
    def __init__(
        self, header: dict[str, Any], game_lines: Mapping[Any, list[dict[str, Any]] | None] | None = None
    ) -> None:
        self.header = header
        # Whether a result's hand lines are checked against the rules (games.tournament.line_checks).
        # A stream stored before those checks existed may hold a line they refuse (a DTM result sent
        # as VP only); it must still fold, so the site folds what is stored with `stored=True` and
        # checks every event it appends.
        self.checks_lines = True
        #: game id -> the lines its fold gives now, or None while it is not over (module docstring)
        self.game_lines = game_lines
        self.preset: Preset = PRESETS[header["scoring"]]
        self.side_size = 1 if header["entrants"] == "pairs" else 2
        self.entries: dict[str, Entry] = {}
        self.rounds: list[Round] = []
        self.adjustments: list[Adjustment] = []
        self.lots: list[str] | None = None
        self.finished = False
        self.events_applied = 0
        #: the number of rounds a round robin plays, fixed by its first pairing
        self.planned_rounds: int | None = header["rounds"]
        #: player -> the active entry they play in (entry_registered, _withdrawn, _reentered)
        self._taken: dict[Any, str] = {}

    # --- reading ---------------------------------------------------------------------------

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def active_entries(self) -> list[str]:
        return [e.id for e in self.entries.values() if e.active]

    def round(self, number: Any) -> Round:
        if not is_int(number, 1):
            raise malformed(f"a round number is an integer >= 1, not {number!r}", value=number, rule="round_number")
        if number > len(self.rounds):
            raise TournamentError("round_not_found", f"round {number} has not been paired", round=number)
        return self.rounds[number - 1]

    def entry(self, entry_id: Any) -> Entry:
        if not isinstance(entry_id, str) or not entry_id:
            raise malformed(f"an entry id is a non-empty string, not {entry_id!r}", value=entry_id, rule="entry_id")
        if entry_id not in self.entries:
            raise TournamentError("unknown_entry", f"no entry {entry_id!r} is registered", entry=entry_id)
        return self.entries[entry_id]

    # --- folding ---------------------------------------------------------------------------

    def apply(self, event: dict[str, Any]) -> None:
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise malformed("an event is an object with a string 'type'", rule="event_object")
        if self.finished:
            raise TournamentError(
                "tournament_finished", "the tournament is finished: no further events", rule="no_further_events"
            )
        handler = HANDLERS.get(event["type"])
        if handler is None:
            raise malformed(f"unknown event type {event['type']!r}", type=event["type"], rule="event_type")
        handler(self, event)
        self.events_applied += 1

    def _on_entry_registered(self, event: dict[str, Any]) -> None:
        entry_id = text(event, "entry")
        players = event.get("players")
        want = 2 if self.side_size == 1 else 1
        if (
            not isinstance(players, list)
            or len(players) != want
            or not all((isinstance(p, str) and p.strip()) or is_int(p) for p in players)
        ):
            raise malformed(
                f"entry_registered: 'players' is a list of {want} player name(s) or id(s)", count=want, rule="players"
            )
        name = text(event, "name", required=False) or " & ".join(str(p) for p in players)
        if entry_id in self.entries:
            raise TournamentError(
                "entry_exists", f"entry {entry_id!r} is already registered", entry=entry_id, rule="registered"
            )
        if len(set(players)) != len(players):
            raise TournamentError(
                "entry_exists", "a player cannot partner themselves", entry=entry_id, rule="partner_self"
            )
        if len(self.entries) >= MAX_ENTRIES:
            raise TournamentError(
                "too_many_entries",
                f"a tournament has at most {MAX_ENTRIES} entries",
                limit=MAX_ENTRIES,
                entry=entry_id,
            )
        taken = self._players_taken()
        for p in players:
            if p in taken:
                raise TournamentError(
                    "entry_exists",
                    f"player {p!r} already plays in entry {taken[p]!r}",
                    entry=taken[p],
                    player=p,
                    rule="player_taken",
                )
        self.entries[entry_id] = Entry(
            entry_id, name, list(players), joined_after=len(self.rounds), registered_at=self.events_applied
        )
        for p in players:
            self._taken[p] = entry_id

    def _players_taken(self) -> dict[Any, str]:
        """player -> the active entry that player plays in. Kept as entries register, withdraw and
        re-enter, so that registering n entries costs O(n), not O(n^2)."""
        return self._taken

    def _on_entry_withdrawn(self, event: dict[str, Any]) -> None:
        entry = self.entry(event.get("entry"))
        if not entry.active:
            raise TournamentError(
                "entry_withdrawn", f"entry {entry.id!r} has already withdrawn", entry=entry.id, rule="already_withdrawn"
            )
        entry.active = False
        for p in entry.players:
            self._taken.pop(p, None)

    def _on_entry_reentered(self, event: dict[str, Any]) -> None:
        entry = self.entry(event.get("entry"))
        if entry.active:
            raise TournamentError("entry_active", f"entry {entry.id!r} has not withdrawn", entry=entry.id)
        taken = self._players_taken()
        for p in entry.players:
            if p in taken:
                raise TournamentError(
                    "entry_exists",
                    f"player {p!r} now plays in entry {taken[p]!r}",
                    entry=taken[p],
                    player=p,
                    rule="player_taken_since",
                )
        entry.active = True
        for p in entry.players:
            self._taken[p] = entry.id

    def _check_pairing(self, event: dict[str, Any], number: int) -> tuple[dict[int, Table], list[str]]:
        """The tables and byes of a pairing or an override: every active entry exactly once."""
        tables, byes = parse_tables(event, self.side_size)
        seen: set[str] = set()
        for e in [e for t in tables for side in t["sides"] for e in side] + byes:
            entry = self.entry(e)
            if e in seen:
                raise TournamentError(
                    "entry_twice", f"entry {e!r} appears twice in round {number}", entry=e, round=number
                )
            if not entry.active:
                raise TournamentError(
                    "entry_withdrawn", f"entry {e!r} has withdrawn and cannot be paired", entry=e, rule="paired"
                )
            seen.add(e)
        missing = [e for e in self.active_entries() if e not in seen]
        if missing:
            shown = missing[:LISTED]  # an error's size does not grow with the field
            raise TournamentError(
                "entry_missing",
                f"round {number} leaves out {len(missing)} active entries ({', '.join(shown)}"
                f"{', ...' if len(missing) > LISTED else ''}): every active entry plays or has a bye",
                entries=shown,
                count=len(missing),
                round=number,
            )
        return {t["table"]: Table(t["table"], t["sides"]) for t in tables}, byes

    def _on_round_paired(self, event: dict[str, Any]) -> None:
        number = integer(event, "round", 1)
        if number <= len(self.rounds):
            if self.rounds[number - 1].closed:
                raise TournamentError(
                    "round_closed",
                    f"round {number} is closed: it cannot be paired again",
                    round=number,
                    rule="paired_again",
                )
            raise TournamentError(
                "round_out_of_order",
                f"round {number} is already paired: override its pairing instead",
                round=number,
                rule="already_paired",
            )
        if number != len(self.rounds) + 1:
            raise TournamentError(
                "round_out_of_order",
                f"the next round is {len(self.rounds) + 1}, not {number}",
                round=number,
                next=len(self.rounds) + 1,
                rule="not_next",
            )
        if self.rounds and not self.rounds[-1].closed:
            raise TournamentError("round_open", f"round {len(self.rounds)} is still open", round=len(self.rounds))
        if number > MAX_ROUNDS:
            raise TournamentError(
                "no_more_rounds",
                f"a tournament has at most {MAX_ROUNDS} rounds",
                round=number,
                limit=MAX_ROUNDS,
                rule="max_rounds",
            )
        limit = self.planned_rounds
        if limit is not None and number > limit:
            raise TournamentError(
                "no_more_rounds",
                f"the tournament has {limit} rounds",
                round=number,
                rounds=limit,
                rule="planned_rounds",
            )
        tables, byes = self._check_pairing(event, number)
        if not tables:
            raise TournamentError("table_invalid", f"round {number} has no table", round=number, rule="no_table")
        if self.planned_rounds is None:  # a round robin or a duplicate movement: its schedule fixes it
            from .pairing.round_robin import schedule_length

            self.planned_rounds = schedule_length(len(self.active_entries()), self.header["legs"])
        self.rounds.append(Round(number, tables, byes, event.get("explanation"), paired_at=self.events_applied))

    def _on_pairing_overridden(self, event: dict[str, Any]) -> None:
        rnd = self.round(event.get("round"))
        why = reason(event)
        if rnd.closed:
            raise TournamentError("round_closed", f"round {rnd.number} is closed", round=rnd.number, rule="closed")
        tables, byes = self._check_pairing(event, rnd.number)
        if not tables:
            raise TournamentError(
                "table_invalid", f"round {rnd.number} has no table", round=rnd.number, rule="no_table"
            )
        for old in rnd.tables.values():
            new = tables.get(old.number)
            if old.result is not None:
                if new is None or new.sides != old.sides:
                    raise TournamentError(
                        "result_exists",
                        f"table {old.number} has a result: the override would change it",
                        rule="override_changes",
                        round=rnd.number,
                        table=old.number,
                    )
                new.result, new.history = old.result, old.history
                new.confirmation, new.dispute_reason = old.confirmation, old.dispute_reason
                new.recorded_side, new.sent_lines = old.recorded_side, old.sent_lines
                new.answered_lines, new.reasked, new.answer = old.answered_lines, old.reasked, old.answer
        rnd.overrides.append(
            {
                "index": self.events_applied,
                "reason": why,
                "previous": {
                    "tables": [{"table": t.number, "sides": t.sides} for t in rnd.tables.values()],
                    "byes": rnd.byes,
                },
            }
        )
        rnd.tables, rnd.byes = tables, byes

    def _table(self, event: dict[str, Any]) -> tuple[Round, Table]:
        rnd = self.round(event.get("round"))
        number = event.get("table")
        if not is_int(number, 1):
            raise malformed(f"{event['type']}: 'table' is an integer >= 1", type=event["type"], rule="table_field")
        if number not in rnd.tables:
            raise TournamentError(
                "table_not_in_round", f"round {rnd.number} has no table {number}", round=rnd.number, table=number
            )
        return rnd, rnd.tables[number]

    def _checked_result(self, event: dict[str, Any], table: Table) -> dict[str, Any]:
        """The result as the preset reads it: every hand line one a deal under the tournament's
        rules can end with (.hand_lines), the round's hands all there, and the VP computed from
        the lines (VP written on a sheet are compared with them, never taken)."""
        from .scoring import table_vp

        result = parse_result(event, self.header["hands_per_round"])
        if result["vp"] is not None and self.preset.unit != "hand":
            raise TournamentError(
                "result_invalid",
                f"the {self.preset.name} preset computes the VP from the score; give no 'vp'",
                preset=self.preset.name,
                rule="vp_computed",
            )
        if self.checks_lines:  # off only while a stored stream is folded (fold(..., stored=True))
            check_lines(result, self.header)
            check_hand_count(result, self.header["hands_per_round"], table.short)
        table_vp(self.preset, result, self.header["hands_per_round"])  # refuses what cannot be scored
        return self._from_game(result)

    def _from_game(self, sent: dict[str, Any]) -> dict[str, Any]:
        """The result a table with a recorded game has: that game's lines, folded now. While the
        game is not over (a director re-entering its hands), or if it no longer gives a result the
        preset can score, the table keeps the numbers sent, marked ``game_open``: the round does not
        close on them (the site layer's check) and the table's view says so."""
        game = sent.get("game")
        if self.game_lines is None or game is None or game not in self.game_lines:
            return sent
        lines = self.game_lines[game]
        if lines is None:
            return {**sent, "game_open": True}
        from .scoring import table_vp

        try:
            result = parse_result(
                {"type": "result_recorded", "hands": lines, "game": game}, self.header["hands_per_round"]
            )
            table_vp(self.preset, result, self.header["hands_per_round"])
        except TournamentError:
            return {**sent, "game_open": True}
        return {**result, "from_game": True}

    def _sent_lines(self, event: dict[str, Any]) -> list[Any] | None:
        hands = event.get("hands")
        if hands is None:
            return None
        return parse_result({"type": event["type"], "hands": hands}, None)["hands"]

    def _answer_lines(self, table: Table, event: dict[str, Any]) -> list[Any] | None:
        """The lines an answer was given to: the event's ``hands`` (an answer written before answers
        said them: the lines sent)."""
        return self._sent_lines(event) if event.get("hands") is not None else table.sent_lines

    def _answered(self, table: Table, event: dict[str, Any], answer: str) -> None:
        """Keep the answer and the lines it was given to. An answer to other lines than the result's
        now (the game's) does not stand: the table reads unconfirmed, the opponents asked again."""
        table.answer, table.answered_lines = answer, self._answer_lines(table, event)
        table.reasked = False
        hands = table.result["hands"] if table.result is not None else None
        if hands is not None and table.answered_lines is not None:
            if [tuple(x) for x in table.answered_lines] != [tuple(x) for x in hands]:
                table.confirmation, table.dispute_reason, table.reasked = "unconfirmed", None, True

    def _on_result_recorded(self, event: dict[str, Any]) -> None:
        rnd, table = self._table(event)
        result = self._checked_result(event, table)
        if rnd.closed:
            raise TournamentError(
                "round_closed",
                f"round {rnd.number} is closed: correct the result instead",
                rule="correct_instead",
                round=rnd.number,
                table=table.number,
            )
        if table.result is not None:
            raise TournamentError(
                "result_exists",
                f"table {table.number} of round {rnd.number} has a result: correct it instead",
                rule="correct_instead",
                round=rnd.number,
                table=table.number,
            )
        side = _side(event)
        table.result = result
        table.history.append(self.events_applied)
        table.confirmation, table.dispute_reason = "unconfirmed", None
        table.recorded_side = side
        table.sent_lines, table.answered_lines, table.reasked, table.answer = self._sent_lines(event), None, False, None

    def _on_result_corrected(self, event: dict[str, Any]) -> None:
        rnd, table = self._table(event)
        reason(event)
        result = self._checked_result(event, table)
        if table.result is None:
            raise TournamentError(
                "no_result",
                f"table {table.number} of round {rnd.number} has no result to correct",
                rule="nothing_to_correct",
                round=rnd.number,
                table=table.number,
            )
        table.result = result
        table.history.append(self.events_applied)
        table.confirmation, table.dispute_reason = "corrected", None
        table.recorded_side = None
        table.sent_lines = self._sent_lines(event)
        # the TD's word: for a game's result, it stands while the game gives the lines it was given to
        self._answered(table, event, "corrected")

    def _answerable(self, event: dict[str, Any]) -> tuple[Round, Table]:
        """The table whose result the opponents confirm or dispute: it has one, its round is open,
        and no one has answered it yet (a confirmed result changes only by a TD's correction)."""
        rnd, table = self._table(event)
        where = {"round": rnd.number, "table": table.number}
        if table.result is None:
            raise TournamentError(
                "no_result", f"table {table.number} of round {rnd.number} has no result yet", **where, rule="answer"
            )
        if rnd.closed:
            raise TournamentError("round_closed", f"round {rnd.number} is closed", **where, rule="closed")
        # Answered already: refused. With the tables' games (the site's fold) only an answer to the
        # same lines is refused: what the stream says alone, so that a stored stream folds whatever
        # its games say now (the site checks at append time that an answer is to the game's lines).
        standing = table.answer
        if standing is not None and (
            self.game_lines is None or _same(table.answered_lines, self._answer_lines(table, event))
        ):
            raise TournamentError(
                f"result_{standing}",
                f"table {table.number} of round {rnd.number}: "
                f"the result is already {standing}; only the TD's correction changes it",
                **where,
            )
        side = _side(event)
        if side is not None and side == table.recorded_side:
            raise TournamentError(
                "same_side",
                f"table {table.number} of round {rnd.number}: side {side} sent this result; "
                "the other side (or the TD) confirms or disputes it",
                **where,
                side=side,
            )
        return rnd, table

    def _on_result_confirmed(self, event: dict[str, Any]) -> None:
        _rnd, table = self._answerable(event)
        table.confirmation = "confirmed"
        self._answered(table, event, "confirmed")

    def _on_result_disputed(self, event: dict[str, Any]) -> None:
        why = reason(event)
        _rnd, table = self._answerable(event)
        table.confirmation, table.dispute_reason = "disputed", why
        self._answered(table, event, "disputed")

    def _on_score_adjusted(self, event: dict[str, Any]) -> None:
        entry = self.entry(event.get("entry"))
        vp, points = event.get("vp", 0), event.get("points", 0)
        if not is_number(vp) or not is_int(points):
            raise malformed("score_adjusted: 'vp' is a number and 'points' an integer", rule="adjust_numbers")
        if vp == 0 and points == 0:
            raise malformed("score_adjusted: give a non-zero 'vp' or 'points'", rule="adjust_zero")
        number = event.get("round")
        if number is not None:
            self.round(number)
        why = reason(event)
        self.adjustments.append(Adjustment(entry.id, vp, points, number, why, self.events_applied))

    def _on_round_closed(self, event: dict[str, Any]) -> None:
        rnd = self.round(event.get("round"))
        if rnd.closed:
            raise TournamentError(
                "round_closed", f"round {rnd.number} is already closed", round=rnd.number, rule="already_closed"
            )
        missing = sorted(t.number for t in rnd.tables.values() if t.result is None)
        if missing:
            raise TournamentError(
                "results_missing",
                f"round {rnd.number}: no result yet at table(s) {', '.join(map(str, missing))}",
                round=rnd.number,
                tables=missing,
            )
        # a game's result is checked by the site when the round closes (its dispute stands or not by
        # what the game says then): here only the stream's own results, so that the stream folds
        disputed = sorted(
            t.number
            for t in rnd.tables.values()
            if t.confirmation == "disputed"
            and not (
                self.game_lines is not None and t.result and (t.result.get("from_game") or t.result.get("game_open"))
            )
        )
        if disputed:
            raise TournamentError(
                "results_disputed",
                f"round {rnd.number}: the result of table(s) "
                f"{', '.join(map(str, disputed))} is disputed: correct it first",
                round=rnd.number,
                tables=disputed,
            )
        rnd.closed = True

    def _on_round_shortened(self, event: dict[str, Any]) -> None:
        """The TD's word that a table played fewer hands than the round has (time ran out): its
        result then has that many hand lines. Recorded before the result, while the round is open."""
        rnd, table = self._table(event)
        why = reason(event)
        full = self.header["hands_per_round"]
        where = {"round": rnd.number, "table": table.number}
        if full is None:
            raise TournamentError(
                "result_invalid",
                "this tournament plays to a target, not a number of hands: a round cannot be short",
                **where,
                rule="short_no_hands",
            )
        hands = integer(event, "hands", 1)
        if hands is None or hands >= full:
            raise TournamentError(
                "result_invalid",
                f"a short round has fewer hands than the round's {full}",
                **where,
                hands_per_round=full,
                rule="short_not_shorter",
            )
        if rnd.closed:
            raise TournamentError("round_closed", f"round {rnd.number} is closed", **where, rule="closed")
        if table.result is not None:
            raise TournamentError(
                "result_exists",
                f"table {table.number} of round {rnd.number} has a result: record the short round before it",
                **where,
                rule="short_after_result",
            )
        table.short = (hands, why)

    def _on_round_clock_started(self, event: dict[str, Any]) -> None:
        """The TD started the round's clock (or restarted it: the latest start counts). Only while
        the round is open: a closed round has nothing left to time."""
        clock = clock_from_event(event, self.events_applied)  # shapes before rules
        rnd = self.round(event.get("round"))
        if rnd.closed:
            raise TournamentError("round_closed", f"round {rnd.number} is closed", round=rnd.number, rule="closed")
        rnd.clock = clock

    def _on_lots_drawn(self, event: dict[str, Any]) -> None:
        order = event.get("order")
        if not isinstance(order, list) or not all(isinstance(e, str) for e in order):
            raise malformed("lots_drawn: 'order' is a list of entry ids", rule="lots_order")
        if sorted(order) != sorted(self.entries):
            raise TournamentError("lots_invalid", "lots_drawn: 'order' must name every registered entry once")
        self.lots = list(order)

    def _on_tournament_finished(self, event: dict[str, Any]) -> None:
        if self.rounds and not self.rounds[-1].closed:
            raise TournamentError("round_open", f"round {len(self.rounds)} is still open", round=len(self.rounds))
        self.finished = True


HANDLERS: dict[str, Callable[[TournamentState, dict[str, Any]], None]] = {
    name: getattr(TournamentState, f"_on_{name}") for name in EVENT_TYPES
}


def fold(
    record: Any,
    upto: int | None = None,
    game_lines: Mapping[Any, list[dict[str, Any]] | None] | None = None,
    *,
    stored: bool = False,
) -> TournamentState:
    """The tournament after its first ``upto`` events (all by default). A refused event raises
    :class:`TournamentError` with ``index`` set to its position. ``game_lines``: the tables' games'
    lines as their folds give them now (module docstring).

    ``stored``: the events were checked when they were stored (the site's database), so the checks
    added since (hand lines, a round's number of hands) do not refuse them again; the returned state
    checks every event applied to it afterwards."""
    record = parse_record(record)
    state = TournamentState(record["header"], game_lines)
    state.checks_lines = not stored
    events = record["events"] if upto is None else record["events"][:upto]
    apply_all(state, events)
    state.checks_lines = True
    return state


def new_tournament(header: dict[str, Any]) -> TournamentState:
    """An empty tournament from a header (defaults filled in); append events with ``apply``."""
    return TournamentState(parse_record({"header": header})["header"])


def _same(a: list[Any] | None, b: list[Any] | None) -> bool:
    """Two answers' lines are the same version of the result."""
    return (a is None and b is None) or (
        a is not None and b is not None and [tuple(x) for x in a] == [tuple(x) for x in b]
    )


def _side(event: dict[str, Any]) -> int | None:
    """The side an answer or a sent result speaks for: 0 or 1 (an index of the table's sides), or
    None (the TD, or a record written before sides were said)."""
    side = event.get("side")
    if side is not None and (not is_int(side) or side not in (0, 1)):
        raise malformed(f"{event['type']}: 'side' is 0 or 1 (the table's side)", type=event["type"], rule="side")
    return side
