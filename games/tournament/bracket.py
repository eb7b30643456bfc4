"""Knockout brackets (docs/tournament.md, "Knockout brackets"): single elimination, each match
best of N games, seeded by a given order, byes when the field is not a power of two, and an
optional consolation bracket for the first round's losers.

A bracket is a header and an append-only list of events, as a tournament is:
``bracket_seeded`` (the entries in seed order, once), then ``match_result`` and
``match_corrected``. Who meets whom is never stored: the layout is a fold of the seeds and the
results (:meth:`BracketState.matches`), so a correction moves the right winner on by itself.
Each result keeps the sides it was played by; a correction that would change the sides of a
match already played is refused (``match_played_on``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import TournamentError
from .fields import MAX_TEXT_CHARS
from .limits import MAX_ENTRIES, MAX_HANDS_PER_ROUND, MAX_ID, MAX_POINTS, MAX_TARGET
from .record import apply_all, is_int, malformed, reason

FORMAT = "tichu-bracket/1"
#: how the seed order was made: from a rating table, from a previous stage's standings, by hand
SEEDING = ("rating", "previous_stage", "hand")
MAX_BEST_OF = 9
HEADER_KEYS = {"format", "name", "best_of", "hands", "target", "consolation", "meta"}
#: type -> the fields (besides ``type``) an event of that type may carry
BRACKET_EVENT_FIELDS: dict[str, frozenset[str]] = {
    "bracket_seeded": frozenset({"entries", "by"}),
    "match_result": frozenset({"match", "games", "walkover", "reason"}),
    "match_corrected": frozenset({"match", "games", "walkover", "reason"}),
}
BRACKET_EVENT_TYPES = tuple(BRACKET_EVENT_FIELDS)
MAIN, CONSOLATION = "W", "C"


def _player(p: Any) -> bool:
    """A player is a name or a roster id, as in a tournament's entries."""
    return (isinstance(p, str) and 0 < len(p) <= MAX_TEXT_CHARS) or (is_int(p) and abs(p) <= MAX_ID)


def parse_bracket_header(obj: Any) -> dict[str, Any]:
    """The header with its defaults: best of 1, a game to 1000, no consolation bracket."""
    shape = "a bracket's header has best_of (an odd number from 1 to 9), hands or target, consolation (true or false)"
    if not isinstance(obj, dict) or set(obj) - HEADER_KEYS:
        raise malformed(shape, rule="bracket_header")
    best_of = obj.get("best_of", 1)
    hands, target = obj.get("hands"), obj.get("target")
    consolation = obj.get("consolation", False)
    if (
        not is_int(best_of, 1)
        or best_of > MAX_BEST_OF
        or best_of % 2 == 0
        or (hands is not None and not (is_int(hands, 1) and hands <= MAX_HANDS_PER_ROUND))
        or (target is not None and not (is_int(target, 1) and target <= MAX_TARGET))
        or (hands is not None and target is not None)
        or not isinstance(consolation, bool)
        or not isinstance(obj.get("name", ""), str)
        or not isinstance(obj.get("meta", {}), dict)
        or obj.get("format", FORMAT) != FORMAT
    ):
        raise malformed(shape, rule="bracket_header")
    if hands is None and target is None:
        target = 1000
    return {
        "format": FORMAT,
        "name": obj.get("name", ""),
        "best_of": best_of,
        "hands": hands,
        "target": target,
        "consolation": consolation,
        "meta": obj.get("meta", {}),
    }


def game_options(header: dict[str, Any]) -> dict[str, Any]:
    """Engine options of each game of a match: a number of hands or a target score."""
    return {"hands": header["hands"]} if header["hands"] is not None else {"target_score": header["target"]}


def seed_order(
    entries: list[str], by: str, *, ratings: dict[str, float] | None = None, standings: list[str] | None = None
) -> list[str]:
    """The entries in seed order (seed 1 first): by ``rating`` (highest first; equal ratings keep
    the order given), by a ``previous_stage``'s standings (its order; entries it does not rank
    follow, in the order given), or by ``hand`` (the order given)."""
    if by == "rating":
        ratings = ratings or {}
        return sorted(entries, key=lambda e: -float(ratings.get(e, float("-inf"))))
    if by == "previous_stage":
        place = {e: i for i, e in enumerate(standings or [])}
        return sorted(entries, key=lambda e: place.get(e, len(place)))
    return list(entries)


