"""Check converted Brettspielwelt games against the scores the log wrote (``Ergebnis``).

Pure: folds each record with the engine and compares every finished hand with the log's line,
naming the reason of each difference. Used by ``manage.py import_bsw`` and its API twin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from . import bsw_scoresheet
from .errors import EngineError
from .record import Replay, fold, score_json
from .state import GameState

BSW_QUIRK = "bsw_grand_tichu_quirk"


@dataclass
class HandDifference:
    hand: int  # 1-based, as people count hands
    expected: list[int] | None
    computed: list[int] | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "expected": self.expected, "computed": self.computed, "reason": self.reason}


@dataclass
class GameCheck:
    players: list[str]
    hands: int = 0  # hands the log has a header for
    finished: int = 0  # hands the engine finished
    equal: int = 0  # finished hands whose score equals the log's Ergebnis
    differences: list[HandDifference] = field(default_factory=list)
    error: EngineError | None = None

    @property
    def accepted(self) -> bool:
        return self.error is None

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "hands": self.hands,
            "finished": self.finished,
            "equal": self.equal,
            "differences": [d.as_dict() for d in self.differences],
            "error": None if self.error is None else {"index": self.error.index, **self.error.as_dict()},
        }


def _partner_of_first_out_called_grand(line: dict[str, Any]) -> bool:
    out = line.get("out") or []
    grand = [int(s) for s, c in line.get("calls", {}).items() if c == "grand_tichu"]
    return bool(out) and any(s != out[0] and (s - out[0]) % 2 == 0 for s in grand)


def check_game(record: dict[str, Any]) -> GameCheck:
    """Fold ``record`` and compare its hands with ``record["meta"]["bsw_results"]``."""
    expected = (record.get("meta") or {}).get("bsw_results") or []
    check = GameCheck(players=list(record.get("players", [])), hands=len(expected))
    replay = Replay(record)
    check.error = replay.error
    lines = score_json(replay.state_at(replay.valid_length))["hands"]
    check.finished = len(lines)
    quirk = (record.get("options") or {}).get(BSW_QUIRK)
    for number, want in enumerate(expected, start=1):
        got = lines[number - 1]["points"] if number <= len(lines) else None
        if want is None:
            if got is None and number == len(expected):
                check.differences.append(
                    HandDifference(number, None, None, "the log stops in this hand: kept unfinished")
                )
            continue
        if got == list(want):
            check.equal += 1
            continue
        if got is None:
            reason = (
                f"not finished: the engine refused event {replay.error.index} ({replay.error.code}: {replay.error.message})"
                if replay.error
                else "the hand is not finished in the record"
            )
        elif _partner_of_first_out_called_grand(lines[number - 1]) and quirk != "partner_grand":
            reason = (
                "known BSW difference: BSW does not charge the failed Grand Tichu of the first player "
                "out's partner; the option bsw_grand_tichu_quirk: 'partner_grand' reproduces BSW's reading"
            )
        else:
            reason = "the computed score differs from the log's Ergebnis"
        check.differences.append(HandDifference(number, list(want), got, reason))
    return check


def _hand_starts(events: list[dict[str, Any]]) -> list[int]:
    return [i for i, e in enumerate(events) if e.get("type") in ("shuffle", "hand_result")]


def settle_refused_hands(record: dict[str, Any], event_lines: list[int], limit: int = 100) -> list[dict[str, Any]]:
    """Lax import: while the engine refuses an event, the hand it is in becomes its score-sheet
    line (a ``hand_result`` from the hand's calls and the log's ``Ergebnis``), or is left out when
    the score fits no finishing order or the log stops in it. A rule the log breaks (BSW let a
    player give the Dragon to a partner, say) so costs that hand, never the game. Changes
    ``record`` and ``event_lines`` in place; returns a note per hand (1-based ``hand``, the
    refused event's ``line``, ``action``, ``reason``)."""
    notes: list[dict[str, Any]] = []
    events = record["events"]
    results = (record.get("meta") or {}).get("bsw_results") or []
    for _ in range(limit):
        try:
            fold(record)
            break
        except EngineError as exc:
            if exc.index is None or exc.code == "malformed":
                raise
            refused, at = exc, exc.index
        starts = _hand_starts(events)
        k = max(n for n, i in enumerate(starts) if i <= at) if starts and starts[0] <= at else 0
        start = starts[k] if starts else 0
        end = starts[k + 1] if k + 1 < len(starts) else len(events)
        line = event_lines[at] if at < len(event_lines) else None
        calls = {str(e["seat"]): e["type"] for e in events[start:end] if e.get("type") in ("tichu", "grand_tichu")}
        result = results[k] if k < len(results) else None
        after = events[end] if end < len(events) else None
        prefer = after["seat"] if after is not None and after.get("type") == "shuffle" else None
        quirk = (record.get("options") or {}).get(BSW_QUIRK)
        replacement = (
            bsw_scoresheet.hand_result(calls, result, prefer=prefer, quirk=quirk) if result is not None else None
        )
        why = f"the engine refused event {refused.index} ({refused.code}: {refused.message})"
        if replacement is not None:
            events[start:end] = [replacement]
            event_lines[start:end] = [line or 0]
            action = "kept as its score-sheet line"
        else:
            del events[start:end], event_lines[start:end]
            if k < len(results):
                del results[k]
            action = "skipped"
        if after is not None and after.get("type") == "shuffle":
            # the shuffler is inferred (first out of the previous hand): follow the kept line, or
            # with the hand left out, the hand before it
            if replacement is not None:
                after["seat"] = replacement["out"][0]
            else:
                before = cast(GameState, fold(record, start)).next_shuffler  # a Tichu record
                if before is not None:
                    after["seat"] = before
        rule = "kept:refused" if replacement is not None else "skipped:refused"
        # the refusal as the engine gives it (code, message, params), worded by refusal_words
        params = {"index": refused.index, "refusal": refused.as_dict(), "players": list(record.get("players") or [])}
        notes.append({"hand": k + 1, "line": line, "action": action, "reason": why, "rule": rule, "params": params})
    return notes
