"""The tournament core's one exception type and its stable codes (docs/tournament.md, "Error codes")."""

from __future__ import annotations

from typing import Any

#: code -> when it is raised. ``malformed`` is a shape error (exit 2 on the command line); every
#: other code is an event the tournament's rules refuse (exit 1).
CODES: dict[str, str] = {
    "malformed": "the record or an event has the wrong shape (a missing field, a wrong type)",
    "unknown_entry": "an event names an entry that was never registered",
    "entry_exists": "an entry id or a player is registered twice",
    "too_many_entries": "an entry past the most a tournament may have (limits.MAX_ENTRIES)",
    "entry_withdrawn": "a withdrawn entry is paired, or withdrawn again",
    "entry_active": "an entry that was never withdrawn re-enters",
    "entry_missing": "a pairing leaves out an active entry (every one plays or has a bye)",
    "entry_twice": "a pairing seats an entry twice",
    "table_invalid": "a table with the wrong number of entries a side, or a table number used twice",
    "table_not_in_round": "a result for a table the round does not have",
    "round_not_found": "an event names a round that has not been paired",
    "round_open": "the previous round is still open (pairing the next, finishing)",
    "round_closed": "a result, an override or a second pairing for a round that is closed",
    "round_out_of_order": "a pairing for a round other than the next one",
    "no_more_rounds": "every round the header announces has been paired",
    "results_missing": "a round is closed while a table has no result",
    "results_disputed": "a round is closed while a table's result is disputed (correct it first)",
    "result_confirmed": "a confirmed result is confirmed or disputed again (only the TD's correction changes it)",
    "result_disputed": "a disputed result is confirmed or disputed again (the TD corrects it)",
    "result_corrected": "a result the TD corrected is confirmed or disputed (the TD's word needs no confirmation)",
    "same_side": "the side that sent a table's result confirms or disputes it (the other side answers, or the TD)",
    "movement_invalid": "a duplicate movement for a field outside 4 to 12 pairs, or 1 to 8 boards a round",
    "result_exists": "a second result for a table (correct it instead), or an override that would drop a result",
    "no_result": "a correction of a table that has no result",
    "result_invalid": "a result's score lines do not fit the scoring preset (hand count, totals, VP)",
    "reason_required": "an override, correction or adjustment without a reason",
    "lots_invalid": "a drawing of lots that is not an order of all entries",
    "tournament_finished": "an event after the tournament was finished",
    "pairing_manual": "the system is manual: the TD gives each round's pairing",
    "pairing_impossible": "no pairing exists (fewer than two entries, or fewer than four players)",
    # knockout brackets (.bracket)
    "already_seeded": "a bracket is seeded a second time",
    "not_seeded": "a bracket's match result before the bracket is seeded",
    "unknown_match": "a result for a match the bracket does not have (or a bye, which is not played)",
    "match_not_ready": "a result for a match whose two sides are not both known yet",
    "match_played_on": "a correction that changes the sides of a later match that has its result",
    # seasons (.season)
    "evening_in_season": "an evening added to a season that has it already",
    "evening_not_in_season": "an evening removed from a season that does not have it",
    # leagues (.league)
    "places_invalid": "a league with more promotion and relegation places than entries",
    "league_unfinished": "next season's groups asked of a group with matches to play or a tie on a place's line",
}


class TournamentError(ValueError):
    """A record or event the tournament refuses.

    ``code`` is a key of :data:`CODES`; ``message`` says in plain words what was wrong; ``params``
    name the things involved (``entry``, ``round``, ``table``, ...); ``index`` is the position of
    the offending event in the record, once known.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        if code not in CODES:  # a programming error, not a user error
            raise AssertionError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params
        self.index: int | None = None

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            body["params"] = self.params
        if self.index is not None:
            body["index"] = self.index
        return body

    def __repr__(self) -> str:
        return f"TournamentError({self.code!r}, {self.message!r}, index={self.index!r})"
