"""Leagues (docs/tournament.md, "Leagues"): a series whose entries, matches and legs are fixed in
advance, one match a team per evening (or at the teams' own date), with promotion and relegation
places carried to the next season's groups.

A league is a header and an append-only list of events, as a tournament is. The header names the
entries (teams or pairs, in the order of their pairing numbers), the legs (1, or 2 with home and
away swapped), how a match scores (a tournament scoring preset: ``dtm``, ``round_vp`` or ``box``,
with its hands or target) and, when the league counts points per match rather than the preset's
VP, ``match_points`` (win, draw, loss), the tie-breaks and the promotion and relegation places.

The fixture list is never stored: it is a fold of the header, Berger tables for each leg
(:func:`games.tournament.pairing.round_robin.berger`, the one round robin of the core), the second
leg with the sides swapped. The events are ``match_result`` (a match's hand lines, or the paper
score, or the table's game; the date it was played), ``match_corrected`` (the same, with a
reason) and ``match_scheduled`` (a match moved to the teams' own date). A refusal changes nothing.

A result that names the table's recorded game takes its numbers from that game, as a tournament's
table does (:mod:`.state`, issue 31): the site gives the fold ``game_lines``, game id -> the hand
lines the game's own fold gives now, or None while it gives none (not over, or held back from
readers). The event is then only the link "this match's result is game G", so a correction of the
game is the match's correction and no second score is kept that could disagree. A match whose
game gives no lines now is ``game_open``: shown as such, counted nowhere. Without ``game_lines``
(the pure core, the command line) a result is the event's own numbers.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import TournamentError
from .fields import MAX_TEXT_CHARS, _number_past
from .limits import MAX_HANDS_PER_ROUND, MAX_ID, MAX_POINTS, MAX_TARGET, MAX_VP
from .line_checks import check_hand_count, check_lines
from .pairing.round_robin import berger
from .record import apply_all, is_int, malformed, parse_result, reason
from .scoring import PRESETS, table_vp

FORMAT = "tichu-league/1"
#: the presets a single match can be scored by (matchpoints need other tables, points give no VP)
SCORING = ("round_vp", "box", "dtm")
#: in the order a header may list them: league points in the matches among the tied entries, the
#: Tichu-point difference, the Tichu points scored, matches won, the header's order of entries
#: (last season's places: a tie-break that always decides)
TIE_BREAKS = ("head_to_head", "difference", "points", "wins", "seed")
DEFAULT_TIE_BREAKS = ["head_to_head", "difference", "points", "seed"]
MAX_LEAGUE_ENTRIES = 40
OUTCOMES = ("win", "draw", "loss")
HEADER_KEYS = {
    "format",
    "name",
    "entries",
    "legs",
    "scoring",
    "hands",
    "target",
    "match_points",
    "tie_breaks",
    "promotion",
    "relegation",
    "dates",
    "meta",
}
_RESULT = frozenset({"match", "game", "hands", "score", "vp", "sides", "date"})
LEAGUE_EVENT_FIELDS: dict[str, frozenset[str]] = {
    "match_result": _RESULT | {"reason"},
    "match_corrected": _RESULT | {"reason"},
    "match_scheduled": frozenset({"match", "date", "reason"}),
}
LEAGUE_EVENT_TYPES = tuple(LEAGUE_EVENT_FIELDS)


def _date(value: Any) -> bool:
    """An ISO date, 2027-03-14."""
    if not isinstance(value, str) or len(value) != 10:
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _player(p: Any) -> bool:
    return (isinstance(p, str) and 0 < len(p) <= MAX_TEXT_CHARS) or (is_int(p) and abs(p) <= MAX_ID)


def parse_league_header(obj: Any) -> dict[str, Any]:
    """The header with its defaults: one leg, round_vp over the preset's hands, the preset's VP as
    the league's points, no promotion or relegation."""
    shape = (
        "a league's header has entries (a list of {entry, players, name?}), legs (1 or 2), scoring "
        "(round_vp, box or dtm), hands or target, match_points ({win, draw, loss}), tie_breaks "
        "(head_to_head, difference, points, wins, seed), promotion and relegation (places), dates"
    )
    if not isinstance(obj, dict) or set(obj) - HEADER_KEYS or obj.get("format", FORMAT) != FORMAT:
        raise malformed(shape, rule="league_header")
    scoring = obj.get("scoring", "round_vp")
    legs = obj.get("legs", 1)
    hands, target = obj.get("hands"), obj.get("target")
    points = obj.get("match_points")
    ties = obj.get("tie_breaks", DEFAULT_TIE_BREAKS)
    promotion, relegation = obj.get("promotion", 0), obj.get("relegation", 0)
    entries = obj.get("entries")
    if (
        scoring not in SCORING
        or legs not in (1, 2)
        or isinstance(legs, bool)
        or (hands is not None and not (is_int(hands, 1) and hands <= MAX_HANDS_PER_ROUND))
        or (target is not None and not (is_int(target, 1) and target <= MAX_TARGET))
        or (hands is not None and target is not None)
        or (
            points is not None
            and (
                not isinstance(points, dict)
                or set(points) != set(OUTCOMES)
                or not all(is_int(points[o], 0) and points[o] <= 100 for o in OUTCOMES)
            )
        )
        or not isinstance(ties, list)
        or any(t not in TIE_BREAKS for t in ties)
        or len(set(ties)) != len(ties)
        or not is_int(promotion, 0)
        or not is_int(relegation, 0)
        or not isinstance(entries, list)
        or not isinstance(obj.get("name", ""), str)
        or len(obj.get("name", "")) > MAX_TEXT_CHARS
        or not isinstance(obj.get("meta", {}), dict)
    ):
        raise malformed(shape, rule="league_header")
    parsed = _entries(entries)
    if promotion + relegation > len(parsed):
        raise TournamentError(
            "places_invalid",
            f"{promotion} promotion and {relegation} relegation places are more than the {len(parsed)} entries",
            promotion=promotion,
            relegation=relegation,
            entries=len(parsed),
            rule="league_places",
        )
    preset = PRESETS[scoring]
    if hands is None and target is None:
        hands, target = preset.default_hands, preset.default_target
    if preset.unit == "hand" and hands is None:
        raise malformed("the dtm preset counts VP per hand: it needs hands", rule="league_dtm_hands")
    rounds = _rounds(len(parsed)) * legs
    dates = obj.get("dates")
    if dates is not None and (not isinstance(dates, list) or len(dates) != rounds or not all(_date(d) for d in dates)):
        raise malformed(
            f"a league's dates are one ISO date (2027-03-14) for each of its {rounds} rounds",
            rounds=rounds,
            rule="league_dates",
        )
    return {
        "format": FORMAT,
        "name": obj.get("name", ""),
        "entries": parsed,
        "legs": legs,
        "scoring": scoring,
        "hands": hands,
        "target": target,
        "match_points": dict(points) if points is not None else None,
        "tie_breaks": list(ties),
        "promotion": promotion,
        "relegation": relegation,
        "dates": list(dates) if dates is not None else None,
        "meta": obj.get("meta", {}),
    }