def slot_order(size: int) -> list[int]:
    """Seeds in bracket order for a power of two: 1 meets ``size``, and seeds 1 and 2 can meet
    only in the final (1, 8, 4, 5, 2, 7, 3, 6 for 8)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for top in order for s in (top, n + 1 - top)]
    return order


@dataclass
class Match:
    id: str
    bracket: str
    round: int
    number: int
    #: the entries of side 0 and side 1; None where the side is not known yet (or a bye)
    sides: list[str | None]
    bye: bool = False
    winner: str | None = None
    result: dict[str, Any] | None = None


@dataclass
class BracketState:
    header: dict[str, Any]
    seeds: list[str] = field(default_factory=list)
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    by: str | None = None
    #: match id -> {"sides", "games", "walkover", "reason", "winner", "history": [event indexes]}
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    events_applied: int = 0
    #: the layout folded from seeds and results, kept until one of them changes (not a record)
    _layout: dict[str, Match] | None = field(default=None, repr=False, compare=False)

    # --- the layout: a fold of the seeds and the results ----------------------------------

    def matches(self) -> dict[str, Match]:
        """Every match of the bracket (and of the consolation bracket once its entries are known).
        Read only: the dict is kept until the next event changes the bracket."""
        if self._layout is None:
            self._layout = self._fold_layout()
        return self._layout

    def _fold_layout(self) -> dict[str, Match]:
        out = self._knockout(MAIN, self.seeds)
        if self.header["consolation"]:
            first = [m for m in out.values() if m.round == 1]
            if first and all(m.winner for m in first):
                losers = [s for m in first if not m.bye for s in m.sides if s is not None and s != m.winner]
                if len(losers) >= 2:
                    rank = {e: i for i, e in enumerate(self.seeds)}
                    out.update(self._knockout(CONSOLATION, sorted(losers, key=rank.__getitem__)))
        return out

    def _knockout(self, bracket: str, seeds: list[str]) -> dict[str, Match]:
        if len(seeds) < 2:
            return {}
        size = 1 << (len(seeds) - 1).bit_length()
        slots = [seeds[s - 1] if s <= len(seeds) else None for s in slot_order(size)]
        out: dict[str, Match] = {}
        sides_of_round = [slots[i : i + 2] for i in range(0, size, 2)]
        rnd = 1
        while sides_of_round:
            winners: list[str | None] = []
            for k, sides in enumerate(sides_of_round, start=1):
                m = Match(f"{bracket}{rnd}-{k}", bracket, rnd, k, list(sides))
                if rnd == 1 and None in sides:  # a bye: the seeded side goes through unplayed
                    m.bye, m.winner = True, next(s for s in sides if s is not None)
                else:
                    played = self.results.get(m.id)
                    if played is not None and played["sides"] == m.sides:
                        m.winner, m.result = played["winner"], played
                out[m.id] = m
                winners.append(m.winner)
            if len(winners) == 1:
                break
            sides_of_round = [winners[i : i + 2] for i in range(0, len(winners), 2)]
            rnd += 1
        return out

    def champion(self, bracket: str = MAIN) -> str | None:
        """The bracket's winner once its final is decided."""
        final = max((m for m in self.matches().values() if m.bracket == bracket), key=lambda m: m.round, default=None)
        return final.winner if final is not None else None

    @property
    def finished(self) -> bool:
        """Every match decided (the consolation bracket appears once the first round is, so it
        is counted as soon as it exists)."""
        return bool(self.seeds) and all(m.winner for m in self.matches().values())

    # --- events -----------------------------------------------------------------------------

    def apply(self, event: Any) -> None:
        """Check the event against the bracket so far, then apply it; a refusal leaves the state
        as it was."""
        kind = event.get("type") if isinstance(event, dict) else None
        allowed = BRACKET_EVENT_FIELDS.get(kind) if isinstance(kind, str) else None
        if (
            allowed is None
            or set(event) - allowed - {"type"}
            or any(isinstance(v, str) and len(v) > MAX_TEXT_CHARS for v in event.values())
        ):
            raise malformed(
                "a bracket's events are bracket_seeded, match_result and match_corrected, with their fields only "
                f"and texts of at most {MAX_TEXT_CHARS} characters",
                limit=MAX_TEXT_CHARS,
                rule="bracket_event",
            )
        if kind == "bracket_seeded":
            self._seed(event)
        else:
            self._result(event, correction=kind == "match_corrected")
        self.events_applied += 1

    def _seed(self, event: dict[str, Any]) -> None:
        if self.seeds:
            raise TournamentError("already_seeded", "the bracket is seeded already: seeding happens once")
        entries, by = event.get("entries"), event.get("by")
        shape = "bracket_seeded: entries is a list of {entry, players, name?} in seed order, by one of rating, previous_stage, hand"
        if not isinstance(entries, list) or by not in SEEDING:
            raise malformed(shape, rule="bracket_entries")
        parsed: dict[str, dict[str, Any]] = {}
        for e in entries:
            if (
                not isinstance(e, dict)
                or set(e) - {"entry", "players", "name"}
                or not isinstance(e.get("entry"), str)
                or not e["entry"].strip()
                or not isinstance(e.get("players"), list)
                or not all(_player(p) for p in e["players"])
                or not isinstance(e.get("name", ""), str)
                or max(len(e["entry"]), len(e.get("name", ""))) > MAX_TEXT_CHARS
            ):
                raise malformed(shape, rule="bracket_entries")
            if e["entry"] in parsed:
                raise TournamentError(
                    "entry_exists", f"entry “{e['entry']}” is seeded twice", entry=e["entry"], rule="seeded_twice"
                )
            for i, p in enumerate(e["players"]):  # a player plays in one entry, once, as in a tournament
                mine = e["entry"] if p in e["players"][:i] else None
                other = mine or next((x["entry"] for x in parsed.values() if p in x["players"]), None)
                if other is not None:
                    raise TournamentError(
                        "entry_exists",
                        f"player {p!r} already plays in entry {other!r}",
                        entry=other,
                        player=p,
                        rule="player_taken",
                    )
            parsed[e["entry"]] = {
                "entry": e["entry"],
                "players": list(e["players"]),
                "name": e.get("name") or e["entry"],
            }
        if len(parsed) < 2:
            raise TournamentError("pairing_impossible", "a bracket needs at least two entries", rule="bracket")
        if len(parsed) > MAX_ENTRIES:
            raise TournamentError(
                "too_many_entries", f"a bracket has at most {MAX_ENTRIES} entries", limit=MAX_ENTRIES, rule="bracket"
            )
        self.entries, self.seeds, self.by = parsed, list(parsed), by
        self._layout = None

    def _result(self, event: dict[str, Any], *, correction: bool) -> None:
        if not self.seeds:
            raise TournamentError("not_seeded", "the bracket is not seeded yet: seed it first")
        match_id = event.get("match")
        layout = self.matches()
        match = layout.get(match_id) if isinstance(match_id, str) else None
        if match is None or match.bye:
            raise TournamentError(
                "unknown_match", f"the bracket has no match {match_id!r} to play", match=str(match_id)
            )
        if None in match.sides:
            raise TournamentError(
                "match_not_ready", f"match {match.id}: its sides are not both known yet", match=match.id
            )
        earlier = self.results.get(match.id) if match.result is not None else None
        if correction and earlier is None:
            raise TournamentError(
                "no_result", f"match {match.id} has no result to correct", match=match.id, rule="match"
            )
        if not correction and earlier is not None:
            raise TournamentError(
                "result_exists", f"match {match.id} has a result: correct it instead", match=match.id, rule="match"
            )
        played = self._played(event, match)
        if correction or played["walkover"] is not None:
            played["reason"] = reason(event)
        elif isinstance(event.get("reason"), str) and event["reason"].strip():
            played["reason"] = event["reason"]  # a note the scorer gave, kept with the result
        played["history"] = [*(earlier["history"] if earlier else []), self.events_applied]
        before = self.results
        self.results, self._layout = {**before, match.id: played}, None
        # Only a correction can unseat a later result: a first result fills sides that were
        # unknown, on which nothing can have been played yet.
        moved = self._played_on() if correction else None
        if moved is not None:
            self.results, self._layout = before, None
            raise TournamentError(
                "match_played_on",
                f"match {moved}'s result was played by the sides this correction changes: correct it first",
                match=moved,
            )

    def _played(self, event: dict[str, Any], match: Match) -> dict[str, Any]:
        """The result's games (side 0, side 1) and its winner, checked against best of N."""
        games, walkover = event.get("games"), event.get("walkover")
        shape = (
            "a match's result is games (a list of [side 0, side 1] scores) or walkover (the entry that goes through)"
        )
        if (games is None) == (walkover is None):
            raise malformed(shape, rule="bracket_result")
        if walkover is not None:
            if walkover not in match.sides:
                raise TournamentError(
                    "result_invalid",
                    f"match {match.id}: the walkover goes to one of its sides, {' or '.join(map(str, match.sides))}",
                    match=match.id,
                    sides=list(match.sides),
                    rule="walkover_side",
                )
            return {"sides": list(match.sides), "games": None, "walkover": walkover, "winner": walkover}
        if (
            not isinstance(games, list)
            or not games
            or not all(
                isinstance(g, list) and len(g) == 2 and all(is_int(p) and abs(p) <= MAX_POINTS for p in g)
                for g in games
            )
        ):
            raise malformed(shape, rule="bracket_result")
        need = self.header["best_of"] // 2 + 1
        wins = [0, 0]
        for number, (a, b) in enumerate(games, start=1):
            if max(wins) == need:
                raise TournamentError(
                    "result_invalid",
                    f"match {match.id}: best of {self.header['best_of']} ends when a side has {need} wins; "
                    f"game {number} comes after that",
                    match=match.id,
                    best_of=self.header["best_of"],
                    wins=need,
                    rule="match_overplayed",
                )
            if a == b:
                raise TournamentError(
                    "result_invalid",
                    f"match {match.id}: game {number} is drawn {a}:{b}; a knockout game is played on until one side leads",
                    match=match.id,
                    game=number,
                    rule="game_drawn",
                )
            wins[0 if a > b else 1] += 1
        if max(wins) < need:
            raise TournamentError(
                "result_invalid",
                f"match {match.id}: best of {self.header['best_of']} needs {need} wins for a side, not {max(wins)}",
                match=match.id,
                best_of=self.header["best_of"],
                wins=need,
                rule="match_undecided",
            )
        winner = match.sides[0 if wins[0] == need else 1]
        return {"sides": list(match.sides), "games": [list(g) for g in games], "walkover": None, "winner": winner}

    def _played_on(self) -> str | None:
        """A match whose result no longer stands with the new results (its sides changed), if any."""
        now = self.matches()
        for match_id, played in self.results.items():
            m = now.get(match_id)
            if m is None or m.sides != played["sides"]:
                return match_id
        return None


