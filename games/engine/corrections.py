"""``hand_corrected``: a finished hand's score-sheet line replaced by a director's correction.

A tournament table's result is its game's record, folded (issue 31): when the director corrects a
table, the correction is an event on the game, never a second score kept elsewhere. The event
names the hand (``hand``: its 1-based line on the score sheet), the hand as ``hand_result`` gives
it (``calls``, ``out``, ``points``) and the director's ``reason``. The fold replaces that line
(``kind`` "hand_corrected", with the reason and the points it replaced), adds the totals up again
and asks the variant whether the game is over: so the score, the winner and every channel that
reads the fold follow the correction, and the record keeps both versions (the hand as played and
the correction after it). An ``undo`` retracts a correction as it retracts any event.

A correction is accepted when no hand is in progress, also after the game's end: it is the one
event besides ``undo`` that a finished game takes (``AFTER_END``).
"""

from __future__ import annotations

from typing import Any

from .errors import EngineError

#: the event types a game takes after its end (besides undo): a finished hand's correction
AFTER_END = frozenset({"hand_corrected"})


def on_hand_corrected(state: Any, event: dict[str, Any]) -> None:
    """The fold's handler (GameState): check the whole event, then replace the line."""
    if state.hand is not None:
        raise EngineError(
            "wrong_phase",
            "a hand is in progress: correct a finished hand between hands or after the game",
            params={"rule": "correct_in_hand", "phase": state.phase},
        )
    number = event.get("hand")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(state.history):
        raise EngineError(
            "result_invalid",
            f"hand_corrected: 'hand' is the number of a finished hand, 1 to {len(state.history)}",
            params={"rule": "correct_hand_number", "hands": len(state.history)},
        )
    reason = event.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise EngineError(
            "malformed",
            "hand_corrected: 'reason' says why the hand is corrected",
            params={"rule": "correct_reason"},
        )
    old = state.history[number - 1]  # a hand played, from the score sheet, ended by a penalty, or corrected
    line = _scored_line(state, event, old)
    line.update(kind="hand_corrected", corrected={"reason": reason, "was": list(old["points"])})
    history = list(state.history)
    history[number - 1] = line
    totals = [0] * len(state.totals)
    for each in history:
        for i, p in enumerate(each["points"]):
            totals[i] += p
    state.history, state.totals = history, totals
    state.over, state.winner = state.variant.game_result(totals, len(history), state.options)


def _scored_line(state: Any, event: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """The corrected hand scored exactly as a ``hand_result`` is (the same checks and words): the
    hand_result handler of a bare copy of the game, between hands, with no score sheet yet."""
    probe = state._bare_copy()
    probe.hand, probe.over, probe.winner = None, False, None
    probe.history, probe.totals = [], [0] * len(state.totals)
    as_result: dict[str, Any] = {k: event[k] for k in ("calls", "out", "points") if k in event}
    dealer = event.get("dealer", old.get("shuffler"))
    if dealer is not None:
        as_result["dealer"] = dealer
    probe._on_hand_result(as_result)
    line = dict(probe.history[-1])
    if "shuffler" in old:
        line["shuffler"] = old["shuffler"]
    return line