def _entries(entries: list[Any]) -> list[dict[str, Any]]:
    shape = "a league's entries are a list of {entry, players, name?}, two at least"
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
            raise malformed(shape, rule="league_entries")
        if e["entry"] in parsed:
            raise TournamentError(
                "entry_exists", f"entry “{e['entry']}” is in the league twice", entry=e["entry"], rule="league_twice"
            )
        for i, p in enumerate(e["players"]):  # a player plays for one entry of a league
            other = e["entry"] if p in e["players"][:i] else None
            other = other or next((x["entry"] for x in parsed.values() if p in x["players"]), None)
            if other is not None:
                raise TournamentError(
                    "entry_exists",
                    f"player {p!r} already plays for entry {other!r}",
                    entry=other,
                    player=p,
                    rule="league_player_taken",
                )
        parsed[e["entry"]] = {"entry": e["entry"], "players": list(e["players"]), "name": e.get("name") or e["entry"]}
    if len(parsed) < 2:
        raise malformed(shape, rule="league_entries")
    if len(parsed) > MAX_LEAGUE_ENTRIES:
        raise TournamentError(
            "too_many_entries",
            f"a league has at most {MAX_LEAGUE_ENTRIES} entries",
            limit=MAX_LEAGUE_ENTRIES,
            rule="league",
        )
    return list(parsed.values())


