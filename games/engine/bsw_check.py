"""Check converted Brettspielwelt games against the scores the log wrote (``Ergebnis``).

Pure: folds each record with the engine and compares every finished hand with the log's line,
naming the reason of each difference. Used by ``manage.py import_bsw`` and its API twin.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError
from .record import Replay, score_json

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
            "players": self.players, "hands": self.hands, "finished": self.finished, "equal": self.equal,
            "differences": [d.as_dict() for d in self.differences],
            "error": None if self.error is None else {"index": self.error.index, **self.error.as_dict()},
        }


def _both_partners_called_grand(line: dict[str, Any]) -> bool:
    grand = [int(s) for s, c in line.get("calls", {}).items() if c == "grand_tichu"]
    return any((a - b) % 2 == 0 and a != b for a in grand for b in grand)


def check_game(record: dict[str, Any]) -> GameCheck:
    """Fold ``record`` and compare its hands with ``record["meta"]["bsw_results"]``."""
    expected = (record.get("meta") or {}).get("bsw_results") or []
    check = GameCheck(players=list(record.get("players", [])), hands=len(expected))
    replay = Replay(record)
    check.error = replay.error
    lines = score_json(replay.state_at(replay.valid_length))["hands"]
    check.finished = len(lines)
    quirk = bool((record.get("options") or {}).get(BSW_QUIRK))
    for number, want in enumerate(expected, start=1):
        got = lines[number - 1]["points"] if number <= len(lines) else None
        if want is None:
            if got is None and number == len(expected):
                check.differences.append(HandDifference(number, None, None, "the log stops in this hand: kept unfinished"))
            continue
        if got == list(want):
            check.equal += 1
            continue
        if got is None:
            reason = (f"not finished: the engine refused event {replay.error.index} ({replay.error.code}: {replay.error.message})"
                      if replay.error else "the hand is not finished in the record")
        elif _both_partners_called_grand(lines[number - 1]) and not quirk:
            reason = ("known BSW difference: both partners called Grand Tichu and BSW drops the failed "
                      "partner's -200; the option bsw_grand_tichu_quirk reproduces BSW's reading")
        else:
            reason = "the computed score differs from the log's Ergebnis"
        check.differences.append(HandDifference(number, list(want), got, reason))
    return check