def new_bracket(header: Any) -> BracketState:
    return BracketState(parse_bracket_header(header))


def fold_bracket(record: Any, upto: int | None = None) -> BracketState:
    """The bracket after its first ``upto`` events (all by default); a refusal carries ``index``."""
    if (
        not isinstance(record, dict)
        or set(record) - {"format", "header", "events"}
        or not isinstance(record.get("events", []), list)
        or record.get("format", FORMAT) != FORMAT
    ):
        raise malformed("a bracket record is {format: tichu-bracket/1, header, events: [...]}", rule="bracket_record")
    return apply_all(new_bracket(record.get("header", {})), record.get("events", [])[:upto])


def bracket_json(state: BracketState) -> dict[str, Any]:
    """The bracket as JSON: its matches by bracket and round, the seeds, and the winners."""
    layout = state.matches()

    def match_json(m: Match) -> dict[str, Any]:
        out: dict[str, Any] = {"match": m.id, "round": m.round, "sides": m.sides, "winner": m.winner}
        if m.bye:
            out["bye"] = True
        if m.result is not None:
            out.update({k: m.result[k] for k in ("games", "walkover") if m.result[k] is not None})
            if m.result.get("reason"):
                out["reason"] = m.result["reason"]
        return out

    brackets: dict[str, list[list[dict[str, Any]]]] = {}
    for m in sorted(layout.values(), key=lambda m: (m.bracket != MAIN, m.round, m.number)):
        rounds = brackets.setdefault("main" if m.bracket == MAIN else "consolation", [])
        while len(rounds) < m.round:
            rounds.append([])
        rounds[m.round - 1].append(match_json(m))
    return {
        "format": FORMAT,
        "header": state.header,
        "seeding": {"by": state.by, "seeds": [{"seed": i, **state.entries[e]} for i, e in enumerate(state.seeds, 1)]},
        "brackets": brackets,
        "winner": state.champion(MAIN) if state.seeds else None,
        "consolation_winner": state.champion(CONSOLATION) if state.header["consolation"] else None,
        "finished": state.finished,
        "events": state.events_applied,
    }