def _rounds(n: int) -> int:
    """The rounds of one leg: n - 1, or n with an odd field (each entry sits one out)."""
    return n - 1 if n % 2 == 0 else n


@dataclass(frozen=True)
class Fixture:
    id: str
    round: int
    leg: int
    #: the home entry, then the away entry
    sides: tuple[str, str]


def fixtures(header: dict[str, Any]) -> list[Fixture]:
    """Every match of the league in order (round, then match): Berger tables for the entries in
    the header's order, the second leg the first with home and away swapped. With an odd field the
    entry drawn against the phantom sits the round out."""
    ids = [e["entry"] for e in header["entries"]]
    size = len(ids) + len(ids) % 2
    out: list[Fixture] = []
    for leg in range(header["legs"]):
        for r, pairs in enumerate(berger(size)):
            number = leg * (size - 1) + r + 1
            k = 0
            for a, b in pairs:
                if a >= len(ids) or b >= len(ids):
                    continue
                k += 1
                home, away = (ids[a], ids[b]) if leg == 0 else (ids[b], ids[a])
                out.append(Fixture(f"R{number}-{k}", number, leg + 1, (home, away)))
    return out


@dataclass
class LeagueState:
    header: dict[str, Any]
    fixtures: dict[str, Fixture] = field(default_factory=dict)
    #: match id -> {"score", "vp", "hands", "game", "date", "points", "reason"?, "history": [indexes]}
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: match id -> the date the teams agreed (match_scheduled)
    scheduled: dict[str, str] = field(default_factory=dict)
    #: every accepted event with its index: the league's history
    history: list[dict[str, Any]] = field(default_factory=list)
    events_applied: int = 0
    #: game id -> its hand lines now, or None while it gives none (module docstring); None: the
    #: pure core, where a result is its event's numbers
    game_lines: Mapping[Any, list[dict[str, Any]] | None] | None = None

    def __post_init__(self) -> None:
        if not self.fixtures:
            self.fixtures = {f.id: f for f in fixtures(self.header)}

    def counted(self) -> dict[str, dict[str, Any]]:
        """The results that count: every one but a match whose game gives no result now."""
        return {m: r for m, r in self.results.items() if not r.get("game_open")}

    @property
    def finished(self) -> bool:
        return len(self.counted()) == len(self.fixtures)

    def date_of(self, match: str) -> str | None:
        """When a match is (or was) played: its result's date, else the teams' date, else its round's."""
        played = self.results.get(match, {}).get("date")
        if played:
            return str(played)
        if match in self.scheduled:
            return self.scheduled[match]
        dates = self.header["dates"]
        return dates[self.fixtures[match].round - 1] if dates else None

    def apply(self, event: Any) -> None:
        """Check the event against the league so far, then apply it; a refusal changes nothing."""
        kind = event.get("type") if isinstance(event, dict) else None
        allowed = LEAGUE_EVENT_FIELDS.get(kind) if isinstance(kind, str) else None
        if (
            allowed is None
            or set(event) - allowed - {"type"}
            or any(isinstance(v, str) and len(v) > MAX_TEXT_CHARS for v in event.values())
            or not isinstance(event.get("reason", ""), str)
        ):
            raise malformed(
                "a league's events are match_result, match_corrected and match_scheduled, with their fields "
                f"only and texts of at most {MAX_TEXT_CHARS} characters",
                limit=MAX_TEXT_CHARS,
                rule="league_event",
            )
        match_id = event.get("match")
        if not isinstance(match_id, str):
            raise malformed("a league's event names its match by its id (R1-2: round 1, match 2)", rule="league_match")
        fixture = self.fixtures.get(match_id)
        if fixture is None:
            raise TournamentError(
                "unknown_match", f"the league has no match {match_id!r}", match=match_id, rule="league"
            )
        for name, limit in (("score", MAX_POINTS), ("hands", MAX_POINTS), ("vp", MAX_VP)):
            bad = _number_past(event.get(name), limit)
            if bad is not None:  # every sum the table makes stays far from overflow (.limits)
                raise malformed(
                    f"{kind}: the numbers in {name!r} are finite and at most {limit} in size, not {bad}",
                    rule="number_out_of_range",
                    type=kind,
                    field=name,
                    limit=limit,
                    value=bad,
                )
        if "date" in event and not _date(event["date"]):
            raise malformed("a match's date is an ISO date, 2027-03-14", rule="league_date")
        if kind == "match_scheduled":
            if "date" not in event:
                raise malformed("a match's date is an ISO date, 2027-03-14", rule="league_date")
            if match_id in self.results:
                raise TournamentError(
                    "result_exists",
                    f"match {match_id} has a result: it is not scheduled again",
                    match=match_id,
                    rule="league_scheduled",
                )
            self.scheduled[fixture.id] = event["date"]
        else:
            self._result(event, fixture, correction=kind == "match_corrected")
        self.history.append({"index": self.events_applied, **event})
        self.events_applied += 1

    def _result(self, event: dict[str, Any], fixture: Fixture, *, correction: bool) -> None:
        earlier = self.results.get(fixture.id)
        if correction and earlier is None:
            raise TournamentError(
                "no_result", f"match {fixture.id} has no result to correct", match=fixture.id, rule="match"
            )
        if not correction and earlier is not None:
            raise TournamentError(
                "result_exists", f"match {fixture.id} has a result: correct it instead", match=fixture.id, rule="match"
            )
        sides = event.get("sides")
        if sides is not None and sides != list(fixture.sides):
            raise TournamentError(
                "result_invalid",
                f"match {fixture.id} is {fixture.sides[0]} (home) against {fixture.sides[1]} (away), "
                "and its score is written in that order",
                match=fixture.id,
                home=fixture.sides[0],
                away=fixture.sides[1],
                rule="league_sides",
            )
        header = self.header
        preset = PRESETS[header["scoring"]]
        game = event.get("game")
        lines = self.game_lines or {}
        linked = game in lines
        if linked and self._game_open(event, fixture, earlier):
            return
        # a linked match's numbers are its game's lines now; the event's own (a copy an older
        # site stored with it) do not count
        sent = {"type": event["type"], "game": game, "hands": lines[game]} if linked else event
        result = parse_result(sent, header["hands"])
        if result["vp"] is not None and preset.unit != "hand":
            raise TournamentError(
                "result_invalid",
                f"the {preset.name} preset computes the VP from the score; give no 'vp'",
                preset=preset.name,
                rule="vp_computed",
            )
        match_header = {"scoring": header["scoring"], "hands_per_round": header["hands"], "target": header["target"]}
        check_lines(result, match_header)
        check_hand_count(result, header["hands"], None)
        vp = table_vp(preset, result, header["hands"])
        note = reason(event) if correction else event.get("reason")
        played: dict[str, Any] = {
            "score": list(result["score"]),
            "vp": [_number(vp[0]), _number(vp[1])],
            "hands": [{"points": [a, b], "double_victory": dv} for a, b, dv in result["hands"]]
            if result["hands"] is not None
            else None,
            "game": result["game"],
            # a correction keeps the date the match was played unless it gives one
            "date": event.get("date") or (earlier["date"] if earlier else None),
            "points": list(match_points(header, vp)),
            "history": [*(earlier["history"] if earlier else []), self.events_applied],
        }
        if isinstance(note, str) and note.strip():
            played["reason"] = note
        if linked:
            played["from_game"] = True
        self.results[fixture.id] = played

    def _game_open(self, event: dict[str, Any], fixture: Fixture, earlier: dict[str, Any] | None) -> bool:
        """Whether the match's game gives no result now (not over, held back from readers, or lines
        the league's preset cannot score): the match then stands as ``game_open``, linked to its
        game, counted nowhere until the game gives a result."""
        lines = self.game_lines[event["game"]] if self.game_lines is not None else None
        if lines is not None:
            header = self.header
            try:
                result = parse_result({"type": event["type"], "hands": lines}, header["hands"])
                check_lines(
                    result,
                    {"scoring": header["scoring"], "hands_per_round": header["hands"], "target": header["target"]},
                )
                check_hand_count(result, header["hands"], None)
                table_vp(PRESETS[header["scoring"]], result, header["hands"])
                return False
            except TournamentError:
                pass
        self.results[fixture.id] = {
            "score": None,
            "vp": None,
            "hands": None,
            "game": event["game"],
            "game_open": True,
            "date": event.get("date") or (earlier["date"] if earlier else None),
            "points": None,
            "history": [*(earlier["history"] if earlier else []), self.events_applied],
        }
        return True


def match_points(header: dict[str, Any], vp: tuple[float, float]) -> tuple[float, float]:
    """The league points a match gives home and away: the preset's VP, or the header's
    ``match_points`` for a win, a draw and a loss on those VP."""
    points = header["match_points"]
    if points is None:
        return _number(vp[0]), _number(vp[1])
    if vp[0] == vp[1]:
        return points["draw"], points["draw"]
    return (points["win"], points["loss"]) if vp[0] > vp[1] else (points["loss"], points["win"])


def new_league(header: Any, game_lines: Mapping[Any, list[dict[str, Any]] | None] | None = None) -> LeagueState:
    return LeagueState(parse_league_header(header), game_lines=game_lines)


def fold_league(
    record: Any, upto: int | None = None, game_lines: Mapping[Any, list[dict[str, Any]] | None] | None = None
) -> LeagueState:
    """The league after its first ``upto`` events (all by default); a refusal carries ``index``.
    ``game_lines``: the matches' games' lines as their folds give them now (module docstring)."""
    if (
        not isinstance(record, dict)
        or set(record) - {"format", "header", "events"}
        or not isinstance(record.get("events", []), list)
        or record.get("format", FORMAT) != FORMAT
    ):
        raise malformed("a league record is {format: tichu-league/1, header, events: [...]}", rule="league_record")
    return apply_all(new_league(record.get("header", {}), game_lines), record.get("events", [])[:upto])


# --- the table ---------------------------------------------------------------------------------


def _blank(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "rank": None,
        "entry": entry["entry"],
        "name": entry["name"],
        "players": entry["players"],
        "played": 0,
        "won": 0,
        "drawn": 0,
        "lost": 0,
        "league_points": 0,
        "vp": 0,
        "points_for": 0,
        "points_against": 0,
        "difference": 0,
        "zone": None,
    }


def table(state: LeagueState) -> list[dict[str, Any]]:
    """The standings: league points first, then the header's tie-breaks; entries still equal
    share a rank. ``zone`` is ``promotion`` or ``relegation`` for the entries on those places,
    ``tie`` where a shared rank straddles a place's line (a tie-break the header lacks decides)."""
    header = state.header
    rows = {e["entry"]: _blank(e) for e in header["entries"]}
    for match_id, played in state.counted().items():
        fixture = state.fixtures[match_id]
        for side in (0, 1):
            row = rows[fixture.sides[side]]
            mine, theirs = played["vp"][side], played["vp"][1 - side]
            row["played"] += 1
            row["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
            row["league_points"] += played["points"][side]
            row["vp"] += played["vp"][side]
            row["points_for"] += played["score"][side]
            row["points_against"] += played["score"][1 - side]
    for row in rows.values():
        row["difference"] = row["points_for"] - row["points_against"]
        row["league_points"], row["vp"] = _number(row["league_points"]), _number(row["vp"])
    seed = {e["entry"]: i for i, e in enumerate(header["entries"])}
    order = sorted(rows.values(), key=lambda r: (-r["league_points"], seed[r["entry"]]))
    keys = _keys(state, order, seed)
    order.sort(key=lambda r: (keys[r["entry"]], seed[r["entry"]]))
    for i, row in enumerate(order):
        same = i > 0 and keys[row["entry"]] == keys[order[i - 1]["entry"]]
        row["rank"] = order[i - 1]["rank"] if same else i + 1
    n, up, down = len(order), header["promotion"], header["relegation"]
    for row in order:
        tied = [j for j, r in enumerate(order) if r["rank"] == row["rank"]]
        if up and tied[-1] < up:
            row["zone"] = "promotion"
        elif down and tied[0] >= n - down:
            row["zone"] = "relegation"
        elif (up and tied[0] < up <= tied[-1]) or (down and tied[0] < n - down <= tied[-1]):
            row["zone"] = "tie"
    return order


def _keys(state: LeagueState, order: list[dict[str, Any]], seed: dict[str, int]) -> dict[str, tuple[Any, ...]]:
    """Each entry's sort key: league points, then each tie-break in the header's order. The head
    to head counts the league points won in the matches among the entries tied on points."""
    keys: dict[str, tuple[Any, ...]] = {}
    by_points: dict[Any, list[str]] = {}
    for row in order:
        by_points.setdefault(row["league_points"], []).append(row["entry"])
    for row in order:
        key: list[Any] = [-row["league_points"]]
        for tie in state.header["tie_breaks"]:
            if tie == "head_to_head":
                key.append(-_head_to_head(state, row["entry"], set(by_points[row["league_points"]])))
            elif tie == "seed":
                key.append(seed[row["entry"]])
            elif tie == "wins":
                key.append(-row["won"])
            else:
                key.append(-row["difference" if tie == "difference" else "points_for"])
        keys[row["entry"]] = tuple(key)
    return keys


def _head_to_head(state: LeagueState, entry: str, tied: set[str]) -> float:
    total: float = 0
    for match_id, played in state.counted().items():
        sides = state.fixtures[match_id].sides
        if entry in sides and set(sides) <= tied:
            total += played["points"][sides.index(entry)]
    return total


def _number(x: float) -> Any:
    return int(x) if float(x).is_integer() else x


def league_json(state: LeagueState) -> dict[str, Any]:
    """The league as JSON: its header, the fixtures by round (with their results), the table, and
    once every match is played the entries promoted and relegated."""
    rounds: list[dict[str, Any]] = []
    for f in state.fixtures.values():
        if len(rounds) < f.round:
            rounds.append({"round": f.round, "leg": f.leg, "matches": []})
        match: dict[str, Any] = {"match": f.id, "home": f.sides[0], "away": f.sides[1], "date": state.date_of(f.id)}
        played = state.results.get(f.id)
        if played is not None:
            match.update({k: v for k, v in played.items() if k != "history" and v is not None})
            match["corrected"] = len(played["history"]) > 1
        rounds[f.round - 1]["matches"].append(match)
    everyone = [e["entry"] for e in state.header["entries"]]
    for r in rounds:  # with an odd field one entry sits each round out
        playing = {side for m in r["matches"] for side in (m["home"], m["away"])}
        r["sits_out"] = [e for e in everyone if e not in playing]
    rows = table(state)
    finished = state.finished
    return {
        "ok": True,
        "format": FORMAT,
        "header": state.header,
        "rounds": rounds,
        "table": rows,
        "played": len(state.counted()),
        "matches": len(state.fixtures),
        "finished": finished,
        "promoted": [r["entry"] for r in rows if r["zone"] == "promotion"] if finished else None,
        "relegated": [r["entry"] for r in rows if r["zone"] == "relegation"] if finished else None,
        "undecided": [r["entry"] for r in rows if r["zone"] == "tie"],
        "events": state.events_applied,
    }


def next_season(groups: list[LeagueState]) -> list[list[str]]:
    """The entries of next season's groups, top group first: each group keeps the entries that
    neither go up nor down, takes the relegated of the group above and the promoted of the group
    below. The top group's promotion places and the bottom group's relegation places are titles
    and stay where they are. Every group must be finished, with no tie on a place's line."""
    finals: list[list[dict[str, Any]]] = []
    for number, state in enumerate(groups, start=1):
        rows = table(state)
        if not state.finished or any(r["zone"] == "tie" for r in rows):
            raise TournamentError(
                "league_unfinished",
                f"group {number} has matches to play or a tie on a promotion or relegation place",
                group=number,
                rule="league_next_season",
            )
        finals.append(rows)
    out: list[list[str]] = []
    last = len(finals) - 1
    for i, rows in enumerate(finals):
        stay = [
            r["entry"]
            for r in rows
            if not (r["zone"] == "promotion" and i > 0) and not (r["zone"] == "relegation" and i < last)
        ]
        down = [r["entry"] for r in finals[i - 1] if r["zone"] == "relegation"] if i > 0 else []
        up = [r["entry"] for r in finals[i + 1] if r["zone"] == "promotion"] if i < last else []
        out.append(down + stay + up)
    return out
